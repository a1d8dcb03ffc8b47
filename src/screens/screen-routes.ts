import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Tx } from '../db/types.js';
import { badRequest } from '../errors.js';
import type { JsonObject } from '../records/serialize.js';
import { parseFilter } from '../records/query/filter-parser.js';
import type { ReadContext } from '../records/read/read-context.js';
import type { Services } from '../services.js';
import { readDictionaryRows } from './dictionary-rows.js';
import { menuTree } from './menu-tree.js';
import { loadScreenAccess, type ScreenAccess } from './screen-access.js';
import { slugify } from '../dictionary/slug.js';
import { getRecord } from '../records/read/reader.js';
import { parseTabExpand, parseTabListOptions, tabRecord, tabRecordsPage, tabScope, type TabPage } from './tab-records.js';
import { createTabRecord, deleteTabRecord, updateTabRecord, type TabWrite } from './tab-writes.js';
import { parseWindowListOptions, windowList } from './window-list.js';
import { FIELD_COLUMNS, accessibleWindows, headerTab, tabBySlug, tabRecord as tabDefinition, windowBySlug, windowRecord, windowTabs } from './window-model.js';
import { Type } from '@sinclair/typebox';
import { ref, listOf, Open } from '../openapi/answer-schemas.js';
import { OBJECT, deleted, documented, windowRecordsExample } from '../openapi/route-schema.js';

const windowRecordSchema = ref('DictionaryRow');

/** Carries a dry run's answer out of the transaction it rolls back. */
class DryRun {
  body: JsonObject = {};
}

type P = { window: string; tab: string; id: string; child: string; treeId: string };

const filterOf = (query: unknown) => {
  const v = (query as Record<string, unknown>).$filter;
  if (Array.isArray(v)) throw badRequest('Invalid query', 'Query option $filter is given more than once');
  return typeof v === 'string' && v.trim() !== '' ? parseFilter(v) : undefined;
};

