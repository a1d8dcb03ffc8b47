/**
 * Unknown query parameters. The original's framework drops parameters a resource does not
 * declare, so clients send typos and options of other versions (`$pageSize`, `$tenant`) and still
 * get 2xx. Here every route says which parameters it knows — `config.queryParameters`, else the
 * properties of its querystring schema, else the standard read options for GET and only `locale`
 * for other methods (the original's writes take no query options) — and the rest are ignored,
 * named in `X-Ignored-Parameters` and a debug log line. SysConfig `REST_STRICT_QUERY_PARAMETERS=Y`
 * (per client) turns them into 400s instead.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from '../errors.js';
import type { Services } from '../services.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Query parameters this route reads (case-insensitive); every other one is reported as ignored. */
    queryParameters?: readonly string[];
  }
  interface FastifyRequest {
    /** Query parameters (and option entries) ignored so far, in order of discovery. */
    ignoredParameters?: string[];
  }
}

export const IGNORED_HEADER = 'X-Ignored-Parameters';
export const STRICT_KEY = 'REST_STRICT_QUERY_PARAMETERS';

/** The query options of the original's record reads, plus the global `locale`. */
export const READ_QUERY_PARAMETERS: readonly string[] = [
  '$filter', '$orderby', '$select', '$expand', '$top', '$skip', '$valrule', '$context', '$report_type',
  'label', 'showlabel', 'showsql', 'locale',
];

/** Parameters of a query that are not known (compared case-insensitively), in query order. */
export function unknownParameters(query: unknown, known: readonly string[]): string[] {
  if (!query || typeof query !== 'object') return [];
  const names = new Set(known.map((k) => k.toLowerCase()));
  return Object.keys(query).filter((k) => !names.has(k.toLowerCase()));
}

const WRITE_QUERY_PARAMETERS: readonly string[] = ['locale'];

/** What a route declares it knows: its config list, else its querystring schema, else the default of its method. */
export function declaredParameters(method: string, config: { queryParameters?: readonly string[] } | undefined, schema: unknown): readonly string[] {
  if (config?.queryParameters) return config.queryParameters;
  const qs = (schema as { querystring?: { properties?: Record<string, unknown> } } | undefined)?.querystring;
  if (qs?.properties) return Object.keys(qs.properties);
  return method === 'GET' || method === 'HEAD' ? READ_QUERY_PARAMETERS : WRITE_QUERY_PARAMETERS;
}

/** Header value: names joined by ", "; commas, control and non-ASCII characters inside a name percent-encoded. */
export function ignoredHeaderValue(names: readonly string[]): string {
  return names.map((n) => n.replace(/[^\x20-\x2b\x2d-\x7e]/gu, (c) => encodeURIComponent(c))).join(', ');
}

export type IgnoreParameters = (req: FastifyRequest, reply: FastifyReply, names: readonly string[]) => Promise<void>;

/**
 * Reports parameters as ignored: 400 when the caller's client is strict, else the response header
 * and a debug log line. Routes call it too for ignored parts of an option (an unknown `$orderby` column).
 */
export function parameterIgnorer(s: Pick<Services, 'sysConfig'>): IgnoreParameters {
  return async (req, reply, names) => {
    if (names.length === 0) return;
    const clientId = req.auth?.clientId ?? 0;
    if (await s.sysConfig.getBool(STRICT_KEY, false, clientId)) {
      throw badRequest('Invalid query', `Unknown query parameter${names.length > 1 ? 's' : ''}: ${names.join(', ')}`);
    }
    const all = (req.ignoredParameters ??= []);
    all.push(...names);
    reply.header(IGNORED_HEADER, ignoredHeaderValue(all));
    req.log.debug({ ignored: names, url: req.url.split('?')[0] }, 'query parameters ignored');
  };
}

/** The hook that checks every route's query against what the route declares. */
export function registerQueryParameterCheck(app: FastifyInstance, ignore: IgnoreParameters): void {
  app.addHook('preValidation', async (req, reply) => {
    const unknown = unknownParameters(req.query, declaredParameters(req.method, req.routeOptions.config, req.routeOptions.schema));
    if (unknown.length) await ignore(req, reply, unknown);
  });
}
