/**
 * Generators of hostile requests for every endpoint: query options of record reads ($filter,
 * $orderby, $select, $expand, $valrule, $top, $skip, $context), record bodies, batch items,
 * info-window parameters, process parameters, webhook payload templates, upload headers, login
 * and password-reset bodies, and any operation of the OpenAPI document with odd path parameters.
 */
import fc from 'fast-check';

/** What the generators draw names from, read from the running service before fuzzing. */
export interface FuzzWorld {
  /** Every table of the dictionary (model names). */
  tables: string[];
  /** Tables looked at closely: their columns and one existing id. */
  focus: { table: string; columns: string[]; id: number | null }[];
  processes: string[];
  infos: string[];
  views: string[];
  windows: string[];
  /** Operations of the OpenAPI document over the generic paths: [method, path template]. */
  operations: [string, string][];
}

export type TokenKind = 'admin' | 'none' | 'garbage';

export interface FuzzRequest {
  family: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** JSON body (serialised by the client) or raw text. */
  body?: unknown;
  raw?: string;
  token: TokenKind;
}

const SQLISH = ["'", "''", '%', '_', ';', '--', '/*', '*/', ')', '(', 'OR 1=1', "' OR '1'='1", "'); DROP TABLE c_bpartner; --", '$1', '@#AD_Client_ID@', '@SQL=SELECT 1', '\\', '\u0000', 'NULL', 'null', '1e400', '-0', 'NaN', '2020-02-30', '2026-01-01T10:00:00Z', 'pg_sleep(1)', '"quoted"', '𝒳', 'é', ' '.repeat(3), 'a'.repeat(300)];
const OP_WORDS = ['eq', 'neq', 'gt', 'ge', 'lt', 'le', 'and', 'or', 'not', 'in', 'contains', 'startswith', 'endswith', 'tolower', 'toupper', 'substringof', 'asc', 'desc', '(', ')', ',', 'true', 'false', 'null', "'x'", '12', '-3', '4.5', 'eq eq', 'in ()'];

const scalar = fc.oneof(
  fc.string({ maxLength: 16 }),
  fc.constantFrom(...SQLISH),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.date({ noInvalidDate: true, min: new Date(-1e14), max: new Date(1e14) }).map((d) => d.toISOString()),
);
/** Any JSON value, nested a little. */
export const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  { depthSize: 'small' },
  scalar,
  scalar,
  fc.array(scalar, { maxLength: 3 }),
  fc.record({ id: scalar }),
  fc.dictionary(fc.string({ maxLength: 6 }), scalar, { maxKeys: 3 }),
);

/** Text for a query option: words of the option's grammar, names of the table, or any text. */
function optionText(columns: string[]): fc.Arbitrary<string> {
  const word = fc.oneof(fc.constantFrom(...OP_WORDS), fc.constantFrom(...SQLISH), fc.constantFrom(...columns, 'id', 'uid', 'NoSuch', 'x.y'));
  return fc.oneof(
    fc.array(fc.tuple(word, fc.constantFrom(' ', '', ',', '  ')), { maxLength: 12 }).map((p) => p.map(([w, s]) => w + s).join('')),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 20 }),
  );
}

/** A well-formed-looking filter: column op literal, joined; often valid, sometimes not. */
function filterText(columns: string[]): fc.Arbitrary<string> {
  const literal = fc.oneof(fc.integer().map(String), fc.string({ maxLength: 8 }).map((s) => `'${s.replace(/'/g, "''")}'`), fc.constantFrom('null', 'true', 'false', "'2026-01-01'", '1.5', "'Y'"), fc.constantFrom(...SQLISH));
  const cmp = fc.tuple(fc.constantFrom(...columns, 'id'), fc.constantFrom('eq', 'neq', 'gt', 'ge', 'lt', 'le', 'in'), literal).map(([c, o, l]) => (o === 'in' ? `${c} in (${l},${l})` : `${c} ${o} ${l}`));
  const fn = fc.tuple(fc.constantFrom('contains', 'startswith', 'endswith', 'tolower', 'toupper'), fc.constantFrom(...columns), literal).map(([f, c, l]) => (f.startsWith('to') ? `${f}(${c}) eq ${l}` : `${f}(${c},${l})`));
  return fc.array(fc.tuple(fc.oneof(cmp, fn), fc.constantFrom(' and ', ' or ', ' and not ')), { minLength: 1, maxLength: 3 }).map((p) => p.map(([c, j], i) => (i ? j : '') + c).join(''));
}

const idText = fc.oneof(fc.integer({ min: -5, max: 2_000_000 }).map(String), fc.constantFrom('0', '100', '103', '1000000', '99999999999999999999', '-1', 'x', '1.5', "'", '%27', '..', '%00', 'null', 'c2430a68-22b2-53db-b18a-244fa996a6b6', 'not-a-uuid'), fc.string({ maxLength: 12 }).map(encodeURIComponent));

