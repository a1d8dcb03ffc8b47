import type { Tx } from '../db/types.js';
import { loadDictionary } from '../dictionary/load.js';
import { findTable } from '../dictionary/model.js';
import { synchroniseSchema } from '../dictionary/sync.js';
import { insertSeedRows } from '../seed/insert-rows.js';

/**
 * Unique dictionary indexes of distributed tables that take AD_Client_ID as their last column:
 * each row they key belongs to one client (a price list version is one client's), so the wider
 * index refuses the same rows. The storage keys are left alone: they are ON CONFLICT targets of
 * the stock code (see docs/operations.md, Running on Citus).
 */
const WIDENED = [{ tableIndexId: 200005, table: 'M_ProductPrice', indexColumnId: 1122000 }];

/** Adds AD_Client_ID to the indexes of WIDENED in the dictionary, then rebuilds them. */
export async function addClientToUniqueIndexes(tx: Tx, now = new Date().toISOString()): Promise<void> {
  const dict = await loadDictionary(tx);
  const indexColumns = findTable(dict, 'AD_IndexColumn')!;
  for (const w of WIDENED) {
    const client = findTable(dict, w.table)?.byName.get('ad_client_id');
    const { rows } = await tx.query<{ next: number }>('SELECT coalesce(max(seqno), 0) + 10 AS next FROM ad_indexcolumn WHERE ad_tableindex_id = $1', [w.tableIndexId]);
    const exists = await tx.query('SELECT 1 FROM ad_tableindex WHERE ad_tableindex_id = $1', [w.tableIndexId]);
    if (!client || !exists.rows.length) continue;
    const row = { AD_IndexColumn_ID: w.indexColumnId, AD_Client_ID: 0, AD_Org_ID: 0, AD_TableIndex_ID: w.tableIndexId, AD_Column_ID: client.id, SeqNo: Number(rows[0]!.next), EntityType: 'D', IsIncluded: false };
    await insertSeedRows(tx, indexColumns, [row], now, { skipExisting: true });
  }
  await synchroniseSchema(tx, await loadDictionary(tx));
}
