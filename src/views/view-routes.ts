import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ARCHIVE_FILE_OPTIONS, archiveFile, archiveList } from '../archives/archive-routes.js';
import { mountAttachmentRoutes } from '../attachments/attachment-routes.js';
import { PRINT_OPTIONS, printModelRecord } from '../print/print-routes.js';
import type { AuthContext } from '../auth/context.js';
import type { Queryable } from '../db/types.js';
import { badRequest } from '../errors.js';
import { parseReadOptions, type ReadOptions } from '../records/read/read-options.js';
import type { ReadContext } from '../records/read/read-context.js';
import { getRecord, listRecords, type ReadScope } from '../records/read/reader.js';
import { columnValue, type Json, type JsonObject } from '../records/serialize.js';
import { insertRecord, updateRecord } from '../records/write/persist.js';
import { deleteRecord } from '../records/write/delete-record.js';
import { createWriteContext } from '../records/write/write-context.js';
import type { Services } from '../services.js';
import { staleReads } from '../records/http/models-routes.js';
import { loadViews, viewByName, visibleViews, type RestView, type ViewColumn } from './view-model.js';
import { fromViewBody, mapExpand, mapFilter, mapOrder, mapSelect, propertyColumn, rewriteViewQuery, setPath, toViewRecord } from './view-mapping.js';
import { Type } from '@sinclair/typebox';
import { ref, listOf, Open } from '../openapi/answer-schemas.js';
import { FILE, deleted, processInfoExample, recordsExample } from '../openapi/route-schema.js';

type P = { view: string; id: string; property: string };
/** What the view helpers read of a request: the caller and the view's name in the path. */
type ViewPath = { auth: AuthContext; params: { view: string } };

/** The view's where clause (dictionary SQL on the table name, the read's alias); clauses with context variables are left out. */
const viewScope = (view: RestView): ReadScope | undefined => (view.whereClause && !view.whereClause.includes('@') ? () => `(${view.whereClause})` : undefined);

/** Related views shown with every record of a view (IsRestAutoExpand), with their views. */
const autoExpanded = (views: RestView[], view: RestView) =>
  view.related.flatMap((r) => {
    const related = r.autoExpand ? views.find((v) => v.id === r.viewId && v !== view) : undefined;
    return related ? [{ name: r.name, view: related }] : [];
  });

/** /models read options with view property names turned into the table's column names. */
function viewReadOptions(views: RestView[], view: RestView, o: ReadOptions): ReadOptions {
  const out: ReadOptions = { ...o, select: mapSelect(view, o.select) };
  if (o.filter) out.filter = mapFilter(view, o.filter);
  if (o.orderby) out.orderby = mapOrder(view, o.orderby);
  const expand = [...(mapExpand(view, o.expand) ?? [])];
  for (const r of autoExpanded(views, view)) {
    if (!expand.some((e) => e.name.toLowerCase() === r.view.table.name.toLowerCase())) expand.push({ name: r.view.table.name, options: { select: mapSelect(r.view, undefined) }, raw: r.view.table.name });
  }
  if (expand.length) out.expand = expand;
  return out;
}

/**
 * Records of a view: master expansions of columns that name a reference view in that view's
 * shape, and the records of auto-expanded related views under the related view's name.
 */
function shaper(views: RestView[], view: RestView) {
  const convert = (col: ViewColumn, v: Json): Json => {
    if (!col.referenceViewId || !v || typeof v !== 'object' || Array.isArray(v) || 'propertyLabel' in v) return v;
    const ref = views.find((x) => x.id === col.referenceViewId);
    return ref ? toViewRecord(ref, v, { viewName: false }) : v;
  };
  const related = autoExpanded(views, view);
  return (record: JsonObject): JsonObject => {
    const source: JsonObject = { ...record };
    const extra: [string, Json][] = [];
    for (const r of related) {
      const rows = source[r.view.table.name];
      if (!Array.isArray(rows)) continue;
      delete source[r.view.table.name];
      extra.push([r.name, rows.map((x) => toViewRecord(r.view, x as JsonObject, { viewName: false }))]);
    }
    const out = toViewRecord(view, source, { convert });
    for (const [k, v] of extra) out[k] = v;
    return out;
  };
}

