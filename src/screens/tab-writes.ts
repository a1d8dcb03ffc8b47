import type { AuthContext } from '../auth/context.js';
import type { Tx } from '../db/types.js';
import { badRequest, forbidden } from '../errors.js';
import type { ReadContext } from '../records/read/read-context.js';
import { getRecord } from '../records/read/reader.js';
import type { JsonObject } from '../records/serialize.js';
import { insertRecord, loadForWrite, updateRecord } from '../records/write/persist.js';
import { deleteRecord } from '../records/write/delete-record.js';
import { createWriteContext } from '../records/write/write-context.js';
import type { Services } from '../services.js';
import { tabRecord, tabScope } from './tab-records.js';
import { childTabs, type ScreenTab, type ScreenWindow } from './window-model.js';

export interface TabWrite {
  window: ScreenWindow;
  tabs: ScreenTab[];
  tab: ScreenTab;
}

function assertWritableWindow(w: ScreenWindow): void {
  if (!w.writable) throw forbidden('Access denied', `Access denied for window: ${w.slug}`);
}

/**
 * A window body as the record engine reads it: arrays under a child tab's slug become details
 * of that tab's table. Returns the body and the child slugs it writes.
 */
export function tabBody(tabs: ScreenTab[], tab: ScreenTab, body: unknown, isSOTrx: boolean | null): { body: Record<string, unknown>; children: string[] } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Invalid body', 'The request body must be a JSON object');
  const children = childTabs(tabs, tab);
  const out: Record<string, unknown> = {};
  const written: string[] = [];
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    const child = Array.isArray(v) ? children.find((c) => c.slug === k) : undefined;
    if (child) {
      if (child.readOnly || !child.insertable) throw forbidden('Create not allow', `Create not allow for tab: ${child.slug}`);
      out[child.table.name] = v;
      written.push(child.slug);
    } else out[k] = v;
  }
  // The window's sales/purchase side is the context its records are created in (IsSOTrx).
  if (isSOTrx !== null && tab.table.byName.has('issotrx') && !Object.keys(out).some((k) => k.toLowerCase() === 'issotrx')) out.IsSOTrx = isSOTrx;
  return { body: out, children: written };
}

const readContextOf = (s: Services, auth: AuthContext, tx: Tx): ReadContext => ({ dict: s.dictionary.current, auth, q: tx });

/** Creates a record through a tab (a header tab, or a detail tab under its parent record): 201 with the record. */
export async function createTabRecord(s: Services, auth: AuthContext, tx: Tx, w: TabWrite, parent: { tab: ScreenTab; id: string } | null, body: unknown): Promise<JsonObject> {
  assertWritableWindow(w.window);
  const { tab } = w;
  if (tab.readOnly || !tab.insertable) throw forbidden('Create not allow', `Create not allow for tab: ${tab.slug}`);
  if (tab.level > 0 && !parent) throw badRequest('No parent tab record', `Can't create child tab record without parent tab record: ${tab.slug}`);
  if (parent && tab.parent !== parent.tab) throw badRequest('Wrong parent tab', `${tab.slug} is not child tab of ${parent.tab.slug}`);
  const rc = readContextOf(s, auth, tx);
  const wc = createWriteContext(s.dictionary.current, auth, tx, s.events);
  let parentRow: { table: ScreenTab['table']; row: Record<string, unknown> } | null = null;
  if (parent) {
    await getRecord(rc, parent.tab.table, parent.id, { select: [], showSql: false }, tabScope(parent.tab));
    parentRow = { table: parent.tab.table, row: await loadForWrite(wc, parent.tab.table, parent.id) };
  }
  const { body: values, children } = tabBody(w.tabs, tab, body, tab.level === 0 ? w.window.isSOTrx : null);
  const result = await insertRecord(wc, tab.table, values, parentRow);
  await wc.deferred.flush();
  const id = String(result.row[tab.table.keyColumn?.dbName ?? tab.table.uuColumn!.dbName]);
  return tabRecord(rc, w.tabs, tab, id, children, false);
}

/** Updates a record through a tab, and the child tab records its body lists: 200 with the record. */
export async function updateTabRecord(s: Services, auth: AuthContext, tx: Tx, w: TabWrite, id: string, body: unknown): Promise<JsonObject> {
  assertWritableWindow(w.window);
  if (w.tab.readOnly) throw forbidden('Tab is readonly', `Tab is readonly: ${w.tab.slug}`);
  const rc = readContextOf(s, auth, tx);
  await getRecord(rc, w.tab.table, id, { select: [], showSql: false }, tabScope(w.tab));
  const wc = createWriteContext(s.dictionary.current, auth, tx, s.events);
  const { body: values, children } = tabBody(w.tabs, w.tab, body, null);
  await updateRecord(wc, w.tab.table, id, values);
  await wc.deferred.flush();
  return tabRecord(rc, w.tabs, w.tab, id, children, false);
}

/** Deletes a record through a tab: 200 {msg: Deleted}. */
export async function deleteTabRecord(s: Services, auth: AuthContext, tx: Tx, w: TabWrite, id: string): Promise<JsonObject> {
  assertWritableWindow(w.window);
  if (w.tab.readOnly || !w.tab.table.isDeleteable) throw forbidden('Delete not allow', `Delete not allow for tab: ${w.tab.slug}`);
  const rc = readContextOf(s, auth, tx);
  await getRecord(rc, w.tab.table, id, { select: [], showSql: false }, tabScope(w.tab));
  const wc = createWriteContext(s.dictionary.current, auth, tx, s.events);
  await deleteRecord(wc, w.tab.table, id);
  await wc.deferred.flush();
  return { msg: 'Deleted' };
}