/** The windows, tabs, fields, forms and menu tree of the dictionary, and records read and written through windows. */
export async function screenRoutes(app: FastifyInstance, s: Services): Promise<void> {
  const context = async (req: FastifyRequest): Promise<{ rc: ReadContext; access: ScreenAccess }> => {
    const rc: ReadContext = { dict: s.dictionary.current, auth: req.auth, q: s.db };
    return { rc, access: await loadScreenAccess(s.db, req.auth) };
  };
  const windowAndTabs = async (req: FastifyRequest<{ Params: P }>) => {
    const { rc, access } = await context(req);
    const window = await windowBySlug(rc, access, req.params.window);
    return { rc, access, window, tabs: await windowTabs(rc, access, window) };
  };
  const pageReply = (reply: import('fastify').FastifyReply, page: TabPage, key: string) => {
    reply.header('X-Page-Count', page.pageCount).header('X-Page-Size', page.pageSize).header('X-Page-Number', page.pageNo).header('X-Row-Count', page.rowCount);
    return { 'page-count': page.pageCount, 'page-size': page.pageSize, 'page-number': page.pageNo, 'row-count': page.rowCount, [key]: page.records };
  };

  app.get('/api/v1/windows', { schema: { summary: 'Windows the role may open ($expand=AD_Tab,AD_Field adds tabs and fields)', answer: listOf('windows', ref('SlugRow')), example: { windows: [{ id: 143, Name: 'Sales Order', slug: 'sales-order', 'model-name': 'ad_window' }] } }, config: { queryParameters: ['$filter', '$expand', '$select', 'locale'] } }, async (req) => {
    const { rc, access } = await context(req);
    const options = parseWindowListOptions(rc.dict, req.query as Record<string, unknown>);
    const windows = await accessibleWindows(rc, access, filterOf(req.query));
    return { windows: await windowList(rc, access, windows, options) };
  });

  app.get<{ Params: P }>('/api/v1/windows/:window/tabs', { schema: { summary: 'A window with its tabs', answer: Open({ slug: Type.Optional(Type.String()), tabs: Type.Optional(Type.Array(ref('SlugRow'))) }), example: { id: 143, Name: 'Sales Order', slug: 'sales-order', tabs: [{ id: 186, Name: 'Order', slug: 'order', TabLevel: 0 }] } } }, async (req) => {
    const { rc, window, tabs } = await windowAndTabs(req);
    return { ...windowRecord(rc, window), tabs: tabs.map((t) => tabDefinition(rc, t)) };
  });

  app.get<{ Params: P }>('/api/v1/windows/:window/tabs/:tab/fields', { schema: { summary: 'Fields of a tab', queryNames: ['$filter'], answer: listOf('fields', ref('DictionaryRow')), example: { fields: [{ id: 1082, Name: 'Document No', 'model-name': 'ad_field' }] } } }, async (req) => {
    const { rc, tabs } = await windowAndTabs(req);
    const tab = tabBySlug(tabs, req.params.tab);
    const filter = filterOf(req.query);
    const { records } = await readDictionaryRows(rc, 'AD_Field', {
      select: FIELD_COLUMNS,
      where: (sql) => [`d."ad_tab_id" = ${sql.param(tab.id)}`],
      ...(filter ? { filter } : {}),
      orderBy: 'd."seqno", d."ad_field_id"',
    });
    return { fields: records };
  });

  app.get<{ Params: P }>('/api/v1/windows/:window', { schema: { summary: 'Records of the header tab', queryNames: ['$filter', '$sort_column', '$page_no'], answer: ref('WindowRecords'), example: windowRecordsExample } }, async (req, reply) => {
    const { rc, tabs } = await windowAndTabs(req);
    const tab = headerTab(tabs, req.params.window);
    return pageReply(reply, await tabRecordsPage(rc, tab, parseTabListOptions(req.query as Record<string, unknown>)), 'window-records');
  });

  app.get<{ Params: P }>('/api/v1/windows/:window/:id', { schema: { summary: 'A header record', queryNames: ['$expand'], answer: windowRecordSchema, example: { id: 102, documentNo: '80000' } } }, async (req) => {
    const { rc, tabs } = await windowAndTabs(req);
    return tabRecord(rc, tabs, headerTab(tabs, req.params.window), req.params.id, parseTabExpand(req.query as Record<string, unknown>));
  });

  app.get<{ Params: P }>('/api/v1/windows/:window/tabs/:tab/:id', { schema: { summary: 'A record of a tab', queryNames: ['$expand'], answer: windowRecordSchema, example: { id: 1000000, line: 10 } } }, async (req) => {
    const { rc, tabs } = await windowAndTabs(req);
    return tabRecord(rc, tabs, tabBySlug(tabs, req.params.tab), req.params.id, parseTabExpand(req.query as Record<string, unknown>));
  });

  app.get<{ Params: P }>('/api/v1/windows/:window/tabs/:tab/:id/:child', { schema: { summary: 'Records of a child tab under a record', queryNames: ['$filter', '$sort_column', '$page_no'], answer: ref('WindowRecords'), example: windowRecordsExample } }, async (req, reply) => {
    const { rc, tabs } = await windowAndTabs(req);
    const parent = tabBySlug(tabs, req.params.tab);
    const child = tabBySlug(tabs, req.params.child);
    if (child.parent !== parent) throw badRequest('Invalid tab name', `${child.slug} is not child tab of ${parent.slug}`);
    const { record } = await getRecord(rc, parent.table, req.params.id, { select: [], showSql: false }, tabScope(parent));
    const id = Number(record.id);
    return pageReply(reply, await tabRecordsPage(rc, child, parseTabListOptions(req.query as Record<string, unknown>), id), 'childtab-records');
  });

  const writeTarget = async (req: FastifyRequest<{ Params: P }>, tabSlug?: string): Promise<TabWrite> => {
    const { window, tabs } = await windowAndTabs(req);
    return { window, tabs, tab: tabSlug === undefined ? headerTab(tabs, req.params.window) : tabBySlug(tabs, tabSlug) };
  };

  /**
   * Runs a window write in one transaction; with `$save=false` (the original's dry run) the
   * transaction is rolled back after the record is built and checked, and 200 shows what would be saved.
   */
  const write = async (req: FastifyRequest, reply: import('fastify').FastifyReply, status: number, fn: (tx: Tx) => Promise<JsonObject>) => {
    const save = (req.query as Record<string, unknown>).$save;
    if (save !== undefined && save !== 'true' && save !== 'false') throw badRequest('Invalid $save', 'Expected true or false');
    if (save !== 'false') return reply.code(status).send(await s.db.tx(fn));
    const dry = new DryRun();
    await s.db
      .tx(async (tx) => {
        dry.body = await fn(tx);
        throw dry;
      })
      .catch((e: unknown) => {
        if (e !== dry) throw e;
      });
    return reply.code(200).send(dry.body);
  };
  app.post<{ Params: P }>('/api/v1/windows/:window', { schema: { summary: 'Create a header record (child tab records as arrays under their slugs)', status: 201, body: documented(windowRecordSchema), answer: windowRecordSchema, example: { C_BPartner_ID: 118, description: 'A new order' } } }, async (req, reply) => {
    const w = await writeTarget(req);
    return write(req, reply, 201, (tx) => createTabRecord(s, req.auth, tx, w, null, req.body));
  });
  app.post<{ Params: P }>('/api/v1/windows/:window/tabs/:tab/:id/:child', { schema: { summary: 'Create a child tab record under a record', status: 201, body: documented(windowRecordSchema), answer: windowRecordSchema, example: { M_Product_ID: 128, qtyEntered: 1 } } }, async (req, reply) => {
    const w = await writeTarget(req, req.params.child);
    const parent = tabBySlug(w.tabs, req.params.tab);
    return write(req, reply, 201, (tx) => createTabRecord(s, req.auth, tx, w, { tab: parent, id: req.params.id }, req.body));
  });
  app.put<{ Params: P }>('/api/v1/windows/:window/:id', { schema: { summary: 'Update a header record', body: documented(windowRecordSchema), answer: windowRecordSchema, example: { description: 'A changed description' } } }, async (req, reply) => {
    const w = await writeTarget(req);
    return write(req, reply, 200, (tx) => updateTabRecord(s, req.auth, tx, w, req.params.id, req.body));
  });
  app.put<{ Params: P }>('/api/v1/windows/:window/tabs/:tab/:id', { schema: { summary: 'Update a record of a tab', body: documented(windowRecordSchema), answer: windowRecordSchema, example: { qtyEntered: 2 } } }, async (req, reply) => {
    const w = await writeTarget(req, req.params.tab);
    return write(req, reply, 200, (tx) => updateTabRecord(s, req.auth, tx, w, req.params.id, req.body));
  });
  app.delete<{ Params: P }>('/api/v1/windows/:window/:id', { schema: { summary: 'Delete a header record', ...deleted } }, async (req) => {
    const w = await writeTarget(req);
    return s.db.tx((tx) => deleteTabRecord(s, req.auth, tx, w, req.params.id));
  });
  app.delete<{ Params: P }>('/api/v1/windows/:window/tabs/:tab/:id', { schema: { summary: 'Delete a record of a tab', ...deleted } }, async (req) => {
    const w = await writeTarget(req, req.params.tab);
    return s.db.tx((tx) => deleteTabRecord(s, req.auth, tx, w, req.params.id));
  });

  app.get('/api/v1/forms', { schema: { summary: 'Forms the role may open', answer: listOf('forms', ref('SlugRow')), example: { forms: [{ id: 101, Name: 'Payment Allocation', slug: 'payment-allocation' }] } }, config: { queryParameters: ['$filter', 'locale'] } }, async (req, reply) => {
    const { rc, access } = await context(req);
    const filter = filterOf(req.query);
    // By id, as the original's list (its order by id replaces the order by name it sets first).
    const { rows, records } = await readDictionaryRows(rc, 'AD_Form', {
      select: ['AD_Form_ID', 'AD_Form_UU', 'Name', 'Description', 'Help', 'Classname', 'EntityType'],
      ...(filter ? { filter } : {}),
      orderBy: 'd."ad_form_id"',
    });
    const forms = records.filter((_, i) => access.forms.has(Number(rows[i]!.ad_form_id))).map((r) => ({ ...r, slug: slugify(String(r.Name ?? '')) }));
    reply.header('X-Row-Count', forms.length);
    return { forms };
  });

  app.get<{ Params: P }>('/api/v1/menutree/:treeId', { schema: { summary: 'The menu tree as the role sees it', answer: Open({ Name: Type.Optional(Type.String()), entries: Type.Optional(Type.Array(OBJECT)) }), example: { Name: 'Menu', entries: [{ id: 116, Name: 'Sales Order', entries: [] }] } } }, async (req) => {
    const { rc, access } = await context(req);
    if (!/^\d{1,9}$/.test(req.params.treeId)) throw badRequest('Invalid menu tree', `${req.params.treeId} is not a tree id`);
    return menuTree(rc, access, Number(req.params.treeId));
  });
}
