import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import type { Services } from '../services.js';
import { requireSystemAdministrator } from './admin-access.js';
import { nodeDetail } from './node-detail.js';
import { forwardToNode } from './node-forward.js';
import type { NodeEntry } from './node-registry.js';
import { Type } from '@sinclair/typebox';
import { listOf, Open } from '../openapi/answer-schemas.js';
import { OBJECT } from '../openapi/route-schema.js';

export const invalidNode = (id: string): ApiError => new ApiError(404, 'Invalid Node Id', `No live node has the id ${id}`);

/**
 * Finds the node a request names: null when it is this one (answer here); otherwise the request was
 * answered by forwarding it to that node.
 */
export async function otherNode(s: Services, id: string): Promise<NodeEntry | null> {
  if (id === s.nodes.id) return null;
  const node = await s.nodes.find(id);
  if (!node) throw invalidNode(id);
  return node;
}

/** Runs `local` when the request is about this node, else passes the request to the node it names. */
export async function onNode(s: Services, req: FastifyRequest, reply: FastifyReply, local: () => Promise<unknown>): Promise<unknown> {
  requireSystemAdministrator(req.auth);
  const { id } = req.params as { id: string };
  const node = await otherNode(s, id);
  if (node) return forwardToNode(req, reply, node, s.nodes.id);
  return local();
}

async function databaseFacts(s: Services): Promise<{ version: string | null; up: boolean; sessions: number }> {
  try {
    const { rows } = await s.db.query<{ version: string; sessions: string }>(
      `SELECT current_setting('server_version') AS version, (SELECT count(*) FROM ad_session WHERE processed <> 'Y' AND isactive = 'Y') AS sessions`,
    );
    return { version: rows[0].version, up: true, sessions: Number(rows[0].sessions) };
  } catch {
    return { version: null, up: false, sessions: 0 };
  }
}

export async function nodeRoutes(app: FastifyInstance, s: Services): Promise<void> {
  // The registry always runs, so the list is always the cluster's list (never the single local object),
  // wrapped as the original wraps it: {nodes: [...]}.
  app.get('/api/v1/nodes', { schema: { summary: 'Nodes of the cluster', answer: listOf('nodes', Open({ id: Type.String(), hostName: Type.Optional(Type.String()), port: Type.Optional(Type.Integer()) })), example: { nodes: [{ id: 'node-1', hostName: 'erp1', port: 8080 }] } } }, async (req) => {
    requireSystemAdministrator(req.auth);
    const nodes = await s.nodes.list();
    return { nodes: nodes.map((n) => ({ id: n.id, hostName: n.hostName, port: n.port })) };
  });

  app.get('/api/v1/nodes/:id', { schema: { summary: 'A node with its state', answer: OBJECT, example: { id: 'node-1', hostName: 'erp1', version: '0.1.0', up: true, sessions: 3 } } }, async (req, reply) =>
    onNode(s, req, reply, async () => {
      const db = await databaseFacts(s);
      return nodeDetail({
        node: s.nodes.self,
        home: process.cwd(),
        databaseKind: s.db.kind,
        databaseVersion: db.version,
        databaseUrl: s.config.databaseUrl,
        dataDir: s.config.dataDir,
        databaseUp: db.up,
        logLevel: s.log.level,
        currentLogFile: s.logFiles?.currentFileName() ?? '',
        sessionCount: db.sessions,
        gcCount: s.runtime.gcCount,
        gcTimeMs: s.runtime.gcTimeMs,
        eventLoop: s.runtime.eventLoopDelay(),
        uptimeMs: Date.now() - s.nodes.startedAt.getTime(),
      });
    }),
  );
}
