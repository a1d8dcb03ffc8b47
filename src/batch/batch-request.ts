import { badRequest } from '../errors.js';

export type BatchMethod = 'POST' | 'PUT' | 'DELETE';

export interface BatchItem {
  method: BatchMethod;
  table: string;
  id: string | null;
  body: unknown;
  /** The slug of a process run (POST v1/processes/{slug}); the table is then empty. */
  process?: string;
  /** The entry's If-Match header (its `headers` member): PUT and DELETE run only at that version. */
  ifMatch?: string;
}

/** The If-Match member of an entry's `headers` object, whatever its case. */
function ifMatchOfEntry(headers: unknown): string | undefined {
  if (headers === undefined || headers === null) return undefined;
  if (typeof headers !== 'object' || Array.isArray(headers)) throw new BatchItemError(400, 'The headers of a batch entry must be an object');
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== 'if-match') continue;
    if (typeof value !== 'string') throw new BatchItemError(400, 'If-Match must be a string');
    return value;
  }
  return undefined;
}

/** A sub-request that cannot be run; reported in its own result, not as a failure of the batch. */
export class BatchItemError extends Error {
  constructor(readonly statusCode: number, message: string) {
    super(message);
  }
}

const PATH = /^\/?(?:api\/)?v1\/models?\/([A-Za-z_][A-Za-z0-9_]*)(?:\/([^/?#]+))?\/?$/;
const PROCESS_PATH = /^\/?(?:api\/)?v1\/processes\/([^/?#]+)\/?$/;

/** Parses one {method, path, body} entry; paths look like v1/models/c_bpartner[/id], /api/ optional. */
export function parseBatchItem(raw: unknown, results: { body: unknown }[] = []): BatchItem {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new BatchItemError(400, 'A batch entry must be an object with method, path and body');
  const o = raw as Record<string, unknown>;
  const method = typeof o.method === 'string' ? o.method.toUpperCase() : '';
  const normalised = method === 'DEL' ? 'DELETE' : method;
  if (normalised !== 'POST' && normalised !== 'PUT' && normalised !== 'DELETE') throw new BatchItemError(400, `Unsupported Method: ${String(o.method ?? '')}`);
  if (typeof o.path !== 'string') throw new BatchItemError(400, 'A batch entry needs a path');
  const path = o.path.trim().replace(/\$(\d+)\.([A-Za-z][\w.-]*)/g, (ref) => {
    const v = resolveReferences(ref, results);
    if (typeof v !== 'string' && typeof v !== 'number') throw new BatchItemError(400, `Reference ${ref} in the path is not an id`);
    return encodeURIComponent(String(v));
  });
  const run = PROCESS_PATH.exec(path);
  if (run && run[1] !== 'jobs') {
    if (normalised !== 'POST') throw new BatchItemError(400, `A process runs with POST, not ${normalised}`);
    return { method: 'POST', table: '', id: null, body: o.body, process: decodeURIComponent(run[1]!) };
  }
  const m = PATH.exec(path);
  if (!m) throw new BatchItemError(404, `Unsupported path: ${o.path}`);
  const id = m[2] ? decodeURIComponent(m[2]) : null;
  if ((normalised === 'PUT' || normalised === 'DELETE') && !id) throw new BatchItemError(400, `${normalised} needs a record id in its path`);
  if (normalised === 'POST' && id) throw new BatchItemError(400, 'POST takes a table path without id');
  const ifMatch = ifMatchOfEntry(o.headers);
  return { method: normalised, table: m[1]!, id, body: o.body, ...(ifMatch === undefined ? {} : { ifMatch }) };
}

export function parseBatchBody(body: unknown): unknown[] {
  if (!Array.isArray(body)) throw badRequest('Invalid batch', 'The body must be a JSON array of {method, path, body}');
  if (body.length > 1000) throw badRequest('Invalid batch', 'A batch holds at most 1000 entries');
  return body;
}

/**
 * Replaces references to earlier results: a string value "$<n>.<field>" (for example "$0.id")
 * becomes that field of the n-th result's body. Later entries can so point at records that
 * earlier entries created.
 */
export function resolveReferences(value: unknown, results: { body: unknown }[]): unknown {
  if (typeof value === 'string') {
    const m = /^\$(\d+)\.([A-Za-z][\w.-]*)$/.exec(value);
    if (!m) return value;
    const index = Number(m[1]);
    if (index >= results.length) throw new BatchItemError(400, `Reference ${value} points at an entry that has not run`);
    let cur: unknown = results[index]!.body;
    for (const part of m[2]!.split('.')) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[part] : undefined;
    if (cur === undefined) throw new BatchItemError(400, `Reference ${value} names no value`);
    return cur;
  }
  if (Array.isArray(value)) return value.map((v) => resolveReferences(v, results));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveReferences(v, results)]));
  return value;
}
