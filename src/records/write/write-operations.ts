import type { AuthContext } from '../../auth/context.js';
import type { Tx } from '../../db/types.js';
import type { Services } from '../../services.js';
import { tableFromPath } from '../http/table-from-path.js';
import type { JsonObject } from '../serialize.js';
import { deleteRecord, insertRecord, updateRecord } from './persist.js';
import { renderWriteResults } from './render-result.js';
import { createWriteContext, type WriteContext } from './write-context.js';
import { docActionOfBody } from '../../documents/engine/doc-status.js';
import { isDocumentTable, runDocumentAction } from '../../documents/engine/engine.js';
import type { Table } from '../../dictionary/model.js';
import type { WriteResult } from './persist.js';

export interface OperationResult {
  status: number;
  body: JsonObject;
}

function writeContext(s: Services, auth: AuthContext, tx: Tx): WriteContext {
  return createWriteContext(s.dictionary.current, auth, tx, s.events);
}

/** POST /models/{table}: 201 with the created record. */
export async function createOperation(s: Services, auth: AuthContext, tx: Tx, tableName: string, body: unknown): Promise<OperationResult> {
  const wc = writeContext(s, auth, tx);
  const table = tableFromPath(s, tableName);
  const result = await insertRecord(wc, table, body);
  await wc.deferred.flush();
  return { status: 201, body: await withDocAction(wc, table, result, body, true) };
}

/** PUT /models/{table}/{id}: 200 with the full updated record. */
export async function updateOperation(s: Services, auth: AuthContext, tx: Tx, tableName: string, id: string, body: unknown): Promise<OperationResult> {
  const wc = writeContext(s, auth, tx);
  const table = tableFromPath(s, tableName);
  const result = await updateRecord(wc, table, id, body);
  await wc.deferred.flush();
  return { status: 200, body: await withDocAction(wc, table, result, body) };
}

/** DELETE /models/{table}/{id}: 200 {msg: Deleted}. */
export async function deleteOperation(s: Services, auth: AuthContext, tx: Tx, tableName: string, id: string): Promise<OperationResult> {
  const wc = writeContext(s, auth, tx);
  await deleteRecord(wc, tableFromPath(s, tableName), id);
  await wc.deferred.flush();
  return { status: 200, body: { msg: 'Deleted' } };
}

/**
 * Runs the body's doc-action (if any) on the saved document, in the same transaction, and
 * renders the record as it is afterwards, with "doc-processmsg" when an action ran. On tables
 * that are not documents the member is ignored, as the original ignores it.
 */
async function withDocAction(wc: WriteContext, table: Table, result: WriteResult, body: unknown, created = false): Promise<JsonObject> {
  const action = docActionOfBody(body);
  let message: string | undefined;
  if (action !== undefined && isDocumentTable(table) && table.keyColumn) {
    const done = await runDocumentAction(wc, table, String(result.row[table.keyColumn.dbName]), action, { newRecord: created });
    await wc.deferred.flush();
    message = done.message;
  }
  const [record] = await renderWriteResults({ dict: wc.dict, auth: wc.auth, q: wc.tx }, [result], false);
  if (message !== undefined) record!['doc-processmsg'] = message;
  return record!;
}
