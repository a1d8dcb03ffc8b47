import { assertWritableRow } from '../../access/access.js';
import { nextId, uuidv7 } from '../../db/ids.js';
import { ident, SqlBuilder } from '../../db/sql.js';
import type { Column, Table } from '../../dictionary/model.js';
import { isStored } from '../../dictionary/ddl.js';
import { ApiError, badRequest, forbidden, notFound } from '../../errors.js';
import type { ModelEventType } from '../../events/model-events.js';
import { keyCondition } from '../read/reader.js';
import { readPredicate } from '../../access/access.js';
import { parseBody, type ParsedBody } from './body.js';
import { convertInput } from './convert-input.js';
import { evaluateDefault } from './defaults.js';
import { assignDocumentNumbers } from './document-number.js';
import { checkMandatory, checkValues } from './validate.js';
import type { WriteContext } from './write-context.js';
import { validationError } from './write-errors.js';

export type Row = Record<string, unknown>;

export interface WriteResult {
  table: Table;
  row: Row;
  /** Detail results keyed as in the request body. */
  details: Map<string, WriteResult[]>;
}

const nowText = (): string => new Date().toISOString().replace('T', ' ').slice(0, 23);

async function emit(wc: WriteContext, type: ModelEventType, table: Table, row: Row, old: Row | null, changed: Set<string>): Promise<void> {
  await wc.events.emit({ type, table, row, old, changed, tx: wc.tx, dict: wc.dict, auth: wc.auth });
}

async function convertAll(wc: WriteContext, parsed: ParsedBody): Promise<Map<Column, unknown>> {
  const out = new Map<Column, unknown>();
  for (const [col, raw] of parsed.values) out.set(col, await convertInput(wc.tx, wc.dict, col, raw, wc.auth.clientId));
  return out;
}

/** The detail column pointing at the parent record. */
export function detailLink(parent: Table, child: Table): Column {
  const candidates = child.columns.filter((c) => c.kind === 'foreign-key' && c.lookup?.tableName.toLowerCase() === parent.dbName);
  const link = candidates.find((c) => c.isParent) ?? candidates.find((c) => parent.keyColumn && c.dbName === parent.keyColumn.dbName) ?? candidates[0];
  if (!link) throw validationError(`${child.name} is not a detail of ${parent.name}`);
  return link;
}

/** Creates a record (and its nested details) in the caller's transaction. */
export async function insertRecord(wc: WriteContext, table: Table, body: unknown, parent: { table: Table; row: Row } | null = null): Promise<WriteResult> {
  if (table.isView) throw badRequest('Invalid table', `${table.name} is read-only`);
  const parsed = parseBody(wc.dict, table, body);
  const row: Row = {};
  for (const [col, v] of await convertAll(wc, parsed)) row[col.dbName] = v;
  if (parent) {
    const link = detailLink(parent.table, table);
    row[link.dbName] = parent.row[parent.table.keyColumn!.dbName];
    for (const c of ['ad_client_id', 'ad_org_id']) if (row[c] === undefined && table.byName.has(c)) row[c] = parent.row[c];
  }
  for (const col of table.columns) {
    if (!isStored(col) || col === table.keyColumn || col === table.uuColumn) continue;
    if (row[col.dbName] === undefined || row[col.dbName] === null) {
      const v = await evaluateDefault(wc.tx, col, row, parent?.row ?? null, wc.auth);
      if (v !== null && v !== undefined) row[col.dbName] = v;
    }
  }
  const now = nowText();
  for (const [c, v] of [['created', now], ['updated', now], ['createdby', wc.auth.userId], ['updatedby', wc.auth.userId], ['isactive', 'Y']] as const) {
    if (table.byName.has(c) && (row[c] === undefined || row[c] === null || c !== 'isactive')) row[c] = c === 'isactive' ? (row[c] ?? v) : v;
  }
  const clientId = table.byName.has('ad_client_id') ? Number(row.ad_client_id ?? wc.auth.clientId) : null;
  if (clientId !== null) row.ad_client_id = clientId;
  const orgId = table.byName.has('ad_org_id') ? Number(row.ad_org_id ?? 0) : null;
  if (orgId !== null) row.ad_org_id = orgId;
  assertWritableRow(wc.auth, table, clientId, orgId, 'create');
  if (table.keyColumn) row[table.keyColumn.dbName] = await nextId(wc.tx, table.name);
  if (table.uuColumn) row[table.uuColumn.dbName] = uuidv7();
  await assignDocumentNumbers(wc.tx, table, row, clientId ?? wc.auth.clientId);
  await emit(wc, 'before-new', table, row, null, new Set(Object.keys(row)));
  checkMandatory(table, row);
  await checkValues(wc.tx, wc.dict, table, row, table.columns.filter((c) => row[c.dbName] !== undefined), clientId ?? wc.auth.clientId);
  const cols = table.columns.filter((c) => isStored(c) && row[c.dbName] !== undefined);
  const sql = new SqlBuilder();
  const values = cols.map((c) => sql.param(row[c.dbName]));
  const { rows } = await wc.tx.query<Row>(
    `INSERT INTO ${ident(table.dbName)} (${cols.map((c) => ident(c.dbName)).join(', ')}) VALUES (${values.join(', ')}) RETURNING *`,
    sql.values,
  );
  const saved = rows[0]!;
  await emit(wc, 'after-new', table, saved, null, new Set(cols.map((c) => c.dbName)));
  const result: WriteResult = { table, row: saved, details: new Map() };
  for (const d of parsed.details) {
    const list: WriteResult[] = [];
    for (const item of d.items) list.push(await insertRecord(wc, d.table, item, { table, row: saved }));
    result.details.set(d.key, list);
  }
  return result;
}

