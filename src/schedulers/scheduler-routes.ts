import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, badRequest, conflict } from '../errors.js';
import { assertTableAccess, assertWritableRow } from '../access/access.js';
import type { AuthContext } from '../auth/context.js';
import type { Table } from '../dictionary/model.js';
import { isSystemAdministrator } from '../nodes/admin-access.js';
import { getRecord } from '../records/read/reader.js';
import type { Services } from '../services.js';
import { scheduleProblem } from './schedule-plan.js';
import { MANAGED_STATES } from './scheduler-runner.js';

const STATE_NAMES: Record<string, string> = { R: 'Started', S: 'Scheduled', X: 'Stopped' };

const invalidScheduler = (id: string): ApiError => new ApiError(404, 'Invalid scheduler Id', `No scheduler has the id ${id}`);

interface SchedulerRow {
  ad_client_id: number;
  ad_org_id: number;
  schedulerstate: string | null;
  isactive: string;
  scheduletype: string | null;
  frequency: number | null;
  frequencytype: string | null;
  cronpattern: string | null;
}

/**
 * The scheduler the id names, as far as the caller may see it, as a read through /models would: its
 * own client's and the shared System ones, in the organisations it reaches (the System role sees the
 * System client's); a role other than System needs read access to AD_Scheduler. Tenant isolation is
 * stricter than the original, whose administrator sees and manages every client's schedulers.
 */
async function schedulerRow(s: Services, auth: AuthContext, idText: string): Promise<{ id: number; row: SchedulerRow }> {
  if (!/^\d{1,10}$/.test(idText)) throw badRequest('Invalid scheduler Id', `'${idText}' is not a scheduler id`);
  if (!isSystemAdministrator(auth)) assertTableAccess(auth, schedulerTable(s));
  const id = Number(idText);
  const { rows } = await s.db.query<SchedulerRow>(
    `SELECT r.ad_client_id, r.ad_org_id, r.schedulerstate, r.isactive, c.scheduletype, c.frequency, c.frequencytype, c.cronpattern
       FROM ad_scheduler r LEFT JOIN ad_schedule c ON c.ad_schedule_id = r.ad_schedule_id WHERE r.ad_scheduler_id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) throw invalidScheduler(idText);
  const clientId = Number(row.ad_client_id);
  const visible = (clientId === 0 || clientId === auth.clientId) && (!auth.orgIds || auth.orgIds.includes(Number(row.ad_org_id)));
  if (!visible) throw invalidScheduler(idText);
  return { id, row };
}

const schedulerTable = (s: Services): Table => s.dictionary.current.byName.get('ad_scheduler')!;

/**
 * Starting or stopping a scheduler, as the original allows it: the System role those of the System
 * client, another role those of its own client in an organisation it may write, with write access
 * to AD_Scheduler (the shared System schedulers are read-only to it).
 */
function assertMayManage(s: Services, auth: AuthContext, row: SchedulerRow): void {
  if (isSystemAdministrator(auth)) return;
  assertWritableRow(auth, schedulerTable(s), Number(row.ad_client_id), Number(row.ad_org_id), 'update');
}

/** The scheduler record as /models serialises it, plus where it runs. */
async function schedulerJson(s: Services, req: FastifyRequest, id: number): Promise<Record<string, unknown>> {
  const dict = s.dictionary.current;
  const { record } = await getRecord({ dict, auth: req.auth, q: s.db }, dict.byName.get('ad_scheduler')!, String(id), { showSql: false });
  const { rows } = await s.db.query<{ schedulerstate: string | null; node_id: string | null }>(
    `SELECT r.schedulerstate, (SELECT f.node_id FROM dictum.scheduler_firing f WHERE f.ad_scheduler_id = r.ad_scheduler_id ORDER BY f.due_at DESC LIMIT 1) AS node_id
       FROM ad_scheduler r WHERE r.ad_scheduler_id = $1`,
    [id],
  );
  const state = rows[0]?.schedulerstate ?? 'X';
  // Every node runs every managed scheduler; the node shown is the one that fired it last, while it lives.
  const last = rows[0]?.node_id ? await s.nodes.find(rows[0].node_id) : null;
  const node = last ?? s.nodes.self;
  return { ...record, 'server-id': `scheduler-${id}`, 'scheduler-state': STATE_NAMES[state] ?? state, 'node-id': node.id, 'node-host-name': node.hostName, 'node-port': node.port };
}

/**
 * GET, POST (start managing: SchedulerState Scheduled) and DELETE (stop: Stopped) of a scheduler.
 * The state column is not updateable through /models (it belongs to the server manager), so it is
 * set here directly with the record's Updated and UpdatedBy.
 */
export async function schedulerRoutes(app: FastifyInstance, s: Services): Promise<void> {
  for (const base of ['/api/v1/schedulers/:id', '/api/v1/servers/schedulers/:id']) {
    app.get(base, async (req) => {
      const { id } = await schedulerRow(s, req.auth, (req.params as { id: string }).id);
      return schedulerJson(s, req, id);
    });

    app.post(base, async (req, reply) => {
      const { id, row } = await schedulerRow(s, req.auth, (req.params as { id: string }).id);
      assertMayManage(s, req.auth, row);
      if (row.schedulerstate && MANAGED_STATES.includes(row.schedulerstate)) throw conflict('Scheduler already managed', `Scheduler ${id} is already scheduled`);
      if (row.isactive !== 'Y') throw badRequest('Scheduler inactive', `Scheduler ${id} is not active`);
      const problem = scheduleProblem({ scheduleType: row.scheduletype, frequency: row.frequency === null ? null : Number(row.frequency), frequencyType: row.frequencytype, cronPattern: row.cronpattern });
      if (problem) throw badRequest('Invalid schedule', `Scheduler ${id} cannot run: ${problem}`);
      await setState(s, req, id, 'S');
      return reply.code(201).send(await schedulerJson(s, req, id));
    });

    app.delete(base, async (req) => {
      const { id, row } = await schedulerRow(s, req.auth, (req.params as { id: string }).id);
      assertMayManage(s, req.auth, row);
      await setState(s, req, id, 'X');
      return schedulerJson(s, req, id);
    });
  }
}

async function setState(s: Services, req: FastifyRequest, id: number, state: 'S' | 'X'): Promise<void> {
  await s.db.query(`UPDATE ad_scheduler SET schedulerstate = $2, updated = now(), updatedby = $3 WHERE ad_scheduler_id = $1`, [id, state, req.auth.userId]);
}
