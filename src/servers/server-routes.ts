import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tableReadable } from '../access/access.js';
import type { Table } from '../dictionary/model.js';
import { ApiError, isApiError } from '../errors.js';
import { isSystemAdministrator } from '../nodes/admin-access.js';
import { FORWARDED_HEADER, forwardToNode } from '../nodes/node-forward.js';
import { schedulerToRun } from '../schedulers/scheduler-runner.js';
import {
  schedulerNode,
  schedulerServerDetail,
  schedulerServerEntry,
  schedulerServerLogs,
  schedulerServerRow,
  schedulerVisible,
  setSchedulerState,
  visibleSchedulerServers,
  type SchedulerServerRow,
} from '../schedulers/scheduler-servers.js';
import { isInManager, SCHEDULER_STARTED, SCHEDULER_STOPPED_IN_MANAGER, schedulerIdOfServer, schedulerServerId } from '../schedulers/scheduler-state.js';
import type { Services } from '../services.js';
import type { BackgroundServer } from './background-server.js';
import { assertMayControlProcessor, serverAccessDenied } from './server-access.js';
import { parseServerId, serverDetail, serverEntry } from './server-registry.js';
import { listOf, Open } from '../openapi/answer-schemas.js';
import { Type } from '@sinclair/typebox';
import { OBJECT } from '../openapi/route-schema.js';

const serverJob = Open({ id: Type.Optional(Type.String()), name: Type.Optional(Type.String()), state: Type.Optional(Type.String()) }, 'A background server of a node');
const serverJobs = listOf('servers', serverJob);

const invalidServer = (id: string): ApiError => new ApiError(404, 'Invalid server Id', `No match found for server id: ${id}`);

const schedulerTable = (s: Services): Table => s.dictionary.current.byName.get('ad_scheduler')!;

/**
 * Sends a request to every other live node with the caller's token and answers their `servers`
 * lists; a node that does not answer is left out (and logged). A forwarded request goes no further.
 */
async function otherNodesServers(s: Services, req: FastifyRequest, method: 'GET' | 'POST', path: string): Promise<Record<string, unknown>[]> {
  if (req.headers[FORWARDED_HEADER]) return [];
  const out: Record<string, unknown>[] = [];
  for (const node of await s.nodes.list()) {
    if (node.id === s.nodes.id) continue;
    try {
      const res = await fetch(new URL(path, node.url), {
        method,
        headers: { [FORWARDED_HEADER]: s.nodes.id, authorization: req.headers.authorization ?? '' },
        signal: AbortSignal.timeout(5_000),
      });
      const body = res.ok ? ((await res.json()) as { servers?: unknown }) : null;
      if (Array.isArray(body?.servers)) out.push(...(body.servers as Record<string, unknown>[]));
    } catch (err) {
      s.log.warn({ err, node: node.id, path }, 'a node did not answer');
    }
  }
  return out;
}

/**
 * The servers the caller sees: the System role this node's services (then every other node's) and
 * the System client's schedulers in the server manager; a tenant's role its own client's schedulers
 * and the shared ones, when it may read AD_Scheduler. A node asked by another answers its services
 * only (the schedulers are the cluster's, listed once by the node asked first).
 */
async function visibleServers(s: Services, req: FastifyRequest, method: 'GET' | 'POST', path: string): Promise<Record<string, unknown>[]> {
  const auth = req.auth;
  const out = isSystemAdministrator(auth) ? s.servers.all().map((x) => serverEntry(x, s.nodes.self)) : [];
  if (req.headers[FORWARDED_HEADER]) return out;
  if (isSystemAdministrator(auth)) out.push(...(await otherNodesServers(s, req, method, path)));
  if (tableReadable(auth, schedulerTable(s))) {
    const live = await s.nodes.list();
    for (const row of await visibleSchedulerServers(s.db, auth)) out.push(schedulerServerEntry(row, schedulerNode(s, row, live)));
  }
  return out;
}

/**
 * Reload, as the original's restart of every server: this node starts the services that were
 * stopped and the System client's schedulers stopped in the server manager, and its scheduler
 * runner reads the schedulers again now; the other nodes start their stopped services too.
 */
async function reloadServers(s: Services, req: FastifyRequest): Promise<void> {
  for (const server of s.servers.all()) {
    if (server.control.started()) continue;
    await server.control.start();
    server.log(`started by reload of user ${req.auth.userId}`);
  }
  if (!req.headers[FORWARDED_HEADER]) {
    await s.db.query(`UPDATE ad_scheduler SET schedulerstate = $1, updated = now(), updatedby = $3 WHERE ad_client_id = 0 AND schedulerstate = $2`, [
      SCHEDULER_STARTED,
      SCHEDULER_STOPPED_IN_MANAGER,
      req.auth.userId,
    ]);
  }
  await s.schedulers.runNow();
}

type Target = { kind: 'service'; server: BackgroundServer } | { kind: 'scheduler'; row: SchedulerServerRow; id: string };

/**
 * The server an id names, as far as the caller may reach it: a scheduler's server (`Scheduler100`)
 * it sees and whose table it may read, or (System role only) a service of this node; a service of
 * another node is answered by that node. Null when the request was forwarded.
 */
