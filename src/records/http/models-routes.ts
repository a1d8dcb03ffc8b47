import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tableFromPath } from './table-from-path.js';
import { listModels } from './model-list.js';
import { badRequest } from '../../errors.js';
import type { Services } from '../../services.js';
import { parseReadOptions } from '../read/read-options.js';
import type { ReadContext } from '../read/read-context.js';
import type { Queryable } from '../../db/types.js';
import type { ReadDb } from '../../db/read-replicas/read-router.js';
import { sessionKey } from '../../http/read-your-writes.js';
import { getRecord, getRecordJson, getRecordProperty, listRecords } from '../read/reader.js';
import type { JsonObject } from '../serialize.js';
import { comparesTextBytewise } from '../read/statements.js';
import { parameterIgnorer, READ_QUERY_PARAMETERS } from '../../http/query-parameters.js';
import { splitOrderBy } from '../read/where.js';
import { countMode } from '../query/count-preference.js';
import type { Table } from '../../dictionary/model.js';
import { entityTag, tagsName } from '../versions/row-version.js';
import { ref, listOf } from '../../openapi/answer-schemas.js';
import { recordsExample } from '../../openapi/route-schema.js';

type Params = { table: string; id: string; property: string };

export function readContext(s: Services, req: FastifyRequest, prefixRange = false, q: Queryable = s.db): ReadContext {
  return { dict: s.dictionary.current, auth: req.auth, q, prefixRange };
}

/** Where a request's reads that may be a little stale run (a read replica when one may serve the session). */
export const staleReads = (s: Services, req: FastifyRequest): ReadDb => s.reads.for(sessionKey(req));

async function queryLimits(s: Services, clientId: number): Promise<{ maxTop: number; separator: string }> {
  const maxTop = await s.sysConfig.getInt('REST_MAX_RECORDS_SIZE', 100, clientId);
  const separator = (await s.sysConfig.get('REST_EXPAND_SEPARATOR', clientId)) || ';';
  return { maxTop: maxTop > 0 ? maxTop : 100, separator };
}

function withSql(record: JsonObject, commands: Map<string, string>, show: boolean): JsonObject {
  if (!show) return record;
  const out: JsonObject = { ...record };
  for (const [k, v] of commands) out[k] = v;
  return out;
}

/** `,"key":value` members of a JSON text, one for each entry. */
const jsonMembers = (entries: Iterable<[string, unknown]>): string => {
  let out = '';
  for (const [k, v] of entries) out += `,${JSON.stringify(k)}:${JSON.stringify(v)}`;
  return out;
};

