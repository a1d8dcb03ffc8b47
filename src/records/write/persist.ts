import { assertWritableRow, isOwnPasswordChange } from '../../access/access.js';
import { assertNotDocumentMaintained } from '../../access/document-maintained-tables.js';
import { uuidv7 } from '../../db/ids.js';
import { ident, SqlBuilder } from '../../db/sql.js';
import type { Column, Table } from '../../dictionary/model.js';
import { isStored } from '../../dictionary/ddl.js';
import { ApiError, badRequest, forbidden, notFound } from '../../errors.js';
import { keyCondition } from '../read/reader.js';
import { StatementNames } from '../read/statements.js';
import { VERSION, versionExpr } from '../versions/row-version.js';
import { readPredicate } from '../../access/access.js';
import { parseBody, type ParsedBody } from './body.js';
import { convertInput, convertInputNow, NEEDS_LOOKUP } from './convert-input.js';
import { applyDefaults, applyMandatoryFallbacks } from './new-row-defaults.js';
import { assignDocumentNumbers, mayNumber } from './document-number.js';
import { checkLocalValues, checkMandatory, checkValues, type ReferenceCheck } from './validate.js';
import { emitModelEvent as emit, type WriteContext } from './write-context.js';
import { isoNow } from './clock-text.js';
import { lockParentOfNewRow, lockParentOfRow } from './parent-first.js';
// Nested details marked (delete) are deleted as a DELETE would (the two modules call each other at run time only).
import { deleteRecord } from './delete-record.js';

export { lockParentFirst } from './parent-first.js';
import { validationError } from './write-errors.js';
import { checkedColumns } from './table-columns.js';

export type Row = Record<string, unknown>;

export interface WriteResult {
  table: Table;
  row: Row;
  /** Detail results keyed as in the request body. */
  details: Map<string, WriteResult[]>;
  /** An update that wrote nothing: `row` is the row as this transaction locked it, still current. */
  unchanged?: boolean;
}

/** The column of a row loaded for writing that says whether the role may read it (taken off the row). */
const VISIBLE = '__dictum_visible';

const nowText = (): string => isoNow().replace('T', ' ').slice(0, 23);

async function convertAll(wc: WriteContext, parsed: ParsedBody): Promise<Map<Column, unknown>> {
  const out = new Map<Column, unknown>();
  for (const [col, raw] of parsed.values) out.set(col, await convertOne(wc, col, raw));
  return out;
}

/** One value of a body as stored; a promise only when a referenced record is read or written. */
function convertOne(wc: WriteContext, col: Column, raw: unknown): unknown {
  if (writesReferencedRecord(col, raw)) return writeReferenced(wc, col, raw as Record<string, unknown>);
  const value = convertInputNow(wc.dict, col, raw);
  return value === NEEDS_LOOKUP ? convertInput(wc.tx, wc.dict, col, raw, wc.auth.clientId) : value;
}

/** Keys of a reference object that name the referenced record rather than set its columns. */
const LOOKUP_KEYS = new Set(['id', 'identifier', 'uid', 'lookupcolumn', 'lookupvalue', 'tablename', 'model-name', 'propertylabel']);
/** The image object's own names for AD_Image columns. */
const IMAGE_KEYS: Record<string, string> = { file_name: 'Name', filename: 'Name', url: 'ImageURL', data: 'BinaryData' };

/**
 * A reference given as an object with column values (an address, an image) writes the
 * referenced record too: the one its id names when that exists, else a new one.
 */
function writesReferencedRecord(col: Column, raw: unknown): boolean {
  if (!referencedTableName(col)) return false;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return false;
  return Object.keys(raw).some((k) => !LOOKUP_KEYS.has(k.toLowerCase()));
}

/** The table a reference column writes into: its lookup's, or AD_Image for an image. */
function referencedTableName(col: Column): string | null {
  if (col.kind === 'image') return 'ad_image';
  return col.kind === 'foreign-key' && col.lookup ? col.lookup.tableName.toLowerCase() : null;
}

