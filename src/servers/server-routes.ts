import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { requireSystemAdministrator } from '../nodes/admin-access.js';
import { FORWARDED_HEADER, forwardToNode } from '../nodes/node-forward.js';
import type { Services } from '../services.js';
import type { BackgroundServer } from './background-server.js';
import { parseServerId, serverDetail, serverEntry } from './server-registry.js';

const invalidServer = (id: string): ApiError => new ApiError(404, 'Invalid server Id', `No server instance has the id ${id}`);

/**
 * Sends a request to every other live node with the caller's token and answers their JSON answers;
 * a node that does not answer is left out (and logged). A forwarded request goes no further.
 */
async function askOtherNodes(s: Services, req: FastifyRequest, method: 'GET' | 'POST', path: string): Promise<unknown[]> {
  if (req.headers[FORWARDED_HEADER]) return [];
  const answers: unknown[] = [];
  for (const node of await s.nodes.list()) {
    if (node.id === s.nodes.id) continue;
    try {
      const res = await fetch(new URL(path, node.url), {
        method,
        headers: { [FORWARDED_HEADER]: s.nodes.id, authorization: req.headers.authorization ?? '' },
        signal: AbortSignal.timeout(5_000),
      });
      if (res.ok) answers.push(await res.json());
    } catch (err) {
      s.log.warn({ err, node: node.id, path }, 'a node did not answer');
    }
  }
  return answers;
}

/** This node's servers, then those of every other live node. */
async function allServers(s: Services, req: FastifyRequest): Promise<Record<string, unknown>[]> {
  const out = s.servers.all().map((x) => serverEntry(x, s.nodes.self));
  for (const list of await askOtherNodes(s, req, 'GET', '/api/v1/servers')) if (Array.isArray(list)) out.push(...(list as Record<string, unknown>[]));
  return out;
}

/** Starts this node's stopped servers and re-reads the schedulers; the other live nodes do the same. */
async function reloadServers(s: Services, req: FastifyRequest): Promise<void> {
  for (const server of s.servers.all()) {
    if (server.control.started()) continue;
    await server.control.start();
    server.log(`started by reload of user ${req.auth.userId}`);
  }
  await s.schedulers.runNow();
  await askOtherNodes(s, req, 'POST', '/api/v1/servers/reload');
}

/** Runs `local` with the server the id names on this node, or passes the request to the node it names. */
async function onServer(s: Services, req: FastifyRequest, reply: FastifyReply, local: (server: BackgroundServer) => Promise<unknown>): Promise<unknown> {
  requireSystemAdministrator(req.auth);
  const { id } = req.params as { id: string };
  const parsed = parseServerId(id);
  if (!parsed) throw invalidServer(id);
  if (parsed.nodeId !== s.nodes.id) {
    const node = await s.nodes.find(parsed.nodeId);
    if (!node) throw invalidServer(id);
    return forwardToNode(req, reply, node, s.nodes.id);
  }
  const server = s.servers.byKey(parsed.key);
  if (!server) throw invalidServer(id);
  return local(server);
}

export async function serverRoutes(app: FastifyInstance, s: Services): Promise<void> {
  // Lists are bare arrays, as the original answers and the collection's scripts read them (docs/compatibility.md).
  app.get('/api/v1/servers', async (req) => {
    requireSystemAdministrator(req.auth);
    return allServers(s, req);
  });

  app.get('/api/v1/servers/:id', async (req, reply) => onServer(s, req, reply, async (server) => serverDetail(server, s.nodes.self)));

  app.get('/api/v1/servers/:id/logs', async (req, reply) => onServer(s, req, reply, async (server) => server.logs()));

  app.post('/api/v1/servers/:id/state', async (req, reply) =>
    onServer(s, req, reply, async (server) => {
      const c = server.control;
      if (c.started()) {
        await c.stop();
        server.log(`stopped by user ${req.auth.userId}`);
      } else {
        await c.start();
        server.log(`started by user ${req.auth.userId}`);
      }
      return serverDetail(server, s.nodes.self);
    }),
  );

  app.post('/api/v1/servers/:id/run', async (req, reply) =>
    onServer(s, req, reply, async (server) => {
      await server.control.runNow();
      return serverDetail(server, s.nodes.self);
    }),
  );

  /**
   * Reload, as the original's restart of every server: this node starts the servers that were stopped
   * and its scheduler runner reads the managed schedulers again now; the other nodes do the same.
   */
  app.post('/api/v1/servers/reload', async (req) => {
    requireSystemAdministrator(req.auth);
    await reloadServers(s, req);
    return allServers(s, req);
  });
}
