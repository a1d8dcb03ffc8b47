import { assertWritableRow } from '../../access/access.js';
import type { AuthContext } from '../../auth/context.js';
import { ident, SqlBuilder } from '../../db/sql.js';
import type { Tx } from '../../db/types.js';
import type { Dictionary, Table } from '../../dictionary/model.js';
import { ApiError, badRequest } from '../../errors.js';
import type { DocumentEventType, ModelEvents, Row } from '../../events/model-events.js';
import { StatementNames } from '../../records/read/statements.js';
import { loadForWrite } from '../../records/write/persist.js';
import { createWriteContext, emitModelEvent, type WriteContext } from '../../records/write/write-context.js';
import { nowTimestamp } from '../row-values.js';
import { afterAction, isAccepted, isDocAction, isDocStatus, type DocAction, type DocStatus } from './doc-status.js';
import { DocumentRefusal, refusalError, type DocumentContext, type DocumentType } from './document-type.js';
import { requireDocumentTypeOfTable } from './document-type-check.js';

const types = new Map<string, DocumentType>();

/** Makes a document type's actions available (see register.ts). */
export function registerDocumentType(type: DocumentType): void {
  types.set(type.table, type);
}

/** Whether a table is a document the engine can process. */
export const isDocumentTable = (table: Table): boolean => types.has(table.dbName);

/** What a process runner or a route needs to run an action. */
export interface DocumentActionContext {
  dict: Dictionary;
  auth: AuthContext;
  tx: Tx;
  events: ModelEvents;
}

export interface DocumentActionResult {
  /** The header after the action. */
  row: Row;
  status: DocStatus;
  /** The original's "doc-processmsg" ("" when the action has nothing to say). */
  message: string;
}

const EVENT_OF: Record<string, string> = { PR: 'prepare', CO: 'complete', VO: 'void', CL: 'close', RE: 'reactivate', RC: 'reverse-correct', RA: 'reverse-accrual' };

/**
 * Decides, before an action runs, whether a workflow takes it over (an approval that suspends it):
 * its result is then the action's. Null: the action runs directly.
 */
export type ActionGate = (d: DocumentContext, status: DocStatus) => Promise<DocumentActionResult | null>;
let gate: ActionGate | null = null;

/** Installs the workflow engine's gate (see src/workflow). */
export function setActionGate(g: ActionGate | null): void {
  gate = g;
}

export interface DocumentActionOptions {
  /** The action is a node of a running workflow: the gate is not asked again. */
  fromWorkflow?: boolean;
  /** The document was created by the same write operation (a POST with doc-action). */
  newRecord?: boolean;
  /** The document's row as the caller's transaction locked it, its access checked, and unchanged since. */
  lockedRow?: Row;
}

const isWriteContext = (c: DocumentActionContext | WriteContext): c is WriteContext => 'deferred' in c && 'pending' in c;

/**
 * Runs a document action (CO, PR, VO, CL, RE, RC, RA, ...) on one document, in the caller's
 * transaction, with the caller's access: the record must be writable by the caller. Refused or
 * failing actions throw a 400 ApiError naming status, action and reason; the caller's
 * transaction then rolls back whatever the action wrote. Document events (before-/after-
 * prepare, complete, ...) are raised around each step through the model events.
 */
