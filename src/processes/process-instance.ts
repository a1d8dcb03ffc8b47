import { insertRow, ts } from '../auth/util.js';
import type { AuthContext } from '../auth/context.js';
import { uuidv7 } from '../db/ids.js';
import type { Queryable } from '../db/types.js';
import type { ParamScalar, RunRequest } from './parameters.js';
import type { ProcessDef } from './process-definition.js';

/** One entry of a process log (AD_PInstance_Log) and of the result's `logs`. */
export interface ProcessLogEntry {
  msg?: string;
  number?: number;
  date?: string;
  tableId?: number;
  recordId?: number;
}

export interface NewInstance {
  def: ProcessDef;
  auth: AuthContext;
  request: RunRequest;
  record: { tableId: number; recordId: number } | null;
  runAsJob: boolean;
}

/** Text of a parameter value for AD_PInstance_Para.Info (files by name, lists joined). */
function infoOf(v: ParamScalar | null): string | null {
  if (v === null) return null;
  if (Array.isArray(v)) return v.join(',');
  if (typeof v === 'object') return 'path' in v ? v.path : v.fileName;
  return String(v);
}

/** Column values of AD_PInstance_Para for one parameter value, by its type. */
function paraColumns(v: ParamScalar | null, suffix: '' | '_to'): Record<string, unknown> {
  if (v === null) return {};
  if (typeof v === 'number') return { [`p_number${suffix}`]: v };
  if (typeof v === 'boolean') return { [`p_string${suffix}`]: v ? 'Y' : 'N' };
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v)) return { [`p_date${suffix}`]: v.length === 10 ? `${v} 00:00:00` : v };
  return { [`p_string${suffix}`]: infoOf(v)?.slice(0, 255) ?? null };
}

/**
 * Records a run before it starts: AD_PInstance (IsProcessing = Y, so that it shows as a running job)
 * and one AD_PInstance_Para row per parameter given.
 */
export async function createInstance(q: Queryable, n: NewInstance): Promise<number> {
  const { def, auth, request } = n;
  const id = await insertRow(
    q,
    'AD_PInstance',
    {
      ad_process_id: def.id,
      ad_user_id: auth.userId,
      record_id: n.record?.recordId ?? 0,
      ad_table_id: n.record?.tableId ?? null,
      isprocessing: 'Y',
      isrunasjob: n.runAsJob ? 'Y' : 'N',
      notificationtype: request.notificationType,
      reporttype: request.reportType,
      issummary: request.isSummary ? 'Y' : 'N',
      ad_printformat_id: request.printFormatId,
      name: def.name.slice(0, 60),
    },
    { clientId: auth.clientId, orgId: auth.orgId, userId: auth.userId },
  );
  const now = ts(Date.now());
  for (const p of request.params.values()) {
    const row: Record<string, unknown> = {
      ad_pinstance_id: id,
      seqno: p.def.seqNo,
      parametername: p.def.columnName,
      info: infoOf(p.value)?.slice(0, 60) ?? null,
      info_to: infoOf(p.to)?.slice(0, 60) ?? null,
      ...paraColumns(p.value, ''),
      ...paraColumns(p.to, '_to'),
      ad_client_id: auth.clientId,
      ad_org_id: auth.orgId,
      isactive: 'Y',
      created: now,
      createdby: auth.userId,
      updated: now,
      updatedby: auth.userId,
      ad_pinstance_para_uu: uuidv7(),
    };
    const cols = Object.keys(row);
    await q.query(`INSERT INTO ad_pinstance_para (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`, cols.map((c) => row[c]));
  }
  return id;
}

/** Writes the log entries of a run (AD_PInstance_Log, numbered from 1). */
export async function writeLogs(q: Queryable, instanceId: number, auth: AuthContext, logs: readonly ProcessLogEntry[]): Promise<void> {
  const now = ts(Date.now());
  let logId = 0;
  for (const l of logs) {
    await q.query(
      `INSERT INTO ad_pinstance_log (ad_pinstance_id, log_id, p_msg, p_number, p_date, ad_table_id, record_id, ad_pinstance_log_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'Y', $11, $12, $11, $12)`,
      [instanceId, ++logId, l.msg?.slice(0, 2000) ?? null, l.number ?? null, l.date ?? null, l.tableId ?? null, l.recordId ?? null, uuidv7(), auth.clientId, auth.orgId, now, auth.userId],
    );
  }
}

/** Ends a run: Result 1 (success) or 0 (error), the summary in ErrorMsg as the original keeps it, and the outcome in JsonData. */
export async function finishInstance(q: Queryable, instanceId: number, isError: boolean, summary: string, data: Record<string, unknown>): Promise<void> {
  await q.query(`UPDATE ad_pinstance SET isprocessing = 'N', result = $2, errormsg = $3, jsondata = $4, updated = $5 WHERE ad_pinstance_id = $1`, [
    instanceId,
    isError ? 0 : 1,
    summary.slice(0, 2000),
    JSON.stringify(data),
    ts(Date.now()),
  ]);
}

/**
 * Whether another run of the process (of the same record, for a record's process) is in progress.
 * Runs that started more than a day ago without finishing are taken for crashed and not counted.
 */
export async function isRunning(q: Queryable, processId: number, clientId: number, recordId: number | null): Promise<boolean> {
  const since = ts(Date.now() - 24 * 3600_000);
  const { rows } = await q.query(
    `SELECT 1 FROM ad_pinstance WHERE ad_process_id = $1 AND ad_client_id = $2 AND isprocessing = 'Y' AND created > $3 AND ($4::bigint IS NULL OR record_id = $4) LIMIT 1`,
    [processId, clientId, since, recordId],
  );
  return rows.length > 0;
}
