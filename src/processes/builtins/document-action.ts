import { badRequest } from '../../errors.js';
import { ident } from '../../db/sql.js';
import { updateRecord } from '../../records/write/persist.js';
import { createWriteContext } from '../../records/write/write-context.js';
import type { ProcessCall, ProcessOutcome } from '../runner.js';

/**
 * A document action on a record (a button process such as "C_Order Process"): the record is
 * updated with {"doc-action": X} through the generic write path, where the document engine acts
 * on it. X is the DocAction parameter, else the action the record proposes (its DocAction column).
 */
export async function documentAction(c: ProcessCall): Promise<ProcessOutcome> {
  if (!c.record) throw badRequest('Invalid parameter', 'The process needs record-id with table-id or model-name');
  const { table, id } = c.record;
  if (!table.byName.has('docaction') || !table.keyColumn) throw badRequest('Invalid parameter', `${table.name} records have no document action`);
  const key = ident(table.keyColumn.dbName);
  const before = await c.tx.query<{ docaction: string | null; documentno?: string | null }>(`SELECT * FROM ${ident(table.dbName)} WHERE ${key} = $1`, [id]);
  const param = c.param('DocAction')?.value;
  const action = typeof param === 'string' ? param : before.rows[0]?.docaction;
  if (!action) throw badRequest('Invalid parameter', 'No document action given and none proposed by the record');
  const wc = createWriteContext(c.s.dictionary.current, c.auth, c.tx, c.s.events);
  await updateRecord(wc, table, String(id), { 'doc-action': action });
  await wc.deferred.flush();
  const after = await c.tx.query<{ docstatus: string | null; documentno?: string | null }>(`SELECT * FROM ${ident(table.dbName)} WHERE ${key} = $1`, [id]);
  const row = after.rows[0]!;
  const name = row.documentno ? `${table.name} ${row.documentno}` : `${table.name} ${id}`;
  c.log({ msg: `${action}: ${row.docstatus ?? ''}`, tableId: table.id, recordId: id });
  return { summary: `${name}: document action ${action}, status ${row.docstatus ?? 'unknown'}` };
}
