import type { Schema } from './record-schema.js';

/**
 * The record-version and idempotent-retry headers (docs/concurrency.md) as the document declares
 * them: shared header parameters, answer headers and answers under components, and which
 * operations take which.
 */

const tagSchema = { type: 'string' };
const errorBody = (title: string, status: number, detail: string): Schema => ({
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' }, example: { title, status, detail } } },
});

/** Header parameters (components/parameters). */
export const CONCURRENCY_PARAMETERS: Record<string, Schema> = {
  'header-If-None-Match': {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    schema: tagSchema,
    description: 'Entity tags (or *) of versions the client holds: 304 without a body when one names the current version',
    example: 'W/"48213.1764318016123"',
  },
  'header-If-Match': {
    name: 'If-Match',
    in: 'header',
    required: false,
    schema: tagSchema,
    description: 'Entity tags (or *) the record must still have (compared weakly): 412 and nothing written when it changed since',
    example: 'W/"48213.1764318016123"',
  },
  'header-Idempotency-Key': {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
    description: 'A key of 1 to 255 visible ASCII characters: a retry with the same key and body gets the first answer again (kept 24 hours) instead of doing the work twice',
    example: 'order-2026-11-28-0001',
  },
};

/** Answer headers (components/headers). */
export const CONCURRENCY_HEADERS: Record<string, Schema> = {
  ETag: { description: "The version of the record's row (a weak tag, opaque to clients)", schema: tagSchema, example: 'W/"48213.1764318016123"' },
  'Idempotent-Replayed': { description: 'true when the answer is the one kept for the Idempotency-Key, replayed', schema: { type: 'string', enum: ['true'] } },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' }, example: 1 },
};

/** Answers (components/responses). */
export const CONCURRENCY_RESPONSES: Record<string, Schema> = {
  NotModified: { description: 'Not modified: If-None-Match names the current version (no body)', headers: { ETag: { $ref: '#/components/headers/ETag' } } },
  PreconditionFailed: {
    description: 'Precondition failed: the record changed since the version If-Match names (nothing was written)',
    ...errorBody('Precondition Failed', 412, 'C_BPartner 118 has changed since the version If-Match names (now W/"48290.1764318099001"); read it again'),
  },
  IdempotencyConflict: {
    description: 'Conflict: a duplicate or referenced record, or the first request with this Idempotency-Key has not answered yet (retry after Retry-After)',
    headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
    ...errorBody('Conflict', 409, 'A request with this Idempotency-Key is still running; retry later'),
  },
  IdempotencyKeyReused: {
    description: 'Unprocessable content: the Idempotency-Key was used before with another body',
    ...errorBody('Unprocessable Content', 422, 'The Idempotency-Key was used with another request body'),
  },
};

/** Which headers each operation takes, by `METHOD url` as the route is registered. */
const SINGLE_READ = 'GET /api/v1/models/:table/:id';
const IF_MATCH = new Set(['PUT /api/v1/models/:table/:id', 'DELETE /api/v1/models/:table/:id', 'POST /api/v1/processes/:slug', 'POST /api/v1/processes/jobs/:slug']);
export const IDEMPOTENT_OPERATIONS = new Set([
  'POST /api/v1/models/:table',
  'PUT /api/v1/models/:table/:id',
  'POST /api/v1/batch',
  'POST /api/v1/processes/:slug',
  'POST /api/v1/processes/jobs/:slug',
]);

const param = (name: string): Schema => ({ $ref: `#/components/parameters/header-${name}` });
const header = (name: string): Schema => ({ $ref: `#/components/headers/${name}` });

/** The success answers of an operation (every 2xx one). */
function successes(op: Schema): Schema[] {
  const responses = op.responses as Record<string, Schema>;
  return Object.entries(responses)
    .filter(([status]) => status.startsWith('2'))
    .map(([, r]) => r);
}

function addHeader(answer: Schema, name: string): void {
  answer.headers = { ...(answer.headers as Record<string, Schema> | undefined), [name]: header(name) };
}

/**
 * Adds to an operation (registered as `key`) the concurrency headers it takes: ETag and
 * If-None-Match (304) on a single read, If-Match (412) on updates, deletes and process runs,
 * Idempotency-Key (Idempotent-Replayed, 409, 422) on the writes that can be retried (pure but for `op`).
 */
export function addConcurrencyHeaders(key: string, op: Schema): void {
  const parameters = op.parameters as Schema[];
  const responses = op.responses as Record<string, Schema>;
  if (key === SINGLE_READ) {
    parameters.push(param('If-None-Match'));
    for (const r of successes(op)) addHeader(r, 'ETag');
    responses['304'] = { $ref: '#/components/responses/NotModified' };
  }
  if (IF_MATCH.has(key)) {
    parameters.push(param('If-Match'));
    if (key.startsWith('PUT ')) for (const r of successes(op)) addHeader(r, 'ETag');
    responses['412'] = { $ref: '#/components/responses/PreconditionFailed' };
  }
  if (IDEMPOTENT_OPERATIONS.has(key)) {
    parameters.push(param('Idempotency-Key'));
    for (const r of successes(op)) addHeader(r, 'Idempotent-Replayed');
    responses['409'] = { $ref: '#/components/responses/IdempotencyConflict' };
    responses['422'] = { $ref: '#/components/responses/IdempotencyKeyReused' };
  }
  op.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}
