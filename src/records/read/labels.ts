import type { Table } from '../../dictionary/model.js';
import { badRequest } from '../../errors.js';
import type { Json, JsonObject } from '../serialize.js';
import type { ReadContext } from './read-context.js';

const LABEL_COLUMNS = new Set(['name', 'description', 'ad_label_id', 'ad_label_uu']);

/**
 * Adds assigned-labels to each record: objects with Name and Description by default, the
 * chosen columns with showlabel=A,B, or plain values with a single column.
 */
export async function addAssignedLabels(rc: ReadContext, table: Table, records: JsonObject[], columns: string[]): Promise<void> {
  if (!table.keyColumn || records.length === 0) return;
  const labelTable = rc.dict.byName.get('ad_label')!;
  const chosen = (columns.length ? columns : ['Name', 'Description']).map((c) => {
    const col = labelTable.byName.get(c.toLowerCase());
    if (!col || !LABEL_COLUMNS.has(col.dbName)) throw badRequest('Invalid showlabel', `${c} is not a label column`);
    return col;
  });
  const ids = records.map((r) => Number(r.id));
  const { rows } = await rc.q.query<Record<string, unknown>>(
    `SELECT la."record_id" AS "$record", ${chosen.map((c) => `lbl.${'"' + c.dbName + '"'}`).join(', ')}
       FROM "ad_labelassignment" la JOIN "ad_label" lbl ON lbl."ad_label_id" = la."ad_label_id"
      WHERE la."ad_table_id" = $1 AND la."record_id" = ANY($2::bigint[]) AND la."isactive" = 'Y' AND lbl."isactive" = 'Y'
        AND lbl."ad_client_id" IN (0, $3)
      ORDER BY lbl."name"`,
    [table.id, ids, rc.auth.clientId],
  );
  const byRecord = new Map<number, Json[]>();
  for (const r of rows) {
    const entry: Json =
      chosen.length === 1 && columns.length === 1
        ? (r[chosen[0]!.dbName] as Json) ?? null
        : Object.fromEntries(chosen.map((c) => [c.name, (r[c.dbName] as Json) ?? null]));
    const k = Number(r.$record);
    let list = byRecord.get(k);
    if (!list) byRecord.set(k, (list = []));
    list.push(entry);
  }
  for (const rec of records) rec['assigned-labels'] = byRecord.get(Number(rec.id)) ?? [];
}