/** Loads a record for writing, locked, applying the caller's read access (404 / 403). */
export async function loadForWrite(wc: WriteContext, table: Table, idText: string): Promise<Row> {
  const sql = new SqlBuilder();
  const cond = keyCondition(table, idText, 't', sql);
  const { rows } = await wc.tx.query<Row>(`SELECT * FROM ${ident(table.dbName)} t WHERE ${cond} FOR UPDATE`, sql.values);
  if (!rows.length) throw notFound('Record not found', `No record found matching id: ${idText}`);
  const check = new SqlBuilder();
  check.values.push(...sql.values);
  const visible = await wc.tx.query(`SELECT 1 FROM ${ident(table.dbName)} t WHERE ${cond} AND ${readPredicate(wc.auth, table, 't', check)}`, check.values);
  if (!visible.rows.length) throw forbidden('Access denied', `Access denied for record with id: ${idText}`);
  return rows[0]!;
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
  const old = existing ?? (await loadForWrite(wc, table, idText));
  const parsed = parseBody(wc.dict, table, body);
  assertWritableRow(wc.auth, table, table.byName.has('ad_client_id') ? Number(old.ad_client_id) : null, table.byName.has('ad_org_id') ? Number(old.ad_org_id) : null, 'update');
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
    checkMandatory(table, row);
    await checkValues(wc.tx, wc.dict, table, row, table.columns.filter((c) => changed.has(c.dbName)), Number(row.ad_client_id ?? wc.auth.clientId));
    const sql = new SqlBuilder();
    const sets = table.columns.filter((c) => isStored(c) && changed.has(c.dbName)).map((c) => `${ident(c.dbName)} = ${sql.param(row[c.dbName])}`);
    const key = keyOf(table, old, sql);
    const { rows } = await wc.tx.query<Row>(`UPDATE ${ident(table.dbName)} SET ${sets.join(', ')} WHERE ${key} RETURNING *`, sql.values);
    saved = rows[0]!;
    await emit(wc, 'after-change', table, saved, old, changed);
  }
  const result: WriteResult = { table, row: saved, details: new Map() };
  for (const d of parsed.details) result.details.set(d.key, await writeDetails(wc, table, saved, d.table, d.items));
  return result;
}

async function writeDetails(wc: WriteContext, parent: Table, parentRow: Row, child: Table, items: Record<string, unknown>[]): Promise<WriteResult[]> {
  const link = detailLink(parent, child);
  const out: WriteResult[] = [];
  for (const item of items) {
    const ref = item.id ?? item.uid;
    if (ref === undefined || ref === null) {
      out.push(await insertRecord(wc, child, item, { table: parent, row: parentRow }));
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

function keyOf(table: Table, row: Row, sql: SqlBuilder): string {
  if (table.keyColumn) return `${ident(table.keyColumn.dbName)} = ${sql.param(row[table.keyColumn.dbName])}`;
  if (table.uuColumn) return `${ident(table.uuColumn.dbName)} = ${sql.param(row[table.uuColumn.dbName])}`;
  throw new ApiError(400, 'Invalid table', `${table.name} has no key`);
}

/** Deletes a record the caller may write; processed documents cannot be deleted. */
export async function deleteRecord(wc: WriteContext, table: Table, idText: string, existing?: Row): Promise<void> {
  const old = existing ?? (await loadForWrite(wc, table, idText));
  if (!table.isDeleteable) throw forbidden('Delete error', `Records of ${table.name} cannot be deleted`);
  assertWritableRow(wc.auth, table, table.byName.has('ad_client_id') ? Number(old.ad_client_id) : null, table.byName.has('ad_org_id') ? Number(old.ad_org_id) : null, 'delete');
  if (old.processed === 'Y') throw validationError(`Cannot delete a processed ${table.name} record`);
  await emit(wc, 'before-delete', table, old, old, new Set());
  const sql = new SqlBuilder();
  await wc.tx.query(`DELETE FROM ${ident(table.dbName)} WHERE ${keyOf(table, old, sql)}`, sql.values);
  await emit(wc, 'after-delete', table, old, old, new Set());
}
