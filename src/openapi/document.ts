import type { Dictionary, Table } from '../dictionary/model.js';
import type { RestView } from '../views/view-model.js';
import { OPERATIONS, type OperationFacts } from './operations.js';
import { commonSchemas, tableSchema, viewSchema, type Schema } from './record-schema.js';
import type { RouteEntry } from './route-catalogue.js';

const ERROR_STATUSES: Record<number, string> = {
  400: 'Bad request: invalid input or query option',
  401: 'Missing, invalid or expired token',
  403: 'The role may not do this',
  404: 'No such resource',
  409: 'Conflict with the current state (duplicate, referenced record)',
  500: 'Unexpected failure',
};

const errorResponse = (description: string): Schema => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } });

/** `/api/v1/models/:table` -> `/api/v1/models/{table}` and the names of its path parameters (pure). */
export function openApiPath(url: string): { path: string; params: string[] } {
  const params: string[] = [];
  const path = url.replace(/:([A-Za-z0-9_]+)/g, (_, n: string) => {
    params.push(n);
    return `{${n}}`;
  });
  return { path, params };
}

/** One operation object from what the route says and what is known of it (pure). */
export function operation(route: RouteEntry, facts: OperationFacts | undefined): Schema {
  const { params } = openApiPath(route.url);
  const parameters: Schema[] = params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  for (const q of facts?.query ?? []) parameters.push({ name: q, in: 'query', required: false, schema: { type: 'string' } });
  const status = facts?.status ?? 200;
  const responses: Record<string, Schema> = {
    [String(status)]: { description: 'Success', content: { [facts?.contentType ?? 'application/json']: { schema: facts?.response ?? { type: 'object', additionalProperties: true } } } },
  };
  const errors = [400, 404, 500];
  if (!route.public) errors.push(401, 403);
  if (route.method !== 'GET') errors.push(409);
  for (const e of errors.sort()) responses[String(e)] = errorResponse(ERROR_STATUSES[e]!);
  const segment = route.url.split('/')[3] ?? 'api';
  const op: Schema = {
    tags: [segment],
    operationId: `${route.method.toLowerCase()}${route.url.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    ...(facts?.summary ? { summary: facts.summary } : {}),
    parameters,
    responses,
    ...(route.public ? { security: [] } : {}),
  };
  if (facts?.request) op.requestBody = { required: true, content: { 'application/json': { schema: facts.request } } };
  return op;
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

/** The OpenAPI 3.1 document of the whole API: every registered route and the schemas the reader may see. */
export function apiDocument(dict: Dictionary, routes: RouteEntry[], scope: DocumentScope, version: string): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const r of routes) {
    const { path } = openApiPath(r.url);
    (paths[path] ??= {})[r.method.toLowerCase()] = operation(r, OPERATIONS[`${r.method} ${r.url}`]);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Dictum', version, description: 'ERP over REST and JSON, compatible with the iDempiere REST API. Schemas describe what the requesting role may see.' },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { ...commonSchemas(), ...recordSchemas(dict, scope) },
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
  const whole = apiDocument(dict, mine, scope, version);
  const schemaName = base === 'models' ? scope.tables[0]!.name : `view.${name}`;
  const paths: Record<string, unknown> = {};
  for (const [p, ops] of Object.entries(whole.paths as Record<string, Record<string, Schema>>)) {
    const concrete = p.replace(base === 'models' ? '{table}' : '{view}', name);
    const fixed: Record<string, Schema> = {};
    for (const [m, op] of Object.entries(ops)) {
      const o = JSON.parse(JSON.stringify(op).replaceAll('#/components/schemas/Record"', `#/components/schemas/${schemaName}"`)) as Schema;
      o.parameters = (o.parameters as Schema[]).filter((x) => x.name !== (base === 'models' ? 'table' : 'view'));
      fixed[m] = o;
    }
    paths[concrete] = fixed;
  }
  return { ...whole, info: { title: `${base}/${name}`, version }, paths };
}
