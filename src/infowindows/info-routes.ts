import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import { badRequest } from '../errors.js';
import { readContext, staleReads } from '../records/http/models-routes.js';
import type { ReadDb } from '../db/read-replicas/read-router.js';
import { parseOrderBy } from '../records/query/orderby-parser.js';
import type { ReadContext } from '../records/read/read-context.js';
import { readDictionaryRecords } from '../read-services/dictionary-records.js';
import { findInfoWindow, infoAccessSql, type InfoWindowDef } from './info-window.js';
import { parseInfoParameters } from './info-parameters.js';
import { planInfoQuery } from './info-query.js';
import { infoRecord } from './info-records.js';
import { slugify } from '../dictionary/slug.js';
import { ref, listOf } from '../openapi/answer-schemas.js';
import { OBJECT } from '../openapi/route-schema.js';

export const INFO_PAGE_SIZE = 100;
/** How long one info window query may run (the original's default query timeout). */
const QUERY_TIMEOUT_MS = 120_000;

type Query = Record<string, unknown>;
type Slug = { Params: { slug: string } };

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : Array.isArray(v) ? String(v[v.length - 1]) : undefined);

function pageNumber(v: unknown): number {
  const t = text(v);
  if (t === undefined || t.trim() === '') return 1;
  if (!/^\d{1,9}$/.test(t.trim())) throw badRequest('Invalid $page_no', `Expected a page number: ${t.slice(0, 40)}`);
  return Math.max(1, Number(t));
}

/** One page of an info window's records, in a read-only transaction with a time limit. */
async function infoPage(reads: ReadDb, rc: ReadContext, w: InfoWindowDef, query: Query): Promise<{ records: unknown[]; rowCount: number; page: number; hasNext: boolean }> {
  const orderText = text(query.$orderBy ?? query.$orderby);
  const page = pageNumber(query.$page_no);
  const plan = planInfoQuery(rc.dict, rc.auth, w, {
    parameters: parseInfoParameters(text(query.$parameters)),
    ...(orderText !== undefined && orderText.trim() !== '' ? { orderBy: parseOrderBy(orderText) } : {}),
    page,
    pageSize: INFO_PAGE_SIZE,
  });
  return reads.transaction(async (tx) => {
    // The window's SQL comes from the dictionary; the transaction still cannot write whatever it says.
    await tx.query('SET TRANSACTION READ ONLY');
    await tx.query(`SET LOCAL statement_timeout = ${QUERY_TIMEOUT_MS}`);
    const { rows } = await tx.query<Record<string, unknown>>(plan.page.text, plan.page.values);
    const hasNext = rows.length > INFO_PAGE_SIZE;
    const pageRows = hasNext ? rows.slice(0, INFO_PAGE_SIZE) : rows;
    const rowCount = !hasNext && (pageRows.length > 0 || page === 1) ? (page - 1) * INFO_PAGE_SIZE + pageRows.length : Number((await tx.query<{ n: number }>(plan.count.text, plan.count.values)).rows[0]!.n);
    return { records: pageRows.map((r) => infoRecord(plan.outputs, r)), rowCount, page, hasNext };
  });
}

/** GET /infos, /infos/{slug}, /infos/{slug}/columns|processes|relateds. */
export async function infoWindowRoutes(app: FastifyInstance, s: Services): Promise<void> {
  const table = (name: string) => s.dictionary.current.byName.get(name)!;
  const windowOf = (req: FastifyRequest<Slug>, rc: ReadContext) => findInfoWindow(rc.q, rc.dict, rc.auth, req.params.slug);

  app.get('/api/v1/infos', { schema: { summary: 'Info windows the role may open', queryNames: ['$filter'], answer: listOf('infowindows', ref('SlugRow')), example: { infowindows: [{ id: 1000000, Name: 'Product Info', slug: 'product-info' }] } } }, async (req) => {
    const rc = readContext(s, req);
    const filter = text((req.query as Query).$filter);
    const { records } = await readDictionaryRecords(rc, table('ad_infowindow'), { ...(filter !== undefined ? { filter } : {}), extra: (sql) => [infoAccessSql(rc.auth, sql, 't')], orderBy: ['Name'] });
    return { infowindows: records.map((r) => ({ ...r, slug: slugify(String(r.Name)) })) };
  });

  app.get<Slug>('/api/v1/infos/:slug', { schema: { summary: 'Rows of an info window', answer: OBJECT, example: { 'page-count': 1, 'row-count': 1, infowindows: [] } }, config: { queryParameters: ['$parameters', '$orderby', '$page_no', 'locale'] } }, async (req, reply: FastifyReply) => {
    const rc = readContext(s, req);
    const w = await windowOf(req, rc);
    const result = await infoPage(staleReads(s, req), rc, w, req.query as Query);
    reply.header('X-Array-Count', result.records.length);
    reply.header('X-Page', result.page);
    reply.header('X-Per-Page', INFO_PAGE_SIZE);
    if (result.hasNext) reply.header('X-Next-Page', result.page + 1);
    if (result.page > 1) reply.header('X-Prev-Page', result.page - 1);
    return { 'row-count': result.rowCount, 'infowindow-records': result.records };
  });

  app.get<Slug>('/api/v1/infos/:slug/columns', { schema: { summary: 'Columns of an info window', answer: listOf('columns', ref('DictionaryRow')), example: { columns: [] } } }, async (req) => {
    const rc = readContext(s, req);
    const w = await windowOf(req, rc);
    const { records } = await readDictionaryRecords(rc, table('ad_infocolumn'), { extra: (sql) => [`t."ad_infowindow_id" = ${sql.param(w.id)}`], orderBy: ['SeqNo'] });
    return { infowindowcolumns: records };
  });

  /** A window's detail records (processes, related windows), each with the slug of what it names. */
  const detailsWithSlugs = async (req: FastifyRequest<Slug>, tableName: string, idColumn: string, namesSql: string) => {
    const rc = readContext(s, req);
    const w = await windowOf(req, rc);
    const { records, rows } = await readDictionaryRecords(rc, table(tableName), { extra: (sql) => [`t."ad_infowindow_id" = ${sql.param(w.id)}`], orderBy: ['SeqNo'] });
    const ids = rows.map((r) => Number(r[idColumn]));
    const names = new Map((await rc.q.query<{ id: number; name: string }>(namesSql, [ids])).rows.map((p) => [Number(p.id), p.name]));
    return records.map((r, i) => ({ ...r, slug: slugify(names.get(ids[i]!) ?? '') }));
  };

  app.get<Slug>('/api/v1/infos/:slug/processes', { schema: { summary: 'Processes of an info window', answer: listOf('processes', ref('DictionaryRow')), example: { processes: [] } } }, async (req) => ({
    infowindowprocesses: await detailsWithSlugs(req, 'ad_infoprocess', 'ad_process_id', 'SELECT ad_process_id AS id, value AS name FROM ad_process WHERE ad_process_id = ANY($1::bigint[])'),
  }));

  app.get<Slug>('/api/v1/infos/:slug/relateds', { schema: { summary: 'Related info windows of an info window', answer: listOf('relateds', ref('DictionaryRow')), example: { relateds: [] } } }, async (req) => ({
    infowindowrelateds: await detailsWithSlugs(req, 'ad_inforelated', 'relatedinfo_id', 'SELECT ad_infowindow_id AS id, name FROM ad_infowindow WHERE ad_infowindow_id = ANY($1::bigint[])'),
  }));
}
