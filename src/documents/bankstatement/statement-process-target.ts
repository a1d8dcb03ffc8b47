import { assertWritableRow } from '../../access/access.js';
import type { Table } from '../../dictionary/model.js';
import { badRequest } from '../../errors.js';
import type { Row } from '../../events/model-events.js';
import type { ProcessCall } from '../../processes/runner.js';

/**
 * The draft bank statement a process runs on (its record-id), locked, after the caller's write
 * access to it; 400 when the process has no statement or the statement is processed (`refused`
 * says what cannot be done to it then).
 */
export async function draftStatementOf(c: ProcessCall, refused: string): Promise<{ table: Table; id: number; statement: Row }> {
  const table = c.s.dictionary.current.byName.get('c_bankstatement')!;
  if (c.record?.table !== table) throw badRequest('Invalid parameter', 'The process needs record-id of a C_BankStatement record');
  const { rows } = await c.tx.query<Row>('SELECT * FROM c_bankstatement WHERE c_bankstatement_id = $1 FOR UPDATE', [c.record.id]);
  const statement = rows[0]!;
  assertWritableRow(c.auth, table, Number(statement.ad_client_id), Number(statement.ad_org_id), 'update');
  if (statement.processed === 'Y') throw badRequest('Invalid parameter', `C_BankStatement ${String(statement.documentno)} is processed: ${refused}`);
  return { table, id: c.record.id, statement };
}