function query(parts: [string, string | null][]): string {
  const q = parts.filter(([, v]) => v !== null).map(([k, v]) => `${k}=${encodeURIComponent(v!)}`).join('&');
  return q ? `?${q}` : '';
}

const token: fc.Arbitrary<TokenKind> = fc.constantFrom<TokenKind>('admin', 'admin', 'admin', 'admin', 'admin', 'admin', 'none', 'garbage');

/** Query options of a record read over the given columns. */
function readOptions(columns: string[], world: FuzzWorld): fc.Arbitrary<string> {
  const opt = (a: fc.Arbitrary<string>) => fc.option(a, { freq: 2 });
  return fc
    .record({
      filter: opt(fc.oneof(filterText(columns), optionText(columns))),
      orderby: opt(fc.oneof(fc.array(fc.tuple(fc.constantFrom(...columns, 'NoSuch'), fc.constantFrom('', ' asc', ' desc', ' sideways', '; --')), { maxLength: 3 }).map((x) => x.map(([c, d]) => c + d).join(',')), optionText(columns))),
      select: opt(fc.oneof(fc.subarray(columns, { maxLength: Math.min(4, columns.length) }).map((x) => x.join(',')), optionText(columns))),
      expand: opt(fc.oneof(fc.constantFrom(...world.tables.slice(0, 50)).map((t) => `${t}($select=Name;$top=2)`), optionText(columns))),
      valrule: opt(fc.oneof(idText, fc.constantFrom('51', '52', '115', '189'))),
      top: opt(fc.oneof(fc.integer({ min: -5, max: 1000 }).map(String), fc.constantFrom('x', '1e3', ''))),
      skip: opt(fc.oneof(fc.integer({ min: -5, max: 1000 }).map(String), fc.constantFrom('x', '-0', ''))),
      context: opt(fc.oneof(fc.constantFrom('AD_Org_ID:11', 'C_BPartner_ID:117,IsSOTrx:Y', ':', 'x'), optionText(columns))),
      label: opt(fc.constantFrom('x', 'Y', "'", '')),
    })
    .map((o) => query([['$filter', o.filter], ['$orderby', o.orderby], ['$select', o.select], ['$expand', o.expand], ['$valrule', o.valrule], ['$top', o.top], ['$skip', o.skip], ['$context', o.context], ['label', o.label]]));
}

/** A record body over a table's columns (and some names it does not have). */
function recordBody(columns: string[]): fc.Arbitrary<Record<string, unknown>> {
  return fc.dictionary(fc.constantFrom(...columns, 'NoSuch', 'id', 'uid', 'AD_Client_ID', 'AD_Org_ID', 'model-name', 'doc-action'), jsonValue, { maxKeys: 5 });
}

