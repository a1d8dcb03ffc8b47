import fs from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, badRequest, notFound } from '../errors.js';
import { requireSystemAdministrator } from '../nodes/admin-access.js';
import { onNode, otherNode } from '../nodes/node-routes.js';
import { forwardToNode } from '../nodes/node-forward.js';
import type { Services } from '../services.js';
import type { LogFiles } from './log-files.js';
import { ACCEPTED_LEVEL_NAMES, logLevelOf } from './log-level.js';
import { Type } from '@sinclair/typebox';
import { ref, Open } from '../openapi/answer-schemas.js';

const nodeLogs = Open({ logs: Type.Optional(Type.Array(Open({ fileName: Type.Optional(Type.String()), fileSize: Type.Optional(Type.Integer()) }))) });

function filesOf(s: Services): LogFiles {
  if (!s.logFiles) throw new ApiError(409, 'No log files', 'This node writes no log files (DICTUM_LOG_DIR is empty)');
  return s.logFiles;
}

const escapeHtml = (t: string): string => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A log file as the caller asks for it: its lines as JSON with asJson, HTML when the client
 * accepts it, the raw bytes for application/octet-stream, else plain text. `length` limits the
 * answer to the file's first bytes, as the collection's GET /files passes it.
 */
async function sendFile(s: Services, req: FastifyRequest, reply: FastifyReply, fileName: string | undefined, asJson: boolean, length: number | null): Promise<FastifyReply> {
  const files = filesOf(s);
  const name = fileName && fileName !== '' ? fileName : files.currentFileName();
  const file = files.pathOf(name);
  if (!file) throw notFound('Invalid file name', `No log file is named ${name}`);
  let data = await fs.promises.readFile(file);
  if (length !== null && length < data.length) data = data.subarray(0, length);
  if (asJson) {
    const lines = data.toString('utf8').split('\n').filter((l) => l.trim() !== '');
    const entries = lines.map((l) => {
      try {
        return JSON.parse(l) as unknown;
      } catch {
        return { msg: l };
      }
    });
    return reply.send({ fileName: name, fileSize: data.length, entries });
  }
  const accept = req.headers.accept ?? '';
  if (accept.includes('text/html')) {
    return reply.type('text/html; charset=utf-8').send(`<!DOCTYPE html><html><head><title>${escapeHtml(name)}</title></head><body><pre>${escapeHtml(data.toString('utf8'))}</pre></body></html>`);
  }
  if (accept.includes('application/octet-stream')) {
    return reply.type('application/octet-stream').header('content-disposition', `attachment; filename="${name}"`).send(data);
  }
  return reply.type('text/plain; charset=utf-8').send(data.toString('utf8'));
}

/** A log file as the original answers it with `json`: {data: the bytes in base64} (the first `length` bytes when given). */
async function sendBase64(s: Services, reply: FastifyReply, fileName: string | undefined, length: number | null): Promise<FastifyReply> {
  const files = filesOf(s);
  const name = fileName && fileName !== '' ? fileName : files.currentFileName();
  const file = files.pathOf(name);
  if (!file) throw notFound('Invalid file name', `No log file is named ${name}`);
  let data = await fs.promises.readFile(file);
  if (length !== null && length < data.length) data = data.subarray(0, length);
  return reply.send({ data: data.toString('base64') });
}

const flag = (v: string | undefined): boolean => v !== undefined && !/^(false|n|no|0)$/i.test(v);

function lengthOf(v: string | undefined): number | null {
  if (v === undefined || v === '') return null;
  if (!/^\d{1,12}$/.test(v)) throw badRequest('Invalid length', 'length must be a number of bytes');
  return Number(v);
}