async function writeReferenced(wc: WriteContext, col: Column, raw: Record<string, unknown>): Promise<number> {
  const target = wc.dict.byName.get(referencedTableName(col)!);
  if (!target || !target.keyColumn) throw validationError(`Column ${col.name} does not reference a table that can be written`);
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    const lower = k.toLowerCase();
    if (LOOKUP_KEYS.has(lower)) continue;
    body[col.kind === 'image' ? (IMAGE_KEYS[lower] ?? k) : k] = v;
  }
  const id = raw.id;
  const idText = typeof id === 'number' || typeof id === 'string' ? String(id).trim() : '';
  if (/^\d{1,15}$/.test(idText) && Number(idText) > 0) {
    const exists = await wc.tx.query(`SELECT 1 FROM ${ident(target.dbName)} WHERE ${ident(target.keyColumn.dbName)} = $1`, [Number(idText)]);
    if (exists.rows.length) {
      await updateRecord(wc, target, idText, body);
      return Number(idText);
    }
  }
  if (col.kind === 'image' && body.Name === undefined) body.Name = 'image';
  const created = await insertRecord(wc, target, body);
  return Number(created.row[target.keyColumn.dbName]);
}

/** The detail column pointing at the parent record. */
export function detailLink(parent: Table, child: Table): Column {
  let byParent = DETAIL_LINKS.get(child);
  if (!byParent) DETAIL_LINKS.set(child, (byParent = new WeakMap()));
  let link = byParent.get(parent);
  if (!link) byParent.set(parent, (link = findDetailLink(parent, child)));
  return link;
}

/** The link column of each detail table to each parent, found once per dictionary snapshot's tables. */
const DETAIL_LINKS = new WeakMap<Table, WeakMap<Table, Column>>();

function findDetailLink(parent: Table, child: Table): Column {
  const candidates = child.columns.filter((c) => c.kind === 'foreign-key' && c.lookup?.tableName.toLowerCase() === parent.dbName);
  const link = candidates.find((c) => c.isParent) ?? candidates.find((c) => parent.keyColumn && c.dbName === parent.keyColumn.dbName) ?? candidates[0];
  if (!link) throw validationError(`${child.name} is not a detail of ${parent.name}`);
  return link;
}

/** Creates a record (and its nested details) in the caller's transaction. */
export async function insertRecord(wc: WriteContext, table: Table, body: unknown, parent: { table: Table; row: Row } | null = null): Promise<WriteResult> {
  const [result] = await insertRecords(wc, table, [body], parent);
  return result!;
}

/**
 * Creates records of one table (the lines of a document sent with it): each goes through its
 * defaults, rules and checks in turn, and they are written together when the operation next
 * needs the database (see PendingInserts).
 */
export async function insertRecords(wc: WriteContext, table: Table, bodies: unknown[], parent: { table: Table; row: Row } | null): Promise<WriteResult[]> {
  if (table.isView) throw badRequest('Invalid table', `${table.name} is read-only`);
  assertNotDocumentMaintained(table, 'create');
  const prepared: { row: Row; parsed: ParsedBody; given: ReadonlySet<string> }[] = [];
  for (const body of bodies) {
    const values = givenValues(wc, table, body, parent);
    prepared.push(values instanceof Promise ? await values : values);
  }
  if (table.keyColumn) await wc.ids.reserve(wc.tx, table.name, bodies.length);
  await wc.events.emitPrepareNew({ table, rows: prepared.map((p) => p.row), tx: wc.tx, dict: wc.dict, auth: wc.auth, memo: wc.memo });
  const results: WriteResult[] = [];
  for (const { row, parsed, given } of prepared) {
    const result: WriteResult = { table, row, details: new Map() };
    const completed = completeNewRow(wc, table, row, parent, given);
    const { clientId, references } = completed instanceof Promise ? await completed : completed;
    wc.pending.add({ table, row, clientId, references, saved: (saved) => (result.row = saved) });
    if (parsed.details.length) {
      await wc.pending.flush();
      for (const d of parsed.details) result.details.set(d.key, await insertRecords(wc, d.table, d.items, { table, row: result.row }));
    }
    results.push(result);
  }
  await wc.pending.flush();
  return results;
}

interface GivenValues {
  row: Row;
  parsed: ParsedBody;
  given: ReadonlySet<string>;
}

/**
 * The values a request gives a new record, converted, with the link to its parent; a promise
 * only when a value names a record to look up or write (most lines of a statement need none).
 */
function givenValues(wc: WriteContext, table: Table, body: unknown, parent: { table: Table; row: Row } | null): GivenValues | Promise<GivenValues> {
  const parsed = parseBody(wc.dict, table, body);
  const row: Row = {};
  const entries = parsed.values.entries();
  for (let next = entries.next(); !next.done; next = entries.next()) {
    const [col, raw] = next.value;
    const value = convertOne(wc, col, raw);
    if (value instanceof Promise) return givenValuesAfter(wc, table, parsed, row, parent, col, value, entries);
    row[col.dbName] = value;
  }
  return withParent(table, parsed, row, parent);
}