/** /views: REST views (REST_View, REST_ViewColumn, REST_ViewRelated) with the sub-paths of /models. */
export async function viewRoutes(app: FastifyInstance, s: Services): Promise<void> {
  const rcOf = (auth: AuthContext, q: Queryable = s.db): ReadContext => ({ dict: s.dictionary.current, auth, q });
  const target = async (req: ViewPath, q?: Queryable) => {
    const rc = rcOf(req.auth, q);
    const views = await loadViews(rc);
    return { rc, views, view: viewByName(visibleViews(rc, views), req.params.view) };
  };
  const limits = async (clientId: number) => {
    const maxTop = await s.sysConfig.getInt('REST_MAX_RECORDS_SIZE', 100, clientId);
    return { maxTop: maxTop > 0 ? maxTop : 100, separator: (await s.sysConfig.get('REST_EXPAND_SEPARATOR', clientId)) || ';' };
  };
  const options = async (req: FastifyRequest, view: RestView) => {
    const l = await limits(req.auth.clientId);
    return parseReadOptions(rewriteViewQuery(view, req.query as Record<string, unknown>), l.maxTop, l.separator);
  };

  app.get('/api/v1/views', { schema: { summary: 'REST views', answer: listOf('views', Open({ name: Type.Optional(Type.String()), tableName: Type.Optional(Type.String()) })), example: { views: [{ id: 1, name: 'users', tableName: 'AD_User', columns: [] }] } } }, async (req) => {
    const rc = rcOf(req.auth);
    const all = await loadViews(rc);
    const ref = (id: number): JsonObject | null => {
      const v = all.find((x) => x.id === id);
      if (!v) return null;
      return { id: v.id, ...(v.uid ? { uid: v.uid } : {}), name: v.name };
    };
    const views = visibleViews(rc, all).map((v) => {
      const out: JsonObject = { id: v.id, ...(v.uid ? { uid: v.uid } : {}), name: v.name, tableName: v.table.modelName };
      if (v.whereClause) out.whereClause = v.whereClause;
      if (v.columns.length)
        out.columns = v.columns.map((c) => {
          const col: JsonObject = { id: c.id, ...(c.uid ? { uid: c.uid } : {}), name: c.name, columnName: c.column.name };
          const r = c.referenceViewId ? ref(c.referenceViewId) : null;
          if (r) col.referenceView = r;
          return col;
        });
      if (v.related.length) out.relatedViews = v.related.map((r) => ({ id: r.id, ...(r.uid ? { uid: r.uid } : {}), name: r.name, view: ref(r.viewId), autoExpand: r.autoExpand }));
      return out;
    });
    return { views };
  });

  app.get<{ Params: P }>('/api/v1/views/:view', { schema: { summary: 'Records of a view', queryNames: ['$filter', '$orderby', '$top', '$skip', '$select', '$expand', '$valrule', '$context', 'showsql', 'label', 'showlabel'], answer: ref('Records'), example: recordsExample } }, async (req, reply) => {
    const { rc, views, view } = await target(req);
    const o = viewReadOptions(views, view, await options(req, view));
    const result = await staleReads(s, req).connection((q) => listRecords({ ...rc, q }, view.table, o, viewScope(view)));
    const records = result.json ? (JSON.parse(`[${result.json.pieces.join('')}]`) as JsonObject[]) : result.records;
    const pageCount = o.top > 0 ? Math.ceil(result.rowCount / o.top) : 0;
    reply.header('X-Page-Count', pageCount).header('X-Records-Size', o.top).header('X-Skip-Records', o.skip).header('X-Row-Count', result.rowCount).header('X-Array-Count', records.length);
    const body: JsonObject = { 'page-count': pageCount, 'records-size': o.top, 'skip-records': o.skip, 'row-count': result.rowCount };
    if (o.showSql) for (const [k, v] of result.sql) body[k] = v;
    if (o.showSql !== 'nodata') body.records = records.map(shaper(views, view));
    body['array-count'] = records.length;
    return body;
  });

  app.get<{ Params: P }>('/api/v1/views/:view/:id', { schema: { summary: 'One record of a view', queryNames: ['$select', '$expand', 'showsql', 'showlabel'], answer: ref('Record'), example: { id: 102, name: 'GardenAdmin', 'view-name': 'users' } } }, async (req) => {
    const { rc, views, view } = await target(req);
    const o = viewReadOptions(views, view, await options(req, view));
    const { record, sql } = await getRecord(rc, view.table, req.params.id, o, viewScope(view));
    const out = shaper(views, view)(record);
    if (o.showSql) for (const [k, v] of sql) out[k] = v;
    return out;
  });

  /** The key of the view's record a path names, readable through the view (its where clause applies). */
  const viewRecordId = async (req: ViewPath & { params: { id: string } }) => {
    const { rc, view } = await target(req);
    const key = view.table.keyColumn;
    if (!key) throw badRequest('Request Error', `${view.name} has no single key`);
    const { row } = await getRecord(rc, view.table, req.params.id, { select: [key.name], showSql: false }, viewScope(view));
    return { view, id: Number(row[key.dbName]) };
  };
  app.get<{ Params: P }>('/api/v1/views/:view/:id/archives', { schema: { summary: 'Archived documents of a view record', answer: listOf('archives', ref('DictionaryRow')), example: { archives: [] } } }, async (req) => {
    const { view, id } = await viewRecordId(req);
    return archiveList(s, req.auth, view.table, id);
  });
  app.get<{ Params: P & { archiveId: string } }>('/api/v1/views/:view/:id/archives/:archiveId', { ...ARCHIVE_FILE_OPTIONS, schema: { summary: 'An archived document of a view record (json=true: base64 in JSON)', binary: FILE, answer: Open({ data: Type.String({ contentEncoding: 'base64' }) }), example: { data: 'JVBERi0xLjcK...' } } }, async (req, reply) => {
    const { view, id } = await viewRecordId(req);
    return archiveFile(s, req, reply, view.table, id, req.params.archiveId);
  });

  // Attachments and prints of a view's record are those of its table's record, reached through the view.
  await mountAttachmentRoutes(app, s, '/api/v1/views/:view/:id/attachments', async (req) => (await viewRecordId(req as ViewPath & typeof req)).view.table, 'a view record');
  app.get<{ Params: P }>('/api/v1/views/:view/:id/print', { ...PRINT_OPTIONS, schema: { summary: 'Print a record of a view', answer: ref('ProcessInfo'), example: processInfoExample } }, async (req) => {
    const { view, id } = await viewRecordId(req);
    return printModelRecord(s, req, view.table, String(id));
  });

  app.get<{ Params: P }>('/api/v1/views/:view/:id/:property', { schema: { summary: 'One property of a view record', answer: ref('Record'), example: { id: 102, name: 'GardenAdmin' } } }, async (req) => {
    const { rc, view } = await target(req);
    const { viewColumn, column } = propertyColumn(view, req.params.property);
    const { record, row } = await getRecord(rc, view.table, req.params.id, { select: [column.name], showSql: false }, viewScope(view));
    const out: JsonObject = {};
    if (record.id !== undefined) out.id = record.id;
    if (record.uid !== undefined) out.uid = record.uid;
    const v = columnValue(rc.dict, column, row);
    setPath(out, viewColumn.name, v === undefined ? null : v);
    out['model-name'] = view.table.modelName;
    out['view-name'] = view.name;
    return out;
  });

  /** The written record read back in the view's shape, in the write's transaction. */
  const readBack = async (rc: ReadContext, views: RestView[], view: RestView, id: string) => shaper(views, view)((await getRecord(rc, view.table, id, { select: mapSelect(view, undefined), showSql: false })).record);
  const keyText = (view: RestView, row: Record<string, unknown>) => String(row[(view.table.keyColumn ?? view.table.uuColumn)!.dbName]);

  app.post<{ Params: P }>('/api/v1/views/:view', { schema: { summary: 'Create a record through a view', status: 201, body: ref('Record'), answer: ref('Record'), example: { name: 'Joe Block' } } }, async (req, reply) => {
    const body = await s.db.tx(async (tx) => {
      const { rc, views, view } = await target(req, tx);
      if (!view.table.keyColumn && !view.table.uuColumn) throw badRequest('Invalid view', `Records of ${view.name} cannot be addressed`);
      const wc = createWriteContext(rc.dict, req.auth, tx, s.events);
      const result = await insertRecord(wc, view.table, fromViewBody(view, req.body));
      await wc.deferred.flush();
      return readBack(rc, views, view, keyText(view, result.row));
    });
    return reply.code(201).send(body);
  });

  app.put<{ Params: P }>('/api/v1/views/:view/:id', { schema: { summary: 'Update a record through a view', body: ref('Record'), answer: ref('Record'), example: { description: 'A changed description' } } }, async (req) =>
    s.db.tx(async (tx) => {
      const { rc, views, view } = await target(req, tx);
      await getRecord(rc, view.table, req.params.id, { select: [], showSql: false }, viewScope(view));
      const wc = createWriteContext(rc.dict, req.auth, tx, s.events);
      await updateRecord(wc, view.table, req.params.id, fromViewBody(view, req.body));
      await wc.deferred.flush();
      return readBack(rc, views, view, req.params.id);
    }),
  );

  app.delete<{ Params: P }>('/api/v1/views/:view/:id', { schema: { summary: 'Delete a record through a view', ...deleted } }, async (req) =>
    s.db.tx(async (tx) => {
      const { rc, view } = await target(req, tx);
      await getRecord(rc, view.table, req.params.id, { select: [], showSql: false }, viewScope(view));
      const wc = createWriteContext(rc.dict, req.auth, tx, s.events);
      await deleteRecord(wc, view.table, req.params.id);
      await wc.deferred.flush();
      return { msg: 'Deleted' };
    }),
  );
}
