import type { Dictionary, Table } from '../dictionary/model.js';
import type { RestView } from '../views/view-model.js';
import { ANSWER_SCHEMAS, recordsOf, ref } from './answer-schemas.js';
import { addConcurrencyHeaders, CONCURRENCY_HEADERS, CONCURRENCY_PARAMETERS, CONCURRENCY_RESPONSES } from './concurrency-headers.js';
import type { FastifySchema } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import { originOf } from '../http/schema-validation.js';
import { parameterObject, PATH_PARAMETERS, QUERY_PARAMETERS } from './parameters.js';
import { tableSchema, viewSchema, type Schema } from './record-schema.js';
import type { RouteEntry } from './route-catalogue.js';

const ERROR_STATUSES: Record<number, [string, string]> = {
  400: ['BadRequest', 'Bad request: invalid input or query option'],
  401: ['Unauthorized', 'Missing, invalid or expired token'],
  403: ['Forbidden', 'The role may not do this'],
  404: ['NotFound', 'No such resource'],
  409: ['Conflict', 'Conflict with the current state (duplicate, referenced record)'],
  500: ['ServerError', 'Unexpected failure'],
};

/** The shared error answers (components/responses), each with the error body. */
function errorResponses(): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const [status, [name, description]] of Object.entries(ERROR_STATUSES)) {
    out[name] = { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' }, example: { title: name.replace(/([a-z])([A-Z])/g, '$1 $2'), status: Number(status), detail: description } } } };
  }
  return out;
}

/** Parameters are shared (components/parameters), query ones under names the format allows (no `$`). */
const queryKey = (name: string): string => (name.startsWith('$') ? `odata-${name.slice(1)}` : name).replace(/[^A-Za-z0-9._-]/g, '_');

function queryComponents(): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const name of Object.keys(QUERY_PARAMETERS)) out[queryKey(name)] = parameterObject(name, 'query');
  for (const name of Object.keys(PATH_PARAMETERS)) out[`path-${name}`] = parameterObject(name, 'path');
  return out;
}

/** `/api/v1/models/:table` -> `/api/v1/models/{table}` (and `/console/*` -> `/console/{path}`) and the names of its path parameters (pure). */
export function openApiPath(url: string): { path: string; params: string[] } {
  const params: string[] = [];
  const path = url
    .replace(/:([A-Za-z0-9_]+)/g, (_, n: string) => {
      params.push(n);
      return `{${n}}`;
    })
    // A trailing wildcard (the console's addresses) is one parameter, `path`, holding the rest.
    .replace(/\/\*$/, () => {
      params.push('path');
      return '/{path}';
    });
  return { path, params };
}

const BINARY = { type: 'string', format: 'binary' };
const TEXT = { type: 'string' };
const isText = (media: string): boolean => media.startsWith('text/') || media === 'application/yaml' || media === 'application/javascript';

/** What a route declares of itself (see route-schema.ts). */
type OperationFacts = FastifySchema;

/** The named component schemas, by the schema objects they are made of. */
const COMPONENT_NAMES = new Map<unknown, string>(Object.entries(ANSWER_SCHEMAS).map(([name, schema]) => [schema, name]));

/** A route's schema as the document writes it: a reference when it is a named component (pure). */
const named = (schema: unknown): unknown => {
  const name = COMPONENT_NAMES.get(originOf(schema as TSchema));
  return name ? ref(name) : schema;
};

/** The success answer: JSON and binary media types, or none (a 201 or 302 without a body) (pure). */
function successResponse(facts: OperationFacts | undefined): Schema {
  const content: Record<string, Schema> = {};
  if (facts?.answer) content['application/json'] = { schema: named(facts.answer), ...(facts.example !== undefined && !facts.body ? { example: facts.example } : {}) };
  for (const media of facts?.binary ?? []) content[media] = { schema: isText(media) ? TEXT : BINARY, ...(isText(media) && !facts?.answer && facts?.example !== undefined ? { example: facts.example } : {}) };
  if (facts?.status === 302) return { description: 'Redirect', headers: { Location: { schema: TEXT, example: facts.example } } };
  const description = facts?.binary?.length ? `Success: ${facts.binary.join(', ')}${facts.answer ? ' (or JSON where the query asks for it)' : ''}` : 'Success';
  return Object.keys(content).length ? { description, content } : { description };
}