export async function runDocumentAction(
  ctx: DocumentActionContext | WriteContext,
  table: Table | string,
  recordId: number | string,
  action: unknown,
  options: DocumentActionOptions = {},
): Promise<DocumentActionResult> {
  const wc = isWriteContext(ctx) ? ctx : createWriteContext(ctx.dict, ctx.auth, ctx.tx, ctx.events);
  const t = typeof table === 'string' ? wc.dict.byName.get(table.toLowerCase()) : table;
  if (!t) throw badRequest('Invalid table name', `No match found for table name: ${String(table)}`);
  const type = types.get(t.dbName);
  if (!type) throw badRequest('Failed Processing Document', `${t.name} is not a document with actions`);
  const row = options.lockedRow ?? (await loadForWrite(wc, t, String(recordId)));
  assertWritableRow(wc.auth, t, Number(row.ad_client_id), Number(row.ad_org_id), 'update');
  const status = isDocStatus(row.docstatus) ? row.docstatus : 'DR';
  const code = typeof action === 'string' ? action.trim().toUpperCase() : String(action);
  const refused = (reason: string) => refusalError(t, row, status, code, reason);
  if (!isDocAction(code)) throw refused('unknown document action');
  if (code === '--') return { row, status, message: '' };
  if (!isAccepted(status, code)) throw refused(`not allowed in status ${status}`);
  const d: DocumentContext = { wc, table: t, row, action: code, changes: {}, messages: [], ...(options.newRecord ? { newRecord: true } : {}) };
  try {
    const reason = type.refusal ? await type.refusal(d) : null;
    if (reason) throw refused(reason);
    const gated = gate && !options.fromWorkflow ? await gate(d, status) : null;
    if (gated) return gated;
    const result = await perform(type, d, status);
    return { row: result, status: result.docstatus as DocStatus, message: d.messages.join('; ') };
  } catch (e) {
    if (e instanceof DocumentRefusal) throw refused(e.message);
    throw e;
  }
}

/** The step functions of an action, or null when the document type does not offer it. */
function stepOf(type: DocumentType, action: DocAction): ((d: DocumentContext) => Promise<unknown>) | null {
  const bind = (f: ((d: DocumentContext) => Promise<unknown>) | undefined) => (f ? f.bind(type) : null);
  switch (action) {
    case 'PR':
      return bind(type.prepare);
    case 'CO':
      return bind(type.complete);
    case 'VO':
      return bind(type.void);
    case 'CL':
      return bind(type.close);
    case 'RE':
      return bind(type.reactivate);
    case 'RC':
      return bind(type.reverseCorrect);
    case 'RA':
      return bind(type.reverseAccrual);
    // Unlock, invalidate, approve and reject only move the status (see afterAction).
    case 'XL':
    case 'IN':
    case 'AP':
    case 'RJ':
      return async () => undefined;
    default:
      return null;
  }
}

async function perform(type: DocumentType, d: DocumentContext, status: DocStatus): Promise<Row> {
  const step = stepOf(type, d.action);
  if (!step) throw new DocumentRefusal(`${d.table.name} documents do not offer this action`);
  let row = d.row;
  const prepares = d.action === 'PR' || (d.action === 'CO' && (status === 'DR' || status === 'IN'));
  if (prepares) await requireDocumentTypeOfTable(d);
  // Complete of a document not yet prepared prepares it first, as the original's engine.
  if (d.action === 'CO' && (status === 'DR' || status === 'IN')) {
    row = await runStep(d, 'PR', () => type.prepare(d), () => afterAction('PR', 'IP'), type.oneHeaderWrite === true);
  }
  let completeStatus: DocStatus = 'CO';
  return runStep(
    d,
    d.action,
    async () => {
      const r = await step(d);
      if (d.action === 'CO' && isDocStatus(r)) completeStatus = r;
    },
    () => afterAction(d.action, completeStatus),
  );
}

/**
 * One step: before event, the handler, the header written with its new status, after event.
 * `held`: the header is not written; the step's changes stay in `d.changes`, written with the
 * next step's, and the row is the header as the write would have left it (see oneHeaderWrite).
 */
async function runStep(d: DocumentContext, action: DocAction, work: () => Promise<void>, next: () => ReturnType<typeof afterAction>, held = false): Promise<Row> {
  const name = EVENT_OF[action];
  const old = d.row;
  if (name) await emitModelEvent(d.wc, `before-${name}` as DocumentEventType, d.table, { ...d.row }, old, new Set());
  await work();
  const after = next();
  const changes: Row = { ...d.changes, docstatus: after.status, docaction: after.next, processed: after.processed ? 'Y' : 'N' };
  let saved: Row;
  if (held) saved = heldHeader(d, changes);
  else {
    d.changes = {};
    saved = await writeHeader(d, changes, after.processed !== (old.processed === 'Y') ? after.processed : null);
  }
  d.row = saved;
  const changed = new Set(Object.keys(changes).filter((c) => String(old[c] ?? '') !== String(saved[c] ?? '')));
  if (name) await emitModelEvent(d.wc, `after-${name}` as DocumentEventType, d.table, saved, old, changed);
  return saved;
}

