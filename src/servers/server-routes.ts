import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { requireSystemAdministrator } from '../nodes/admin-access.js';
import { FORWARDED_HEADER, forwardToNode } from '../nodes/node-forward.js';
import type { Services } from '../services.js';
import type { BackgroundServer } from './background-server.js';
import { parseServerId, serverDetail, serverEntry } from './server-registry.js';

const invalidServer = (id: string): ApiError => new ApiError(404, 'Invalid server Id', `No server instance has the id ${id}`);

/** This node's servers, then those of every other live node (asked over HTTP; a node that does not answer is left out). */
async function allServers(s: Services, req: FastifyRequest): Promise<Record<string, unknown>[]> {
  const self = s.nodes.self;
  const out = s.servers.all().map((x) => serverEntry(x, self));
  if (req.headers[FORWARDED_HEADER]) return out;
  for (const node of await s.nodes.list()) {
    if (node.id === self.id) continue;
    try {
      const res = await fetch(new URL('/api/v1/servers', node.url), {
        headers: { [FORWARDED_HEADER]: self.id, authorization: req.headers.authorization ?? '' },
        signal: AbortSignal.timeout(5_000),
      });
      if (res.ok) out.push(...(((await res.json()) as { servers: Record<string, unknown>[] }).servers ?? []));
    } catch (err) {
      s.log.warn({ err, node: node.id }, 'servers of a node could not be listed');
    }
  }
  return out;
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
  app.get('/api/v1/servers', async (req) => {
    requireSystemAdministrator(req.auth);
    return { servers: await allServers(s, req) };
  });

  app.get('/api/v1/servers/:id', async (req, reply) => onServer(s, req, reply, async (server) => serverDetail(server, s.nodes.self)));

  app.get('/api/v1/servers/:id/logs', async (req, reply) => onServer(s, req, reply, async (server) => ({ logs: server.logs() })));

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

  /** Reload: this node's scheduler runner reads the managed schedulers again now (it reads them on every pass). */
  app.post('/api/v1/servers/reload', async (req) => {
    requireSystemAdministrator(req.auth);
    await s.schedulers.runNow();
    return { servers: await allServers(s, req) };
  });
}