/** A record's JSON text with the showsql members after its own (where the object path puts them). */
function recordTextWithSql(json: string, commands: Map<string, string>, show: boolean): string {
  if (!show || commands.size === 0) return json;
  return json === '{}' ? `{${jsonMembers(commands).slice(1)}}` : `${json.slice(0, -1)}${jsonMembers(commands)}}`;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** Sets the record's ETag; true when If-None-Match names it (the answer is then 304 without a body). */
function notModified(req: FastifyRequest, reply: FastifyReply, version: string | null): boolean {
  if (version === null) return false;
  reply.header('ETag', entityTag(version));
  const given = req.headers['if-none-match'];
  return given !== undefined && tagsName(given, version);
}

const READS = { config: { queryParameters: [...READ_QUERY_PARAMETERS, '$rowcount'] } };
/** Above how many planned rows an estimated count is given as the planner's estimate. */
const ESTIMATE_KEY = 'REST_COUNT_ESTIMATE_THRESHOLD';
const NONE = { config: { queryParameters: ['locale'] } };
const LIST_MODELS = { config: { queryParameters: ['$filter', 'locale'] } };

/** GET /models, /models/{table}, /models/{table}/{id}, /models/{table}/{id}/{property}. */
export async function modelReadRoutes(app: FastifyInstance, s: Services): Promise<void> {
  const prefixRange = await comparesTextBytewise(s.db);
  const ignore = parameterIgnorer(s);
  /** The request's read options, with the parts the original would leave out reported and dropped. */
  const readOptions = async (req: FastifyRequest, reply: FastifyReply, table: Table) => {
    const limits = await queryLimits(s, req.auth.clientId);
    const o = parseReadOptions(req.query as Record<string, unknown>, limits.maxTop, limits.separator);
    const count = countMode(o.rowcount, req.headers.prefer);
    if (count.mode === 'estimated') o.count = { mode: 'estimated', estimateAbove: await s.sysConfig.getInt(ESTIMATE_KEY, 10_000, req.auth.clientId) };
    if (count.preferred) reply.header('Preference-Applied', `count=${count.mode}`);
    const order = splitOrderBy(table, o.orderby);
    o.orderby = order.known;
    await ignore(req, reply, [...o.ignored, ...order.ignored]);
    return o;
  };

  app.get('/api/v1/models', { ...LIST_MODELS, schema: { summary: 'Tables the role may read', queryNames: ['$filter'], answer: listOf('models', ref('DictionaryRow')), example: { models: [{ id: 291, uid: 'c4b6b5d2-...', 'model-name': 'c_bpartner', name: 'Business Partner' }] } } }, async (req) => {
    const query = req.query as Record<string, unknown>;
    const filter = query.$filter;
    if (Array.isArray(filter)) throw badRequest('Invalid query', 'Query option $filter is given more than once');
    return { models: await listModels(readContext(s, req, prefixRange), typeof filter === 'string' ? filter : undefined) };
  });

  app.get<{ Params: Params }>('/api/v1/models/:table', { ...READS, schema: { summary: 'Records of a table', answer: ref('Records'), example: recordsExample } }, async (req, reply) => {
    const table = tableFromPath(s, req.params.table);
    const o = await readOptions(req, reply, table);
    const rc = readContext(s, req, prefixRange);
    // The page, its count and any details are read on one connection, taken once.
    const result = await staleReads(s, req).connection((q) => listRecords({ ...rc, q }, table, o));
    const pageCount = o.top > 0 ? Math.ceil(result.rowCount / o.top) : 0;
    reply.header('X-Page-Count', pageCount);
    reply.header('X-Records-Size', o.top);
    reply.header('X-Skip-Records', o.skip);
    reply.header('X-Row-Count', result.rowCount);
    reply.header('X-Row-Count-Kind', result.rowCountKind);
    const head: [string, unknown][] = [['page-count', pageCount], ['records-size', o.top], ['skip-records', o.skip], ['row-count', result.rowCount]];
    if (o.showSql) head.push(...result.sql);
    if (result.json) {
      // Records written as text go out as they are, inside the same envelope.
      reply.header('X-Array-Count', result.json.count);
      reply.type(JSON_TYPE);
      // One join copies every piece once into the body.
      return [`{${jsonMembers(head).slice(1)},"records":[`].concat(result.json.pieces, `],"array-count":${result.json.count}}`).join('');
    }
    reply.header('X-Array-Count', result.records.length);
    const body = Object.fromEntries(head) as JsonObject;
    if (o.showSql !== 'nodata') body.records = result.records;
    body['array-count'] = result.records.length;
    return body;
  });

  app.get<{ Params: Params }>('/api/v1/models/:table/:id', { ...READS, schema: { summary: 'One record by id or UUID', answer: ref('Record'), example: recordsExample.records[0] } }, async (req, reply) => {
    const table = tableFromPath(s, req.params.table);
    const o = await readOptions(req, reply, table);
    const rc = readContext(s, req, prefixRange, staleReads(s, req));
    const written = await getRecordJson(rc, table, req.params.id, o);
    if (written) {
      if (notModified(req, reply, written.version)) return reply.code(304).send();
      reply.type(JSON_TYPE);
      return recordTextWithSql(written.json, written.sql, o.showSql !== false);
    }
    const { record, sql, version } = await getRecord(rc, table, req.params.id, o);
    if (notModified(req, reply, version)) return reply.code(304).send();
    return withSql(record, sql, o.showSql !== false);
  });

  app.get<{ Params: Params }>('/api/v1/models/:table/:id/:property', { ...NONE, schema: { summary: 'One column of a record', answer: ref('Record'), example: { id: 102, uid: '...', DocumentNo: '80000', 'model-name': 'c_order' } } }, async (req) => {
    const table = tableFromPath(s, req.params.table);
    return getRecordProperty(readContext(s, req, prefixRange, staleReads(s, req)), table, req.params.id, req.params.property);
  });
}