/** A timestamp's text as the database answers it: no trailing zeros in its fraction, none at all for whole seconds. */
const asServerTimestamp = (text: string): string => text.replace(/\.?0+$/, '');

/** The header as writeHeader would answer it after writing `changes`, without writing it (see runStep's `held`). */
function heldHeader(d: DocumentContext, changes: Row): Row {
  const t = d.table;
  const row: Row = { ...d.row };
  for (const [c, v] of Object.entries(changes)) if (t.byName.has(c)) row[c] = v;
  if (t.byName.has('updated')) row.updated = asServerTimestamp(nowTimestamp());
  if (t.byName.has('updatedby')) row.updatedby = d.wc.auth.userId;
  return row;
}

/** The header writes prepared under names: a document's actions write the same few column sets again and again. */
const headerWrites = new StatementNames('doc_hdr', 200);

/**
 * Writes the header's changes, answering the row as written; when `processed` is given, the detail
 * tables' Processed follows in the same statement (see detailUpdates).
 */
async function writeHeader(d: DocumentContext, changes: Row, processed: boolean | null): Promise<Row> {
  const t = d.table;
  const values: Row = { ...changes, updated: nowTimestamp(), updatedby: d.wc.auth.userId };
  if (t.byName.has('processedon') && changes.processed === 'Y' && d.row.processed !== 'Y') values.processedon = Date.now();
  const sql = new SqlBuilder();
  const tables = processed === null ? [] : detailTables(d);
  const details = tables.length ? detailUpdates(tables, sql.param(processed ? 'Y' : 'N'), sql.param(d.row[t.keyColumn!.dbName])) : [];
  const written = Object.entries(values).filter(([c]) => t.byName.has(c));
  const sets = written.map(([c, v]) => `${ident(c)} = ${sql.param(v)}`);
  const key = t.keyColumn!;
  // Only the columns written come back when nothing else writes the header during the action (see headerThroughChanges).
  const narrow = types.get(t.dbName)?.headerThroughChanges === true;
  const returning = narrow ? written.map(([c]) => ident(c)).join(', ') : '*';
  const update = `UPDATE ${ident(t.dbName)} SET ${sets.join(', ')} WHERE ${ident(key.dbName)} = ${sql.param(d.row[key.dbName])} RETURNING ${returning}`;
  const text = details.length ? `WITH ${details.map((u, n) => `d${n} AS (${u.sql})`).join(', ')} ${update}` : update;
  const name = headerWrites.of(text);
  const { rows } = await d.wc.tx.query<Row>(text, sql.values, name ? { name } : undefined);
  if (!rows[0]) throw new ApiError(404, 'Record not found', `No record found matching id: ${String(d.row[key.dbName])}`);
  d.wc.memo.forget(t.dbName);
  for (const detail of details) d.wc.memo.forget(detail.table);
  return narrow ? { ...d.row, ...rows[0] } : rows[0];
}

/** The detail tables (lines, tax rows) that have Processed: they are processed with their header. */
function detailTables(d: DocumentContext): { table: string; link: string }[] {
  return types.get(d.table.dbName)!.details.filter((detail) => d.wc.dict.byName.get(detail.table)?.byName.has('processed'));
}

/** One UPDATE of Processed per detail table, each a data-modifying CTE of the header's UPDATE (`flag` and `id` are its parameters). */
function detailUpdates(details: { table: string; link: string }[], flag: string, id: string): { table: string; sql: string }[] {
  return details.map((detail) => ({ table: detail.table, sql: `UPDATE ${ident(detail.table)} SET processed = ${flag} WHERE ${ident(detail.link)} = ${id} AND processed IS DISTINCT FROM ${flag}` }));
}
