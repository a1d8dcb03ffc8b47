import type { AuthContext } from '../auth/context.js';
import type { Queryable } from '../db/types.js';
import type { NodeEntry } from '../nodes/node-registry.js';
import type { Services } from '../services.js';
import { nextDue, type ScheduleSpec } from './schedule-plan.js';
import { IN_MANAGER_STATES, SCHEDULER_STARTED, schedulerServerId } from './scheduler-state.js';

/** An AD_Scheduler row as its server shows it. */
export interface SchedulerServerRow extends ScheduleSpec {
  id: number;
  name: string;
  description: string | null;
  clientId: number;
  orgId: number;
  state: string | null;
  isActive: boolean;
  lastRunMs: number | null;
  nextRunMs: number | null;
  /** The node that claimed its latest firing. */
  lastNodeId: string | null;
  firings: number;
  failed: number;
  /** What its latest firing came to, as one line. */
  lastOutcome: string | null;
}

interface Row {
  ad_scheduler_id: number;
  name: string;
  description: string | null;
  ad_client_id: number;
  ad_org_id: number;
  schedulerstate: string | null;
  isactive: string;
  last_ms: number | null;
  next_ms: number | null;
  scheduletype: string | null;
  frequency: number | null;
  frequencytype: string | null;
  cronpattern: string | null;
  node_id: string | null;
  firings: number;
  failed: number;
  last_outcome: string | null;
}

/** One line for a firing: its failure, its run's summary, or where its run stands. */
const OUTCOME = `CASE WHEN f.is_error THEN f.summary
  WHEN i.ad_pinstance_id IS NULL THEN 'Run queued'
  WHEN i.isprocessing = 'Y' OR i.result IS NULL THEN 'Running as process instance ' || i.ad_pinstance_id
  ELSE COALESCE(NULLIF(i.errormsg, ''), CASE WHEN i.result = 1 THEN 'Finished' ELSE 'Failed' END) END`;

const SELECT_ROWS = `SELECT r.ad_scheduler_id, r.name, r.description, r.ad_client_id, r.ad_org_id, r.schedulerstate, r.isactive,
    extract(epoch FROM r.datelastrun) * 1000 AS last_ms, extract(epoch FROM r.datenextrun) * 1000 AS next_ms,
    c.scheduletype, c.frequency, c.frequencytype, c.cronpattern,
    (SELECT f.node_id FROM dictum.scheduler_firing f WHERE f.ad_scheduler_id = r.ad_scheduler_id ORDER BY f.fired_at DESC, f.due_at DESC LIMIT 1) AS node_id,
    (SELECT count(*) FROM dictum.scheduler_firing f WHERE f.ad_scheduler_id = r.ad_scheduler_id) AS firings,
    (SELECT count(*) FROM dictum.scheduler_firing f LEFT JOIN ad_pinstance i ON i.ad_pinstance_id = f.ad_pinstance_id
      WHERE f.ad_scheduler_id = r.ad_scheduler_id AND (f.is_error OR (i.isprocessing = 'N' AND i.result = 0))) AS failed,
    (SELECT ${OUTCOME} FROM dictum.scheduler_firing f LEFT JOIN ad_pinstance i ON i.ad_pinstance_id = f.ad_pinstance_id
      WHERE f.ad_scheduler_id = r.ad_scheduler_id ORDER BY f.fired_at DESC, f.due_at DESC LIMIT 1) AS last_outcome
  FROM ad_scheduler r LEFT JOIN ad_schedule c ON c.ad_schedule_id = r.ad_schedule_id`;

function rowOf(r: Row): SchedulerServerRow {
  return {
    id: Number(r.ad_scheduler_id),
    name: r.name,
    description: r.description,
    clientId: Number(r.ad_client_id),
    orgId: Number(r.ad_org_id),
    state: r.schedulerstate,
    isActive: r.isactive === 'Y',
    lastRunMs: r.last_ms === null ? null : Number(r.last_ms),
    nextRunMs: r.next_ms === null ? null : Number(r.next_ms),
    scheduleType: r.scheduletype,
    frequency: r.frequency === null ? null : Number(r.frequency),
    frequencyType: r.frequencytype,
    cronPattern: r.cronpattern,
    lastNodeId: r.node_id,
    firings: Number(r.firings),
    failed: Number(r.failed),
    lastOutcome: r.last_outcome,
  };
}

/**
 * Sets where a scheduler stands with the server manager. The state column is not updateable through
 * /models (the server manager owns it), so it is set here with the record's Updated and UpdatedBy.
 */
export async function setSchedulerState(q: Queryable, id: number, state: string, userId: number): Promise<void> {
  await q.query(`UPDATE ad_scheduler SET schedulerstate = $2, updated = now(), updatedby = $3 WHERE ad_scheduler_id = $1`, [id, state, userId]);
}

