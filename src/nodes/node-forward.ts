import type { FastifyReply, FastifyRequest } from 'fastify';
import { REQUEST_ID_HEADER } from '../http/request-id.js';
import { ApiError } from '../errors.js';
import type { NodeEntry } from './node-registry.js';

/** Marks a request one node passed to another: the receiver answers it itself or not at all. */
export const FORWARDED_HEADER = 'x-dictum-forwarded-by';

const FORWARD_TIMEOUT_MS = 10_000;

/**
 * Answers a request about another node by asking that node (its logs and figures are only there),
 * with the caller's own token, so the receiver checks the same access. A node that does not answer
 * is refused clearly with 503 rather than left to time out.
 */
export async function forwardToNode(req: FastifyRequest, reply: FastifyReply, node: NodeEntry, selfId: string): Promise<FastifyReply> {
  if (req.headers[FORWARDED_HEADER]) throw new ApiError(404, 'Invalid Node Id', `This is not node ${node.id}`);
  const headers: Record<string, string> = { [FORWARDED_HEADER]: selfId };
  if (req.headers.authorization) headers.authorization = req.headers.authorization;
  if (req.headers.accept) headers.accept = req.headers.accept;
  // The other node logs the request under the same id.
  headers[REQUEST_ID_HEADER] = req.id;
  let body: string | undefined;
  if (req.body !== undefined && req.body !== null && req.method !== 'GET' && req.method !== 'HEAD') {
    body = JSON.stringify(req.body);
    headers['content-type'] = 'application/json';
  }
  let res: Response;
  try {
    res = await fetch(new URL(req.url, node.url), { method: req.method, headers, body, signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS) });
  } catch {
    throw new ApiError(503, 'Node unavailable', `Node ${node.id} (${node.hostName}:${node.port}) does not answer`);
  }
  const payload = Buffer.from(await res.arrayBuffer());
  reply.code(res.status);
  for (const h of ['content-type', 'content-disposition']) {
    const v = res.headers.get(h);
    if (v) reply.header(h, v);
  }
  return reply.send(payload);
}