export async function logRoutes(app: FastifyInstance, s: Services): Promise<void> {
  // {logs: [{fileName, fileSize}]}, as the original answers.
  app.get('/api/v1/nodes/:id/logs', { schema: { summary: 'Log files of a node', answer: nodeLogs, example: { logs: [{ fileName: 'dictum.log', fileSize: 1024 }] } } }, async (req, reply) => onNode(s, req, reply, async () => ({ logs: filesOf(s).list() })));

  // `json` (any value) answers {data: base64}, as the original; `asJson` is this service's own: the lines as JSON.
  app.get('/api/v1/nodes/:id/logs/file', { schema: { summary: 'A log file of a node (by fileName)', binary: ['application/octet-stream', 'text/plain', 'text/html'], answer: Open({ data: Type.Optional(Type.String()) }), example: { fileName: 'dictum.log', data: 'e30=' } }, config: { queryParameters: ['fileName', 'json', 'asJson'] } }, async (req, reply) =>
    onNode(s, req, reply, async () => {
      const q = req.query as { fileName?: string; json?: string; asJson?: string };
      if (q.json !== undefined) return sendBase64(s, reply, q.fileName, null);
      return sendFile(s, req, reply, q.fileName, flag(q.asJson), null);
    }),
  );

  // The upstream OpenAPI document names the file in the path: the bytes, or {data: base64} with json.
  app.get('/api/v1/nodes/:id/logs/:fileName', { schema: { summary: 'A log file of a node', binary: ['application/octet-stream', 'text/plain', 'text/html'], answer: Open({ data: Type.Optional(Type.String()) }), example: { fileName: 'dictum.log', data: 'e30=' } }, config: { queryParameters: ['json'] } }, async (req, reply) =>
    onNode(s, req, reply, async () => {
      const { fileName } = req.params as { fileName: string };
      const q = req.query as { json?: string };
      if (q.json !== undefined) return sendBase64(s, reply, fileName, null);
      return sendFile(s, req, reply, fileName, false, null);
    }),
  );

  /** Deletes this node's older files; the current one stays. */
  app.delete('/api/v1/nodes/:id/logs', { schema: { summary: 'Delete the log files of a node but the current one', answer: ref('Message'), example: { msg: 'Deleted' } } }, async (req, reply) =>
    onNode(s, req, reply, async () => {
      const files = filesOf(s);
      const deleted = files.deleteOld();
      s.log.info({ deleted, user: req.auth.userId }, 'old log files deleted');
      return { currentLogFile: files.currentFileName() };
    }),
  );

  app.post('/api/v1/nodes/:id/logs/rotate', { schema: { summary: 'Start a new log file on a node', answer: ref('Message'), example: { msg: 'Rotated' } } }, async (req, reply) =>
    onNode(s, req, reply, async () => {
      const files = filesOf(s);
      s.log.info({ user: req.auth.userId }, 'log file rotated on request');
      return { currentLogFile: files.rotate() };
    }),
  );

  app.put('/api/v1/nodes/:id/logs/level/:logLevel', { schema: { summary: 'Set the log level of a node', answer: ref('Message'), example: { msg: 'Log level set to info' } } }, async (req, reply) =>
    onNode(s, req, reply, async () => {
      const { logLevel } = req.params as { logLevel: string };
      const level = logLevelOf(logLevel);
      if (!level) throw badRequest('Invalid log level', `Use one of ${ACCEPTED_LEVEL_NAMES.join(', ')}`);
      s.log.level = level;
      s.log.info({ level, user: req.auth.userId }, 'log level changed');
      return { logLevel: level };
    }),
  );

  /** GET /files: a log file by name (node_id: of another node, forwarded there). */
  app.get('/api/v1/files', { schema: { summary: 'A server file by name (System)', binary: ['application/octet-stream', 'text/plain', 'text/html'], answer: Open({ data: Type.Optional(Type.String()) }), example: { fileName: 'dictum.log', data: 'e30=' } }, config: { queryParameters: ['fileName', 'length', 'node_id', 'json'] } }, async (req, reply) => {
    requireSystemAdministrator(req.auth);
    const q = req.query as { fileName?: string; length?: string; node_id?: string; json?: string };
    if (!q.fileName) throw badRequest('Missing fileName', 'fileName names a log file (GET /nodes/{id}/logs lists them)');
    if (q.node_id) {
      const node = await otherNode(s, q.node_id);
      if (node) return forwardToNode(req, reply, node, s.nodes.id);
    }
    if (q.json !== undefined) return sendBase64(s, reply, q.fileName, lengthOf(q.length));
    return sendFile(s, req, reply, q.fileName, false, lengthOf(q.length));
  });
}