/** Every family of hostile requests over what the service has. */
export function fuzzRequest(world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const focus = fc.constantFrom(...world.focus);
  const records = focus.chain((f) => fc.tuple(readOptions(f.columns, world), token).map(([q, t]): FuzzRequest => ({ family: 'record read', method: 'GET', path: `/api/v1/models/${f.table}${q}`, token: t })));
  const one = focus.chain((f) =>
    fc.tuple(fc.oneof(idText, fc.constant(String(f.id ?? 0))), readOptions(f.columns, world), fc.constantFrom('', '/Name', '/print', '/attachments', '/archives', '/attachments/zip', `/${f.columns[0] ?? 'x'}`), token).map(([id, q, sub, t]): FuzzRequest => ({ family: 'record read', method: 'GET', path: `/api/v1/models/${f.table}/${id}${sub}${sub ? '' : q}`, token: t })),
  );
  const write = focus.chain((f) =>
    fc.tuple(fc.constantFrom('POST', 'PUT', 'PUT', 'DELETE'), fc.oneof(idText, fc.constant(String(f.id ?? 0))), fc.oneof(recordBody(f.columns).map((b) => ({ body: b })), fc.string({ maxLength: 30 }).map((raw) => ({ raw })), fc.constantFrom({ raw: '[]' }, { raw: 'null' }, { raw: '{"Name":' }, { raw: '"x"' })), token).map(([m, id, b, t]): FuzzRequest => {
      // Existing rows are written only in business tables, so the fuzz does not lock itself out.
      const safeId = m !== 'POST' && f.id !== null && String(f.id) === id && !BUSINESS.has(f.table) ? '99999999' : id;
      return { family: 'record write', method: m, path: m === 'POST' ? `/api/v1/models/${f.table}` : `/api/v1/models/${f.table}/${safeId}`, ...b, token: t };
    }),
  );
  const batchItem = focus.chain((f) => fc.record({ method: fc.constantFrom('POST', 'PUT', 'DELETE', 'GET', 'PATCH', 'x'), path: fc.oneof(fc.constant(`models/${f.table}`), fc.constant(`/api/v1/models/${f.table}/99999999`), fc.string({ maxLength: 20 })), body: fc.option(recordBody(f.columns)) }, { requiredKeys: [] }));
  const batch = fc.tuple(fc.oneof(fc.array(batchItem, { maxLength: 4 }).map((items) => ({ body: items })), fc.array(batchItem, { maxLength: 4 }).map((requests) => ({ body: { requests, transaction: true } })), fc.array(batchItem, { maxLength: 4 }).map((requests) => ({ body: { requests, transaction: false } })), jsonValue.map((body) => ({ body })), fc.string({ maxLength: 20 }).map((raw) => ({ raw }))), token).map(([b, t]): FuzzRequest => ({ family: 'batch', method: 'POST', path: '/api/v1/batch', ...b, token: t }));
  const infos = fc.tuple(fc.constantFrom(...world.infos, 'nosuch'), fc.option(fc.oneof(fc.dictionary(fc.constantFrom('Name', 'Value', 'DocumentNo', 'C_BPartner_ID', 'IsCustomer', 'DocStatus', 'GrandTotal', 'DateOrdered', 'NoSuch', "x'--"), jsonValue, { maxKeys: 4 }).map((o) => JSON.stringify(o)), fc.string({ maxLength: 30 }))), fc.option(optionText(['Name', 'Value', 'DocumentNo'])), fc.constantFrom('', '/columns', '/processes', '/relateds'), token).map(([slug, p, o, sub, t]): FuzzRequest => ({ family: 'info window', method: 'GET', path: `/api/v1/infos/${slug}${sub}${query([['$parameters', p], ['$orderBy', o]])}`, token: t }));
  const views = fc.tuple(fc.constantFrom(...world.views, 'nosuch'), readOptions(['Name', 'Value', 'name', 'value', 'DocumentNo'], world), token).map(([v, q, t]): FuzzRequest => ({ family: 'view read', method: 'GET', path: `/api/v1/views/${v}${q}`, token: t }));
  const windows = fc.tuple(fc.constantFrom(...world.windows, 'nosuch'), fc.constantFrom('', '/tabs', '/99999999', '/tabs/x/1'), readOptions(['Name', 'Value', 'DocumentNo'], world), token).map(([w, sub, q, t]): FuzzRequest => ({ family: 'window read', method: 'GET', path: `/api/v1/windows/${w}${sub}${q}`, token: t }));
  const processes = fc.tuple(fc.constantFrom(...world.processes, 'nosuch'), fc.oneof(fc.dictionary(fc.constantFrom('AD_Org_ID', 'C_BPartner_ID', 'DateFrom', 'DateTo', 'M_Product_ID', 'IsActive', 'C_AcctSchema_ID', 'NoSuch', 'report-type', 'record-id', 'table-id', 'AD_Table_ID'), jsonValue, { maxKeys: 4 }), jsonValue), fc.constantFrom('/api/v1/processes/', '/api/v1/processes/jobs/'), token).map(([slug, body, base, t]): FuzzRequest => ({ family: 'process run', method: 'POST', path: base + slug, body, token: t }));
  const templates = fc.tuple(fc.oneof(fc.array(fc.oneof(fc.constantFrom('{', '}', '"', ':', ',', '[', ']', '@Name@', '"@Name@"', '@C_BPartner_ID@', '@NoSuch@', '@', '"a"', '1', 'null'), fc.string({ maxLength: 4 })), { maxLength: 12 }).map((p) => p.join('')), fc.string({ maxLength: 30 })), fc.constantFrom('TAN', 'TAC', 'TBD', 'x', ''), token).map(([tpl, code, t]): FuzzRequest => ({ family: 'webhook template', method: 'POST', path: '/api/v1/models/REST_Webhook_Out_Event', body: { REST_Webhook_Out_ID: 99999999, AD_Table_ID: 291, EventModelValidator: code, PayloadTemplate: tpl }, token: t }));
  const headerValue = fc.oneof(fc.constantFrom('0', '-1', '1', '100', '1e3', 'x', '', '99999999999999999999', 'deadbeef', 'a'.repeat(64), ' 2 ', '1,2'), fc.string({ maxLength: 10 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')));
  const uploads = fc.oneof(
    fc.tuple(fc.oneof(fc.record({ fileName: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('../etc/passwd', 'a.txt', '', 'x\u0000.pdf')), fileSize: fc.oneof(fc.integer({ min: -10, max: 2 ** 40 }), fc.constant('x')), contentType: fc.constantFrom('text/plain', 'x', ''), chunkSize: fc.integer({ min: -1, max: 1e9 }), sha256: fc.constantFrom('x', 'a'.repeat(64)) }, { requiredKeys: [] }), jsonValue), token).map(([body, t]): FuzzRequest => ({ family: 'upload', method: 'POST', path: '/api/v1/uploads', body, token: t })),
    fc.tuple(idText, fc.oneof(fc.integer({ min: -2, max: 5 }).map(String), fc.constantFrom('x', '1.5')), headerValue, headerValue, fc.string({ maxLength: 40 }), token).map(([id, n, sha, total, raw, t]): FuzzRequest => ({ family: 'upload', method: 'PUT', path: `/api/v1/uploads/${id}/chunks/${n}`, headers: { 'content-type': 'application/octet-stream', 'x-content-sha256': sha, 'x-total-chunks': total }, raw, token: t })),
    fc.tuple(idText, fc.constantFrom('GET', 'DELETE'), fc.constantFrom('', '/file'), token).map(([id, m, sub, t]): FuzzRequest => ({ family: 'upload', method: m, path: `/api/v1/uploads/${id}${m === 'GET' ? sub : ''}`, token: t })),
    fc.tuple(idText, jsonValue, token).map(([id, body, t]): FuzzRequest => ({ family: 'upload', method: 'POST', path: `/api/v1/uploads/${id}/copy`, body, token: t })),
  );
  // Names that are no account, so the failure counters of real users are never touched.
  const secrets = fc.tuple(fc.constantFrom('/api/v1/auth/tokens', '/api/v1/auth/password-reset/request', '/api/v1/auth/password-reset/verify', '/api/v1/auth/password-reset/complete', '/api/v1/auth/refresh'), fc.oneof(fc.record({ userName: fc.oneof(fc.string({ maxLength: 12 }).map((s) => `fz${s}`), fc.constantFrom("fz' OR '1'='1", 'fz@example.com')), password: fc.string({ maxLength: 12 }), email: fc.constantFrom('fz@example.com', 'x', "'"), token: fc.string({ maxLength: 20 }), code: fc.string({ maxLength: 8 }), newPassword: fc.string({ maxLength: 12 }), refresh_token: fc.string({ maxLength: 20 }), parameters: fc.dictionary(fc.constantFrom('clientId', 'roleId', 'organizationId', 'warehouseId', 'language'), jsonValue, { maxKeys: 3 }) }, { requiredKeys: [] }), jsonValue)).map(([path, body]): FuzzRequest => ({ family: 'auth', method: 'POST', path, body, token: 'none' }));
  const any = fc.tuple(fc.constantFrom(...world.operations), fc.constantFrom('', '', '', 'PATCH', 'OPTIONS'), fc.array(fc.oneof(idText, fc.constantFrom(...world.tables), fc.constantFrom(...world.views), fc.constantFrom(...world.windows), fc.constantFrom(...world.processes)), { minLength: 8, maxLength: 8 }), fc.option(fc.oneof(jsonValue, recordBody(['Name', 'Value', 'Description']))), fc.option(optionText(['Name', 'Value'])), token).map(([[m, p], other, params, body, q, t]): FuzzRequest => {
    let i = 0;
    const path = p.replace(/\{[^}]+\}/g, () => params[i++ % params.length]!);
    const tokenless = TOKENLESS.some((r) => r.test(`${m} ${p}`));
    const req: FuzzRequest = { family: 'any operation', method: other || m, path: `${path}${q !== null ? `?$filter=${encodeURIComponent(q)}` : ''}`, token: tokenless && t === 'admin' ? 'garbage' : t };
    if (body !== null && req.method !== 'GET' && req.method !== 'OPTIONS') req.body = body;
    return req;
  });
  return fc.oneof(records, records, one, write, write, batch, infos, views, windows, processes, templates, uploads, secrets, any, any, any);
}

/** Tables whose existing rows the fuzz may change: business data, not the security of the login it uses. */
const BUSINESS = new Set(['c_bpartner', 'm_product', 'c_order', 'c_orderline', 'c_invoice', 'c_invoiceline', 'c_payment', 'm_inout', 'c_project', 'r_request', 'c_campaign', 'm_product_category']);

/** Operations the fuzz sends without a valid token: they end the session it uses or stop the instance's own services. */
export const TOKENLESS = [/^POST \/api\/v1\/auth\/logout$/, /^PUT \/api\/v1\/auth\/tokens$/, /^POST \/api\/v1\/servers\//, /^(PUT|DELETE|POST) \/api\/v1\/nodes\//, /^DELETE \/api\/v1\/caches$/, /^(POST|DELETE) \/api\/v1\/(servers\/)?schedulers\//];
