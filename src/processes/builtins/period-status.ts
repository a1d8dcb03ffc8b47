import { assertWritableRow } from '../../access/access.js';
import { badRequest } from '../../errors.js';
import type { Table } from '../../dictionary/model.js';
import type { ProcessCall, ProcessOutcome } from '../runner.js';

const ACTIONS: Record<string, { status: string; text: string }> = {
  O: { status: 'O', text: 'opened' },
  C: { status: 'C', text: 'closed' },
  P: { status: 'P', text: 'permanently closed' },
};

/** The record of the process, on the table it expects, writable by the caller. */
async function ownRecord(c: ProcessCall, tableName: string): Promise<{ table: Table; row: Record<string, unknown> }> {
  const table = c.s.dictionary.current.byName.get(tableName)!;
  if (c.record?.table !== table) throw badRequest('Invalid parameter', `The process needs record-id of a ${table.name} record`);
  const { rows } = await c.tx.query<Record<string, unknown>>(`SELECT * FROM ${table.dbName} WHERE ${table.keyColumn!.dbName} = $1 FOR UPDATE`, [c.record.id]);
  const row = rows[0]!;
  assertWritableRow(c.auth, table, Number(row.ad_client_id), Number(row.ad_org_id), 'update');
  return { table, row };
}

/**
 * Open/Close of one period control (C_PeriodControl_Process, the original's PeriodControlStatus):
 * the control's PeriodAction becomes its PeriodStatus and is reset to No Action. A permanently
 * closed control does not change.
 */
export async function periodControlStatus(c: ProcessCall): Promise<ProcessOutcome> {
  const { row } = await ownRecord(c, 'c_periodcontrol');
  if (row.periodstatus === 'P') throw badRequest('Period permanently closed', `Period control ${String(row.c_periodcontrol_id)} is permanently closed`);
  const action = ACTIONS[String(row.periodaction)];
  if (!action) return { summary: 'OK: no period action' };
  await c.tx.query(`UPDATE c_periodcontrol SET periodstatus = $2, periodaction = 'N', updated = now(), updatedby = $3 WHERE c_periodcontrol_id = $1`, [
    row.c_periodcontrol_id,
    action.status,
    c.auth.userId,
  ]);
  return { summary: `${String(row.docbasetype)}: ${action.text}` };
}

/**
 * Open/Close All of a period (C_Period_Process, the original's PeriodStatus): every control of the
 * period takes the status of the PeriodAction parameter, except permanently closed ones.
 */
export async function periodStatus(c: ProcessCall): Promise<ProcessOutcome> {
  const { row } = await ownRecord(c, 'c_period');
  const param = c.param('PeriodAction')?.value;
  const action = ACTIONS[String(param)];
  if (param === 'N') return { summary: 'OK: no period action' };
  if (!action) throw badRequest('Invalid parameter', `PeriodAction must be O, C, P or N, not ${String(param)}`);
  const { rowCount } = await c.tx.query(
    `UPDATE c_periodcontrol SET periodstatus = $2, periodaction = 'N', updated = now(), updatedby = $3
      WHERE c_period_id = $1 AND periodstatus IS DISTINCT FROM 'P' AND periodstatus IS DISTINCT FROM $2`,
    [row.c_period_id, action.status, c.auth.userId],
  );
  return { summary: `${String(row.name)}: ${rowCount ?? 0} period controls ${action.text}` };
}
