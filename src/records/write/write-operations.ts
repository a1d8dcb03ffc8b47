import type { AuthContext } from '../../auth/context.js';
import type { Tx } from '../../db/types.js';
import type { Services } from '../../services.js';
import { tableFromPath } from '../http/table-from-path.js';
import type { JsonObject } from '../serialize.js';
import { deleteRecord, insertRecord, updateRecord } from './persist.js';
import { renderWriteResults } from './render-result.js';
import { createWriteContext, type WriteContext } from './write-context.js';

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
  const [record] = await renderWriteResults({ dict: wc.dict, auth, q: wc.tx }, [result], false);
  return { status: 201, body: record! };
}

/** PUT /models/{table}/{id}: 200 with the full updated record. */
export async function updateOperation(s: Services, auth: AuthContext, tx: Tx, tableName: string, id: string, body: unknown): Promise<OperationResult> {
  const wc = writeContext(s, auth, tx);
  const table = tableFromPath(s, tableName);
  const result = await updateRecord(wc, table, id, body);
  await wc.deferred.flush();
  const [record] = await renderWriteResults({ dict: wc.dict, auth, q: wc.tx }, [result], false);
  return { status: 200, body: record! };
}

/** DELETE /models/{table}/{id}: 200 {msg: Deleted}. */
export async function deleteOperation(s: Services, auth: AuthContext, tx: Tx, tableName: string, id: string): Promise<OperationResult> {
  const wc = writeContext(s, auth, tx);
  await deleteRecord(wc, tableFromPath(s, tableName), id);
  await wc.deferred.flush();
  return { status: 200, body: { msg: 'Deleted' } };
}