/** One operation object from what the route says and what is known of it (pure). */
export function operation(route: RouteEntry, facts: OperationFacts | undefined = route.schema): Schema {
  const { params } = openApiPath(route.url);
  const parameters: Schema[] = params.map((name) => (PATH_PARAMETERS[name] ? { $ref: `#/components/parameters/path-${name}` } : parameterObject(name, 'path')));
  const querystring = (facts?.querystring as { properties?: Record<string, unknown> } | undefined)?.properties;
  for (const q of route.queryParameters ?? facts?.queryNames ?? Object.keys(querystring ?? {})) parameters.push(QUERY_PARAMETERS[q] ? { $ref: `#/components/parameters/${queryKey(q)}` } : parameterObject(q, 'query'));
  const responses: Record<string, Schema> = { [String(facts?.status ?? 200)]: successResponse(facts) };
  const errors = [400, 404, 500];
  if (!route.public) errors.push(401, 403);
  if (route.method !== 'GET') errors.push(409);
  for (const e of errors.sort()) responses[String(e)] = { $ref: `#/components/responses/${ERROR_STATUSES[e]![0]}` };
  const segment = route.url.split('/')[3] ?? 'api';
  const op: Schema = {
    tags: [segment],
    operationId: `${route.method.toLowerCase()}${route.url.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: facts?.summary ?? `${route.method} ${route.url}`,
    ...(facts?.description ? { description: facts.description } : {}),
    parameters,
    responses,
    ...(route.public ? { security: [] } : {}),
  };
  if (facts?.body) {
    const media = facts.bodyType ?? 'application/json';
    op.requestBody = { required: (facts.body as { default?: unknown }).default === undefined, content: { [media]: { schema: named(facts.body), ...(facts.example !== undefined ? { example: facts.example } : {}) } } };
  }
  addConcurrencyHeaders(`${route.method} ${route.url}`, op);
  return op;
}

/** The record operations that get a path of their own per table, each naming the table's schema. */
const TABLE_OPERATIONS = ['GET /api/v1/models/:table', 'POST /api/v1/models/:table', 'GET /api/v1/models/:table/:id', 'PUT /api/v1/models/:table/:id', 'DELETE /api/v1/models/:table/:id'];

/** An example body for writing a record of a table: its Name, else Description, when it has one (pure). */
function writeExample(schema: Schema): Record<string, unknown> {
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  for (const name of ['Name', 'Description', 'Value']) if (props[name] && !props[name].readOnly) return { [name]: `Example ${name.toLowerCase()}` };
  return {};
}

/**
 * The record operations of one table under its own path (`/api/v1/models/c_order/{id}`), with
 * the table's schema as body and answer, so that a generated client types them (pure).
 */
export function tableOperations(table: Table, schema: Schema, routes: RouteEntry[]): Record<string, Record<string, Schema>> {
  const paths: Record<string, Record<string, Schema>> = {};
  const name = table.modelName.toLowerCase();
  const record = ref(table.name);
  const sample = { id: 1000000, uid: '6f1d9c3e-0b1a-4c55-9d43-3c8e2d5f7a10', 'model-name': name };
  for (const r of routes) {
    const key = `${r.method} ${r.url}`;
    if (!TABLE_OPERATIONS.includes(key) || (table.isView && r.method !== 'GET')) continue;
    const facts = r.schema ?? { summary: key };
    const list = r.url.endsWith(':table') && r.method === 'GET';
    const own: OperationFacts = {
      ...facts,
      summary: `${facts.summary}: ${table.label} (${name})`,
      // A delete answers its confirmation, not the record.
      ...(facts.answer && r.method !== 'DELETE' ? { answer: list ? recordsOf(record) : record } : {}),
      ...(facts.body ? { body: record } : {}),
      example: facts.body ? writeExample(schema) : r.method === 'DELETE' ? facts.example : list ? { 'page-count': 1, 'records-size': 1, 'skip-records': 0, 'row-count': 1, 'array-count': 1, records: [sample] } : sample,
    };
    const op = operation({ ...r, url: r.url.replace(':table', name) }, own);
    addConcurrencyHeaders(key, op);
    op.tags = [`models/${name}`];
    op.operationId = `${r.method.toLowerCase()}_${name}${r.url.endsWith(':id') ? '_by_id' : ''}`;
    (paths[openApiPath(r.url.replace(':table', name)).path] ??= {})[r.method.toLowerCase()] = op;
  }
  return paths;
}

export interface DocumentScope {
  /** Tables whose schema the reader may see. */
  tables: Table[];
  views: RestView[];
}

/** Component schemas of tables (named after the table) and views (`view.<name>`) (pure). */
export function recordSchemas(dict: Dictionary, scope: DocumentScope): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const t of scope.tables) out[t.name] = tableSchema(dict, t);
  const names = new Map(scope.views.map((v) => [v.id, v.name]));
  for (const v of scope.views) out[`view.${v.name}`] = viewSchema(dict, v, (id) => names.get(id));
  return out;
}

/**
 * The OpenAPI 3.1 document of the whole API: every registered route, the schemas the reader may
 * see and, with `perTable`, the record operations of each of those tables under its own path.
 */
export function apiDocument(dict: Dictionary, routes: RouteEntry[], scope: DocumentScope, version: string, perTable = true): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const r of routes) {
    const { path } = openApiPath(r.url);
    (paths[path] ??= {})[r.method.toLowerCase()] = operation(r);
  }
  const records = recordSchemas(dict, scope);
  if (perTable) for (const t of scope.tables) Object.assign(paths, tableOperations(t, records[t.name]!, routes));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Dictum',
      version,
      description:
        'ERP over REST and JSON, compatible with the iDempiere REST API. Log in with POST /api/v1/auth/tokens and send the token as `Authorization: Bearer <token>`. ' +
        'Without a token this document describes every table; with one, the tables and views the role may see.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { ...ANSWER_SCHEMAS, ...records },
      parameters: { ...queryComponents(), ...CONCURRENCY_PARAMETERS },
      headers: CONCURRENCY_HEADERS,
      responses: { ...errorResponses(), ...CONCURRENCY_RESPONSES },
    },
  };
}

/**
 * One table's (or view's) description, as `GET /models/{table}/yaml` answers it: the record
 * schema and the record paths of that table, in the same form as the whole document (pure).
 */
export function recordDocument(dict: Dictionary, routes: RouteEntry[], base: 'models' | 'views', name: string, scope: DocumentScope, version: string): Schema {
  const prefix = `/api/v1/${base}/:${base === 'models' ? 'table' : 'view'}`;
  const mine = routes.filter((r) => (r.url === prefix || r.url.startsWith(`${prefix}/`)) && !r.url.endsWith('/yaml'));
  const whole = apiDocument(dict, mine, scope, version, false);
  const schemaName = base === 'models' ? scope.tables[0]!.name : `view.${name}`;
  const paths: Record<string, unknown> = {};
  for (const [p, ops] of Object.entries(whole.paths as Record<string, Record<string, Schema>>)) {
    const concrete = p.replace(base === 'models' ? '{table}' : '{view}', name);
    const fixed: Record<string, Schema> = {};
    for (const [m, op] of Object.entries(ops)) {
      const o = JSON.parse(JSON.stringify(op).replaceAll('#/components/schemas/Record"', `#/components/schemas/${schemaName}"`)) as Schema;
      const own = base === 'models' ? 'table' : 'view';
      o.parameters = (o.parameters as Schema[]).filter((x) => x.name !== own && x.$ref !== `#/components/parameters/path-${own}`);
      o.operationId = `${String(o.operationId)}_${name}`;
      fixed[m] = o;
    }
    paths[concrete] = fixed;
  }
  return { ...whole, info: { title: `${base}/${name}`, version }, paths };
}
