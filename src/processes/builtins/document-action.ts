import { ident } from '../../db/sql.js';
import { isDocumentTable, runDocumentAction } from '../../documents/engine/engine.js';
import { parseDocAction } from '../../documents/engine/doc-status.js';
import { badRequest } from '../../errors.js';
import { createWriteContext } from '../../records/write/write-context.js';
import type { ProcessCall, ProcessOutcome } from '../runner.js';

/** Names of the document statuses (reference list 131), for the summary. */
const STATUS_NAMES: Record<string, string> = {
  DR: 'Drafted',
  IP: 'In Progress',
  IN: 'Invalid',
  AP: 'Approved',
  NA: 'Not Approved',
  CO: 'Completed',
  CL: 'Closed',
  VO: 'Voided',
  RE: 'Reversed',
  WP: 'Waiting Payment',
  WC: 'Waiting Confirmation',
};

/**
 * A document process (the button process of a document, such as "C_Order Process", or Document
 * Action): runs a document action on its record through the document engine, as a click on the
 * document's action button does. The action is the DocAction parameter, else the one the record
 * proposes in its DocAction column, as the original's document workflow takes it. An action the
 * document refuses (its status does not allow it, no lines, a closed period, ...) throws, and the
 * run ends with isError and the reason; whatever the action wrote is rolled back.
 */
export async function documentAction(c: ProcessCall): Promise<ProcessOutcome> {
  if (!c.record) throw badRequest('Invalid parameter', 'The process needs record-id with table-id or model-name');
  const { table, id } = c.record;
  const dict = c.s.dictionary.current;
  if (c.def.workflowTableId !== null && c.def.workflowTableId !== table.id) {
    throw badRequest('Invalid parameter', `${c.def.name} runs on ${dict.byId.get(c.def.workflowTableId)?.name ?? 'other'} records, not on ${table.name}`);
  }
  if (!isDocumentTable(table) || !table.keyColumn) throw badRequest('Invalid parameter', `${table.name} records have no document action`);
  const { rows } = await c.tx.query<{ docaction: string | null }>(`SELECT docaction FROM ${ident(table.dbName)} WHERE ${ident(table.keyColumn.dbName)} = $1`, [id]);
  const given = c.param('DocAction')?.value;
  const action = parseDocAction(typeof given === 'string' ? given : rows[0]?.docaction);
  if (!action) throw badRequest('Invalid parameter', 'No document action given and none proposed by the record');
  const wc = createWriteContext(dict, c.auth, c.tx, c.s.events);
  const done = await runDocumentAction(wc, table, id, action);
  await wc.deferred.flush();
  const documentNo = done.row.documentno ? String(done.row.documentno) : String(id);
  const status = STATUS_NAMES[done.status] ?? done.status;
  c.log({ msg: `${action}: ${done.status}`, tableId: table.id, recordId: id });
  const what = action === '--' ? 'no document action' : status;
  return { summary: `${table.name} ${documentNo}: ${what}${done.message ? ` (${done.message})` : ''}` };
}