/** The rest of givenValues once a value waits: that value, then the remaining ones in order. */
async function givenValuesAfter(
  wc: WriteContext,
  table: Table,
  parsed: ParsedBody,
  row: Row,
  parent: { table: Table; row: Row } | null,
  col: Column,
  pending: Promise<unknown>,
  rest: Iterator<[Column, unknown]>,
): Promise<GivenValues> {
  row[col.dbName] = await pending;
  for (let next = rest.next(); !next.done; next = rest.next()) row[next.value[0].dbName] = await convertOne(wc, next.value[0], next.value[1]);
  return withParent(table, parsed, row, parent);
}

function withParent(table: Table, parsed: ParsedBody, row: Row, parent: { table: Table; row: Row } | null): GivenValues {
  if (parent) {
    const link = detailLink(parent.table, table);
    row[link.dbName] = parent.row[parent.table.keyColumn!.dbName];
    for (const c of ['ad_client_id', 'ad_org_id']) if (row[c] === undefined && table.byName.has(c)) row[c] = parent.row[c];
  }
  return { row, parsed, given: columnSet(GIVEN_SETS, table, row) };
}

/** A new row on its way through completeNewRow, and what the steps work out for it. */
interface NewRow {
  wc: WriteContext;
  table: Table;
  row: Row;
  parent: { table: Table; row: Row } | null;
  given: ReadonlySet<string>;
  clientId: number | null;
}

/** What a completed new row still needs: its client, and the references to verify with the others'. */
interface NewRowChecks {
  clientId: number;
  references: ReferenceCheck[];
}

/** The last set of columns made per table, with the column names it was made of. */
type ColumnSets = WeakMap<Table, { names: string[]; set: Set<string> }>;
const GIVEN_SETS: ColumnSets = new WeakMap();
const NEW_ROW_SETS: ColumnSets = new WeakMap();

/**
 * The set of the columns a row sets: rows of one table that set the same columns in the same order
 * (the lines of a statement) share one. Model events' sets are read, never changed, by their handlers.
 */
function columnSet(sets: ColumnSets, table: Table, row: Row): Set<string> {
  const names = Object.keys(row);
  const last = sets.get(table);
  if (last && last.names.length === names.length && last.names.every((name, i) => name === names[i])) return last.set;
  const set = new Set(names);
  sets.set(table, { names, set });
  return set;
}

/**
 * Everything a new row goes through before it is written: defaults, standard columns, access,
 * id, uuid and numbers, before-new rules, mandatory fallbacks and the checks that need no
 * database. Returns the references still to verify; a promise only when a step has to wait
 * (a thousand lines would otherwise wait some thousand times for nothing).
 */
function completeNewRow(wc: WriteContext, table: Table, row: Row, parent: { table: Table; row: Row } | null, given: ReadonlySet<string>): NewRowChecks | Promise<NewRowChecks> {
  const n: NewRow = { wc, table, row, parent, given, clientId: null };
  const waiting = newRowStepsFrom(n, 0);
  return waiting ? waiting.then(() => checkNewRow(n)) : checkNewRow(n);
}

/** The steps of a new row in order, each after the previous one is done. */
const NEW_ROW_STEPS: readonly ((n: NewRow) => Promise<void> | undefined)[] = [
  (n) => (n.parent ? undefined : lockParentOfNewRow(n.wc, n.table.dbName, n.row)),
  (n) => applyDefaults(n.wc, n.table, n.row, n.parent?.row ?? null),
  standardColumns,
  (n) => (mayNumber(n.table) ? assignDocumentNumbers(n.wc.tx, n.table, n.row, n.clientId ?? n.wc.auth.clientId) : undefined),
  (n) => emit(n.wc, 'before-new', n.table, n.row, null, columnSet(NEW_ROW_SETS, n.table, n.row), n.given),
  (n) => applyMandatoryFallbacks(n.wc, n.table, n.row),
];

function newRowStepsFrom(n: NewRow, from: number): Promise<void> | undefined {
  for (let i = from; i < NEW_ROW_STEPS.length; i++) {
    const waiting = NEW_ROW_STEPS[i]!(n);
    if (waiting) return waiting.then(() => newRowStepsFrom(n, i + 1));
  }
  return undefined;
}

