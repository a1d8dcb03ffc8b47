import { ident } from '../../db/sql.js';
import type { Queryable } from '../../db/types.js';
import type { Column, Dictionary } from '../../dictionary/model.js';
import type { OperationMemo } from '../../events/operation-memo.js';

/** The record a target table marks as its default (IsDefault = Y), the client's before System's. */
export function defaultRecordOf(wc: { dict: Dictionary; tx: Queryable; memo: OperationMemo }, col: Column, clientId: number): Promise<number | null> {
  const target = col.lookup ? wc.dict.byName.get(col.lookup.tableName.toLowerCase()) : undefined;
  const key = target?.byName.get(col.lookup!.keyColumn.toLowerCase());
  if (!target || !key || !target.byName.has('isdefault') || !target.byName.has('ad_client_id')) return Promise.resolve(null);
  return wc.memo.get(target.dbName, `default:${clientId}`, async () => {
    const { rows } = await wc.tx.query<{ id: number }>(
      `SELECT t.${ident(key.dbName)} AS id FROM ${ident(target.dbName)} t WHERE t."isdefault" = 'Y' AND t."isactive" = 'Y' AND t."ad_client_id" IN (0, $1) ORDER BY t."ad_client_id" DESC, t.${ident(key.dbName)} LIMIT 1`,
      [clientId],
    );
    return rows.length ? Number(rows[0]!.id) : null;
  });
}
