import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, badRequest, conflict } from '../errors.js';
import { assertTableAccess } from '../access/access.js';
import type { AuthContext } from '../auth/context.js';
import type { Table } from '../dictionary/model.js';
import { getRecord } from '../records/read/reader.js';
import { assertMayControlProcessor } from '../servers/server-access.js';
import type { Services } from '../services.js';
import { scheduleProblem } from './schedule-plan.js';
import { schedulerNode, schedulerServerRow, schedulerVisible, setSchedulerState, type SchedulerServerRow } from './scheduler-servers.js';
import { isInManager, SCHEDULER_NOT_MANAGED, SCHEDULER_STARTED, schedulerServerId, schedulerStateText } from './scheduler-state.js';
import { Type } from '@sinclair/typebox';
import { Open } from '../openapi/answer-schemas.js';

const invalidScheduler = (id: string): ApiError => new ApiError(404, 'Invalid scheduler Id', `No match found for scheduler id: ${id}`);

const schedulerTable = (s: Services): Table => s.dictionary.current.byName.get('ad_scheduler')!;

/**
 * The scheduler the id names, as far as the caller may see it, as a read through /models would: its
 * own client's and the shared System ones, in the organisations it reaches (the System role sees the
 * System client's); the role needs read access to AD_Scheduler. Tenant isolation is stricter than
 * the original, whose administrator sees and manages every client's schedulers.
 */
async function schedulerRow(s: Services, auth: AuthContext, idText: string): Promise<SchedulerServerRow> {
  if (!/^\d{1,10}$/.test(idText) || Number(idText) <= 0) throw badRequest('Invalid scheduler id', `Invalid scheduler id: ${idText}`);
  assertTableAccess(auth, schedulerTable(s));
  const row = await schedulerServerRow(s.db, Number(idText));
  if (!row || !schedulerVisible(auth, row)) throw invalidScheduler(idText);
  return row;
}

/** A scheduler as the document describes its answer. */
const scheduler = Open({ id: Type.Optional(Type.Integer()), name: Type.Optional(Type.String()), schedulerState: Type.Optional(Type.String()) }, 'A scheduler and its state in the server manager');

/** The scheduler record as /models serialises it, plus its server: id, state and (while it has one) node. */
async function schedulerJson(s: Services, req: FastifyRequest, id: number): Promise<Record<string, unknown>> {
  const dict = s.dictionary.current;
  const { record } = await getRecord({ dict, auth: req.auth, q: s.db }, schedulerTable(s), String(id), { showSql: false });
  const row = await schedulerServerRow(s.db, id);
  const out: Record<string, unknown> = { ...record, 'server-id': schedulerServerId(id), 'scheduler-state': schedulerStateText(row?.state ?? null) };
  if (row && isInManager(row.state)) {
    // Every node runs every started scheduler; the node shown is the one that fired it last, while it lives.
    const node = schedulerNode(s, row, await s.nodes.list());
    Object.assign(out, { 'node-id': node.id, 'node-host-name': node.hostName, 'node-port': node.port });
  }
  return out;
}

/**
 * GET, POST (add to the server manager and start: SchedulerState Started) and DELETE (remove from
 * it: Stopped) of a scheduler, under /servers/schedulers/{id} and /schedulers/{id}.
 */
export async function schedulerRoutes(app: FastifyInstance, s: Services): Promise<void> {
  for (const [base, where] of [['/api/v1/schedulers/:id', ''], ['/api/v1/servers/schedulers/:id', ' (under servers)']] as const) {
    app.get(base, { schema: { summary: `A scheduler${where}`, answer: scheduler, example: { id: 100, name: 'Nightly', schedulerState: 'Started' } } }, async (req) => {
      const row = await schedulerRow(s, req.auth, (req.params as { id: string }).id);
      return schedulerJson(s, req, row.id);
    });

    app.post(base, { schema: { summary: `Add a scheduler to the server manager and start it${where}`, status: 201, answer: scheduler, example: { id: 100, name: 'Nightly', schedulerState: 'Started' } } }, async (req, reply) => {
      const row = await schedulerRow(s, req.auth, (req.params as { id: string }).id);
      await assertMayControlProcessor(s.db, req.auth, schedulerTable(s), row, 'add scheduler', schedulerServerId(row.id));
      if (isInManager(row.state)) throw conflict('Scheduler already managed', `The server ${schedulerServerId(row.id)} already runs scheduler ${row.id}`);
      if (!row.isActive) throw badRequest('Scheduler inactive', `Scheduler ${row.id} is not active`);
      const problem = scheduleProblem(row);
      if (problem) throw badRequest('Invalid schedule', `Scheduler ${row.id} cannot run: ${problem}`);
      await setSchedulerState(s.db, row.id, SCHEDULER_STARTED, req.auth.userId);
      return reply.code(201).send(await schedulerJson(s, req, row.id));
    });

    app.delete(base, { schema: { summary: `Remove a scheduler from the server manager${where}`, answer: scheduler, example: { id: 100, name: 'Nightly', schedulerState: 'NotManaged' } } }, async (req) => {
      const row = await schedulerRow(s, req.auth, (req.params as { id: string }).id);
      await assertMayControlProcessor(s.db, req.auth, schedulerTable(s), row, 'remove scheduler', schedulerServerId(row.id));
      await setSchedulerState(s.db, row.id, SCHEDULER_NOT_MANAGED, req.auth.userId);
      return schedulerJson(s, req, row.id);
    });
  }
}