/** Stamps, client and organisation, access, id and uuid; a promise only when the id must be read. */
function standardColumns(n: NewRow): Promise<void> | undefined {
  const { wc, table, row } = n;
  const now = nowText();
  const has = table.byName;
  if (has.has('created')) row.created = now;
  if (has.has('updated')) row.updated = now;
  if (has.has('createdby')) row.createdby = wc.auth.userId;
  if (has.has('updatedby')) row.updatedby = wc.auth.userId;
  if (has.has('isactive')) row.isactive ??= 'Y';
  const clientId = table.byName.has('ad_client_id') ? Number(row.ad_client_id ?? wc.auth.clientId) : null;
  if (clientId !== null) row.ad_client_id = clientId;
  n.clientId = clientId;
  const orgId = table.byName.has('ad_org_id') ? Number(row.ad_org_id ?? 0) : null;
  if (orgId !== null) row.ad_org_id = orgId;
  if (orgId !== null && table.accessLevel === '4') row.ad_org_id = 0;
  if (orgId === 0 && table.accessLevel === '1') throw validationError('Fill mandatory fields: AD_Org_ID (records of this table belong to an organization)');
  assertWritableRow(wc.auth, table, clientId, orgId, 'create');
  const key = table.keyColumn;
  if (!key) return withUuid(table, row);
  const id = wc.ids.take(table.name);
  if (id === undefined) {
    return wc.ids.next(wc.tx, table.name).then((next) => {
      row[key.dbName] = next;
      withUuid(table, row);
    });
  }
  row[key.dbName] = id;
  return withUuid(table, row);
}

function withUuid(table: Table, row: Row): undefined {
  if (table.uuColumn) row[table.uuColumn.dbName] = uuidv7();
  return undefined;
}

/** The checks of a completed new row that need no database; the references are verified later, with the other rows'. */
function checkNewRow(n: NewRow): NewRowChecks {
  checkMandatory(n.table, n.row);
  // Columns the row leaves empty pass the checks as they are.
  const references = checkLocalValues(n.wc.dict, n.table, n.row, checkedColumns(n.table));
  return { clientId: n.clientId ?? n.wc.auth.clientId, references };
}

/**
 * The locked reads prepared under names: every write and document action of a record starts with
 * one, of a few shapes per table and role (parsed and planned once per connection, not on every write).
 */
const lockedReads = new StatementNames('rec_lock', 200);

/**
 * Loads a record for writing, locked, applying the caller's read access (404 / 403). With
 * `version`, the same statement reads the row's version too and hands it to `version`.
 */
export async function loadForWrite(wc: WriteContext, table: Table, idText: string, version?: (v: string | null) => void): Promise<Row> {
  const sql = new SqlBuilder();
  const cond = keyCondition(table, idText, 't', sql);
  await lockParentOfRow(wc, table.dbName, cond, sql.values);
  const versionItem = version ? versionExpr(table, 't') : null;
  // Whether the role may see the row comes with the locked row itself: no statement of its own.
  const visibleItem = readPredicate(wc.auth, table, 't', sql);
  const text = `SELECT t.*${versionItem ? `, ${versionItem} AS "${VERSION}"` : ''}, (${visibleItem}) AS "${VISIBLE}" FROM ${ident(table.dbName)} t WHERE ${cond} FOR UPDATE`;
  const name = lockedReads.of(text);
  const { rows } = await wc.tx.query<Row>(text, sql.values, name ? { name } : undefined);
  if (!rows.length) throw notFound('Record not found', `No record found matching id: ${idText}`);
  const row = rows[0]!;
  if (version) {
    version(versionItem ? (row[VERSION] as string) : null);
    delete row[VERSION];
  }
  const visible = row[VISIBLE] === true || row[VISIBLE] === 't';
  delete row[VISIBLE];
  if (!visible) throw forbidden('Access denied', `Access denied for record with id: ${idText}`);
  return row;
}

const sameValue = (a: unknown, b: unknown): boolean => {
  if (a === null || a === undefined) return b === null || b === undefined;
  if (b === null || b === undefined) return false;
  if (Buffer.isBuffer(a) || Buffer.isBuffer(b)) return Buffer.isBuffer(a) && Buffer.isBuffer(b) && a.equals(b);
  if (typeof a === 'number' || typeof b === 'number') return Number(a) === Number(b);
  return String(a).trim() === String(b).trim();
};