export async function schedulerServerRow(q: Queryable, id: number): Promise<SchedulerServerRow | null> {
  const { rows } = await q.query<Row>(`${SELECT_ROWS} WHERE r.ad_scheduler_id = $1`, [id]);
  return rows[0] ? rowOf(rows[0]) : null;
}

/**
 * Whether the caller sees a scheduler, as a read through /models would show it: its own client's
 * and the shared System ones (the System role: the System client's), in organisations it reaches.
 */
export function schedulerVisible(auth: AuthContext, row: { clientId: number; orgId: number }): boolean {
  const client = auth.clientId === 0 ? row.clientId === 0 : row.clientId === 0 || row.clientId === auth.clientId;
  return client && (!auth.orgIds || auth.orgIds.includes(row.orgId));
}

/** The schedulers in the server manager (started or stopped) that the caller sees, by id. */
export async function visibleSchedulerServers(q: Queryable, auth: AuthContext): Promise<SchedulerServerRow[]> {
  const { rows } = await q.query<Row>(
    `${SELECT_ROWS} WHERE r.schedulerstate = ANY($1::text[]) AND r.ad_client_id = ANY($2::bigint[]) ORDER BY r.ad_scheduler_id`,
    [IN_MANAGER_STATES, auth.clientId === 0 ? [0] : [0, auth.clientId]],
  );
  return rows.map(rowOf).filter((r) => schedulerVisible(auth, r));
}

/** The node a scheduler's server is shown on: the one that fired it last while it lives, else the one answering. */
export function schedulerNode(s: Services, row: SchedulerServerRow, live: readonly NodeEntry[]): NodeEntry {
  return live.find((n) => n.id === row.lastNodeId) ?? s.nodes.self;
}

/** The entry of GET /servers for a scheduler's server. */
export function schedulerServerEntry(row: SchedulerServerRow, node: NodeEntry): Record<string, unknown> {
  return { id: schedulerServerId(row.id), name: row.name, nodeId: node.id, hostName: node.hostName, port: node.port, started: row.state === SCHEDULER_STARTED };
}

/** GET /servers/{id} for a scheduler's server: times appear only when there is one, as the original leaves them out. */
export function schedulerServerDetail(row: SchedulerServerRow, node: NodeEntry, now = new Date()): Record<string, unknown> {
  const started = row.state === SCHEDULER_STARTED;
  const out: Record<string, unknown> = schedulerServerEntry(row, node);
  if (row.description) out.description = row.description;
  if (row.lastRunMs !== null) out.lastRun = new Date(row.lastRunMs).toISOString();
  out.info = row.lastOutcome ? `#${row.firings} - Last=${row.lastOutcome}` : 'Not run yet';
  const next = started ? (row.nextRunMs !== null && row.nextRunMs > now.getTime() ? new Date(row.nextRunMs) : nextDue(row, now)) : null;
  if (next) out.nextRun = next.toISOString();
  out.statistics = `Runs: ${row.firings}, failed: ${row.failed}`;
  out.started = started;
  // A started scheduler waits for its next firing; a stopped one is interrupted until started again.
  out.sleeping = started;
  out.interruptd = !started;
  return out;
}

interface FiringRow {
  fired_ms: number;
  due_ms: number;
  ad_pinstance_id: number | null;
  outcome: string | null;
  failed: boolean;
}

/** A scheduler's log: its firings, newest first (the last hundred), each with its run's outcome. */
export async function schedulerServerLogs(q: Queryable, id: number): Promise<Record<string, unknown>[]> {
  const { rows } = await q.query<FiringRow>(
    `SELECT extract(epoch FROM f.fired_at) * 1000 AS fired_ms, extract(epoch FROM f.due_at) * 1000 AS due_ms, f.ad_pinstance_id, ${OUTCOME} AS outcome,
        (f.is_error OR (i.isprocessing = 'N' AND i.result = 0)) IS TRUE AS failed
       FROM dictum.scheduler_firing f LEFT JOIN ad_pinstance i ON i.ad_pinstance_id = f.ad_pinstance_id
      WHERE f.ad_scheduler_id = $1 ORDER BY f.fired_at DESC, f.due_at DESC LIMIT 100`,
    [id],
  );
  return rows.map((r) => {
    const log: Record<string, unknown> = { created: new Date(Number(r.fired_ms)).toISOString() };
    if (r.outcome) log.summary = r.outcome;
    log.description = `Due ${new Date(Number(r.due_ms)).toISOString()}`;
    if (r.ad_pinstance_id !== null) log.reference = `AD_PInstance_ID=${Number(r.ad_pinstance_id)}`;
    log.error = r.failed === true;
    return log;
  });
}