async function target(s: Services, req: FastifyRequest, reply: FastifyReply, request: string): Promise<Target | null> {
  const { id } = req.params as { id: string };
  const schedulerId = schedulerIdOfServer(id);
  if (schedulerId !== null) {
    const row = await schedulerServerRow(s.db, schedulerId);
    if (!row || !isInManager(row.state) || !schedulerVisible(req.auth, row)) throw invalidServer(id);
    if (!tableReadable(req.auth, schedulerTable(s))) throw serverAccessDenied(request, id);
    return { kind: 'scheduler', row, id: schedulerServerId(row.id) };
  }
  const parsed = parseServerId(id);
  if (!parsed) throw invalidServer(id);
  if (!isSystemAdministrator(req.auth)) throw serverAccessDenied(request, id);
  if (parsed.nodeId !== s.nodes.id) {
    const node = await s.nodes.find(parsed.nodeId);
    if (!node) throw invalidServer(id);
    await forwardToNode(req, reply, node, s.nodes.id);
    return null;
  }
  const server = s.servers.byKey(parsed.key);
  if (!server) throw invalidServer(id);
  return { kind: 'service', server };
}

async function detailOf(s: Services, t: Target): Promise<Record<string, unknown>> {
  if (t.kind === 'service') return serverDetail(t.server, s.nodes.self);
  const row = (await schedulerServerRow(s.db, t.row.id)) ?? t.row;
  return schedulerServerDetail(row, schedulerNode(s, row, await s.nodes.list()));
}

/** Runs a scheduler now; a run that cannot be queued is refused with its reason (409), never a 500. */
async function runScheduler(s: Services, row: SchedulerServerRow): Promise<void> {
  const sc = await schedulerToRun(s, row.id);
  if (!sc) throw new ApiError(409, 'Server error', `Scheduler ${row.id} has no schedule`);
  try {
    await s.schedulers.runOnRequest(sc);
  } catch (err) {
    if (isApiError(err)) throw err;
    throw new ApiError(409, 'Server error', `Server error with exception: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export async function serverRoutes(app: FastifyInstance, s: Services): Promise<void> {
  app.get('/api/v1/servers', { schema: { summary: 'Background servers of the nodes', answer: serverJobs, example: { servers: [{ id: 'Scheduler100', name: 'Nightly', state: 'Started' }] } } }, async (req) => ({ servers: await visibleServers(s, req, 'GET', '/api/v1/servers') }));

  app.get('/api/v1/servers/:id', { schema: { summary: 'A background server', answer: serverJob, example: { id: 'Scheduler100', name: 'Nightly', state: 'Started' } } }, async (req, reply) => {
    const t = await target(s, req, reply, 'get server');
    return t ? detailOf(s, t) : reply;
  });

  app.get('/api/v1/servers/:id/logs', { schema: { summary: 'Log of a background server', answer: listOf('logs', OBJECT), example: { logs: [] } } }, async (req, reply) => {
    const t = await target(s, req, reply, 'get server logs');
    if (!t) return reply;
    return { logs: t.kind === 'service' ? t.server.logs() : await schedulerServerLogs(s.db, t.row.id) };
  });

  app.post('/api/v1/servers/:id/state', { schema: { summary: 'Start or stop a background server', answer: serverJob, example: { id: 'Scheduler100', state: 'Stopped' } } }, async (req, reply) => {
    const t = await target(s, req, reply, 'change server state');
    if (!t) return reply;
    if (t.kind === 'scheduler') {
      await assertMayControlProcessor(s.db, req.auth, schedulerTable(s), t.row, 'change server state', t.id);
      await setSchedulerState(s.db, t.row.id, t.row.state === SCHEDULER_STARTED ? SCHEDULER_STOPPED_IN_MANAGER : SCHEDULER_STARTED, req.auth.userId);
      return detailOf(s, t);
    }
    const c = t.server.control;
    if (c.started()) {
      await c.stop();
      t.server.log(`stopped by user ${req.auth.userId}`);
    } else {
      await c.start();
      t.server.log(`started by user ${req.auth.userId}`);
    }
    return detailOf(s, t);
  });

  app.post('/api/v1/servers/:id/run', { schema: { summary: 'Run a background server now', answer: serverJob, example: { id: 'Scheduler100', state: 'Started' } } }, async (req, reply) => {
    const t = await target(s, req, reply, 'run now');
    if (!t) return reply;
    if (t.kind === 'scheduler') {
      await assertMayControlProcessor(s.db, req.auth, schedulerTable(s), t.row, 'run now', t.id);
      await runScheduler(s, t.row);
    } else {
      await t.server.control.runNow();
    }
    return detailOf(s, t);
  });

  app.post('/api/v1/servers/reload', { schema: { summary: 'Reload the background servers', answer: serverJobs, example: { servers: [] } } }, async (req) => {
    if (!isSystemAdministrator(req.auth)) throw serverAccessDenied('reload servers', '');
    await reloadServers(s, req);
    return { servers: await visibleServers(s, req, 'POST', '/api/v1/servers/reload') };
  });
}