/** Updates only the columns the body names; nested details are updated, deleted or created. */
export async function updateRecord(wc: WriteContext, table: Table, idText: string, body: unknown, existing?: Row): Promise<WriteResult> {
  assertNotDocumentMaintained(table, 'update');
  const old = existing ?? (await loadForWrite(wc, table, idText));
  const parsed = parseBody(wc.dict, table, body);
  const ownPassword = isOwnPasswordChange(wc.auth, table, old, parsed.values.keys());
  assertWritableRow(wc.auth, table, table.byName.has('ad_client_id') ? Number(old.ad_client_id) : null, table.byName.has('ad_org_id') ? Number(old.ad_org_id) : null, 'update', ownPassword);
  const converted = await convertAll(wc, parsed);
  const row: Row = { ...old };
  const changed = new Set<string>();
  const processed = old.processed === 'Y';
  for (const [col, v] of converted) {
    if (sameValue(old[col.dbName], v)) continue;
    if (col === table.uuColumn || (!col.isUpdateable && !col.isAlwaysUpdateable)) throw validationError(`Cannot update column ${col.name}`);
    if (processed && !col.isAlwaysUpdateable && col.dbName !== 'isactive') throw validationError(`Cannot update column ${col.name} on processed record`);
    row[col.dbName] = v;
    changed.add(col.dbName);
  }
  if (changed.has('ad_org_id')) assertWritableRow(wc.auth, table, null, Number(row.ad_org_id), 'update');
  let saved = old;
  if (changed.size) {
    if (table.byName.has('updated')) row.updated = nowText();
    if (table.byName.has('updatedby')) row.updatedby = wc.auth.userId;
    await emit(wc, 'before-change', table, row, old, changed);
    for (const c of table.columns) if (isStored(c) && !sameValue(old[c.dbName], row[c.dbName])) changed.add(c.dbName);
    checkMandatory(table, row, changed);
    await checkValues(wc.tx, wc.dict, table, row, table.columns.filter((c) => changed.has(c.dbName)), Number(row.ad_client_id ?? wc.auth.clientId));
    const sql = new SqlBuilder();
    const sets = table.columns.filter((c) => isStored(c) && changed.has(c.dbName)).map((c) => `${ident(c.dbName)} = ${sql.param(row[c.dbName])}`);
    const key = keyOf(table, old, sql);
    const { rows } = await wc.tx.query<Row>(`UPDATE ${ident(table.dbName)} SET ${sets.join(', ')} WHERE ${key} RETURNING *`, sql.values);
    saved = rows[0]!;
    wc.memo.forget(table.dbName);
    await emit(wc, 'after-change', table, saved, old, changed);
  }
  const result: WriteResult = { table, row: saved, details: new Map(), ...(changed.size || parsed.details.length ? {} : { unchanged: true }) };
  for (const d of parsed.details) result.details.set(d.key, await writeDetails(wc, table, saved, d.table, d.items));
  return result;
}

async function writeDetails(wc: WriteContext, parent: Table, parentRow: Row, child: Table, items: Record<string, unknown>[]): Promise<WriteResult[]> {
  const link = detailLink(parent, child);
  const out: WriteResult[] = [];
  for (const item of items) {
    const ref = item.id ?? item.uid;
    if (ref === undefined || ref === null) {
      out.push(...(await insertRecords(wc, child, [item], { table: parent, row: parentRow })));
      continue;
    }
    const existing = await loadForWrite(wc, child, String(ref));
    if (Number(existing[link.dbName]) !== Number(parentRow[parent.keyColumn!.dbName])) {
      throw validationError(`${child.name} ${String(ref)} does not belong to this ${parent.name}`);
    }
    if (item['(delete)'] === true) {
      await deleteRecord(wc, child, String(ref), existing);
      continue;
    }
    out.push(await updateRecord(wc, child, String(ref), item, existing));
  }
  return out;
}

/** The WHERE condition naming one row by its key (or UUID when the table has no numeric key). */
export function keyOf(table: Table, row: Row, sql: SqlBuilder): string {
  if (table.keyColumn) return `${ident(table.keyColumn.dbName)} = ${sql.param(row[table.keyColumn.dbName])}`;
  if (table.uuColumn) return `${ident(table.uuColumn.dbName)} = ${sql.param(row[table.uuColumn.dbName])}`;
  throw new ApiError(400, 'Invalid table', `${table.name} has no key`);
}
