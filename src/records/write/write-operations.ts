import type { AuthContext } from '../../auth/context.js';
import type { Tx } from '../../db/types.js';
import type { Services } from '../../services.js';
import { tableFromPath } from '../http/table-from-path.js';
import type { JsonObject } from '../serialize.js';
import { insertRecord, loadForWrite, updateRecord, type Row } from './persist.js';
import { deleteRecord } from './delete-record.js';
import { assertWritableRow, isOwnPasswordChange } from '../../access/access.js';
import { parseBody } from './body.js';
import { assertIfMatch } from '../versions/row-version.js';
import { renderWriteResults } from './render-result.js';
import { createWriteContext, type WriteContext } from './write-context.js';
import { docActionOfBody } from '../../documents/engine/doc-status.js';
import { isDocumentTable, runDocumentAction } from '../../documents/engine/engine.js';
import type { Table } from '../../dictionary/model.js';
import type { WriteResult } from './persist.js';

export interface OperationResult {
  status: number;
  body: JsonObject;
  /** The record's version after the write, when the request asked for versions (If-Match). */
  version?: string | null;
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

/**
 * PUT /models/{table}/{id}: 200 with the full updated record. With If-Match, the record is
 * locked and its version compared before anything is written (412 when it changed), and the
 * answer carries the version it has afterwards.
 */
export async function updateOperation(s: Services, auth: AuthContext, tx: Tx, tableName: string, id: string, body: unknown, ifMatch?: string): Promise<OperationResult> {
  const wc = writeContext(s, auth, tx);
  const table = tableFromPath(s, tableName);
  const existing = ifMatch === undefined ? undefined : await lockedAtVersion(wc, table, id, ifMatch, { body });
  const result = await updateRecord(wc, table, id, body, existing);
  await wc.deferred.flush();
  // The version after the write comes with the record's read for the answer: no statement of its own.
  const versions = ifMatch === undefined ? undefined : new Map<string, string | null>();
  const out: OperationResult = { status: 200, body: await withDocAction(wc, table, result, body, false, versions) };
  if (versions) out.version = versionOfResult(table, result, versions);
  return out;
}

/** DELETE /models/{table}/{id}: 200 {msg: Deleted}; with If-Match, 412 when the record changed. */
export async function deleteOperation(s: Services, auth: AuthContext, tx: Tx, tableName: string, id: string, ifMatch?: string): Promise<OperationResult> {
  const wc = writeContext(s, auth, tx);
  const table = tableFromPath(s, tableName);
  const existing = ifMatch === undefined ? undefined : await lockedAtVersion(wc, table, id, ifMatch, 'delete');
  await deleteRecord(wc, table, id, existing);
  await wc.deferred.flush();
  return { status: 200, body: { msg: 'Deleted' } };
}

/** The version of the written record among those its answer's read gave. */
function versionOfResult(table: Table, result: WriteResult, versions: Map<string, string | null>): string | null {
  const key = table.keyColumn ?? table.uuColumn;
  return key ? (versions.get(String(result.row[key.dbName])) ?? null) : null;
}

/**
 * The record locked for writing (404 / 403 as any write), when its version is the one If-Match
 * names; 412 otherwise. Once locked it cannot change before this request's write.
 */
async function lockedAtVersion(wc: WriteContext, table: Table, id: string, ifMatch: string, change: { body: unknown } | 'delete'): Promise<Row> {
  let version: string | null = null;
  const row = await loadForWrite(wc, table, id, (v) => (version = v));
  // One who may not write the record learns nothing of its versions: the write's own 403 first.
  const ownPassword = change !== 'delete' && isOwnPasswordChange(wc.auth, table, row, parseBody(wc.dict, table, change.body).values.keys());
  const at = (c: string) => (table.byName.has(c) ? Number(row[c]) : null);
  assertWritableRow(wc.auth, table, at('ad_client_id'), at('ad_org_id'), change === 'delete' ? 'delete' : 'update', ownPassword);
  assertIfMatch(table, id, ifMatch, version);
  return row;
}

/**
 * Runs the body's doc-action (if any) on the saved document, in the same transaction, and
 * renders the record as it is afterwards, with "doc-processmsg" when an action ran. On tables
 * that are not documents the member is ignored, as the original ignores it.
 */
async function withDocAction(wc: WriteContext, table: Table, result: WriteResult, body: unknown, created = false, versions?: Map<string, string | null>): Promise<JsonObject> {
  const action = docActionOfBody(body);
  let message: string | undefined;
  if (action !== undefined && isDocumentTable(table) && table.keyColumn) {
    // A PUT that only asks for the action has the row locked and checked already: not loaded again.
    const options = created ? { newRecord: true } : result.unchanged ? { lockedRow: result.row } : {};
    const done = await runDocumentAction(wc, table, String(result.row[table.keyColumn.dbName]), action, options);
    await wc.deferred.flush();
    message = done.message;
  }
  const [record] = await renderWriteResults({ dict: wc.dict, auth: wc.auth, q: wc.tx }, [result], false, versions);
  if (message !== undefined) record!['doc-processmsg'] = message;
  return record!;
}
