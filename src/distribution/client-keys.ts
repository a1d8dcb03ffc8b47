import { ident } from '../db/sql.js';
import type { Tx } from '../db/types.js';
import { primaryKeyColumns } from '../dictionary/ddl.js';
import { loadDictionary } from '../dictionary/load.js';
import { synchroniseSchema } from '../dictionary/sync.js';

/**
 * Keys every table that would be distributed by AD_Client_ID (distribution.ts) by (id,
 * AD_Client_ID), and its UUID index by (UUID, AD_Client_ID), in a database created before table
 * creation did so (ddl.ts). Ids come from sequences and UUIDs are generated, both unique across
 * clients, so the wider keys allow no row the old ones refused; a read by id or by UUID still finds
 * its row through the index's first column. Returns the tables whose primary key changed.
 */
export async function keyDistributedTablesByClient(tx: Tx): Promise<string[]> {
  const dict = await loadDictionary(tx);
  const changed: string[] = [];
  for (const table of dict.tables) {
    if (table.isView) continue;
    const wanted = primaryKeyColumns(table);
    if (wanted.length < 2) continue;
    const { rows } = await tx.query<{ name: string; columns: string[] }>(
      `SELECT con.conname AS name,
              ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
                      JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum ORDER BY k.ord) AS columns
         FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE con.contype = 'p' AND n.nspname = current_schema() AND c.relname = $1`,
      [table.dbName],
    );
    const current = rows[0];
    if (current && current.columns.join(',') === wanted.join(',')) continue;
    const exists = await tx.query('SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = $1', [table.dbName]);
    if (!exists.rows.length) continue;
    if (current) await tx.query(`ALTER TABLE ${ident(table.dbName)} DROP CONSTRAINT ${ident(current.name)}`);
    await tx.query(`ALTER TABLE ${ident(table.dbName)} ADD PRIMARY KEY (${wanted.map((c) => ident(c)).join(', ')})`);
    changed.push(table.dbName);
  }
  // The UUID indexes now differ from their definition (ddl.ts): synchronisation rebuilds them.
  await synchroniseSchema(tx, dict);
  return changed;
}
