import { assertWritableRow } from '../../access/access.js';
import { assertNotDocumentMaintained } from '../../access/document-maintained-tables.js';
import { ident, SqlBuilder } from '../../db/sql.js';
import type { Column, Table } from '../../dictionary/model.js';
import { isStored } from '../../dictionary/ddl.js';
import { ApiError, forbidden } from '../../errors.js';
import { keyOf, loadForWrite, updateRecord, type Row } from './persist.js';
import { emitModelEvent as emit, type WriteContext } from './write-context.js';
import { validationError } from './write-errors.js';

// Deleting a record through the record engine: its details go with it, references that cascade
// or set null follow their constraint, and any other reference refuses the delete.

/** Tables and columns whose records point at a record of `table` without being its details. */
function referencingColumns(wc: WriteContext, table: Table): { table: Table; column: Column }[] {
  const out: { table: Table; column: Column }[] = [];
  for (const t of wc.dict.tables) {
    if (t.isView) continue;
    for (const c of t.columns) {
      if (c.isParent || !isStored(c) || (c.kind !== 'foreign-key' && c.kind !== 'image') || !c.lookup) continue;
      if (c.lookup.tableName.toLowerCase() !== table.dbName || c.lookup.keyColumn.toLowerCase() !== table.keyColumn?.dbName) continue;
      out.push({ table: t, column: c });
    }
  }
  return out;
}

const CASCADE = new Set(['C', 'M']);
const SET_NULL = new Set(['S', 'T']);

/** Records pointing at a deleted record through a cascading column go with it (each raising its events). */
async function cascadeDelete(wc: WriteContext, r: { table: Table; column: Column }, id: unknown, depth: number): Promise<void> {
  const key = r.table.keyColumn ?? r.table.uuColumn;
  if (!key) return;
  const { rows } = await wc.tx.query<Row>(`SELECT * FROM ${ident(r.table.dbName)} WHERE ${ident(r.column.dbName)} = $1 FOR UPDATE`, [id]);
  for (const row of rows) await deleteRecord(wc, r.table, String(row[key.dbName]), row, depth + 1);
}

/** Records pointing at a deleted record through a set-null column lose the reference (an update with its events). */
async function detachReferences(wc: WriteContext, r: { table: Table; column: Column }, id: unknown): Promise<void> {
  const key = r.table.keyColumn ?? r.table.uuColumn;
  if (!key) return;
  const { rows } = await wc.tx.query<Row>(`SELECT * FROM ${ident(r.table.dbName)} WHERE ${ident(r.column.dbName)} = $1 FOR UPDATE`, [id]);
  for (const row of rows) await updateRecord(wc, r.table, String(row[key.dbName]), { [r.column.name]: null }, row);
}

/** Detail tables whose parent link points at `table`: their records go with the parent. */
function detailLinks(wc: WriteContext, table: Table): { table: Table; column: Column }[] {
  const out: { table: Table; column: Column }[] = [];
  for (const t of wc.dict.tables) {
    if (t.isView || t === table) continue;
    for (const c of t.parentColumns) {
      if (isStored(c) && c.lookup?.tableName.toLowerCase() === table.dbName) out.push({ table: t, column: c });
    }
  }
  return out;
}

/**
 * Probes per statement when looking for a reference: a user or a client is referenced by some
 * thousand columns (CreatedBy, UpdatedBy, ...), more than one statement should carry.
 */
const PROBES_PER_QUERY = 150;

/** The first referencing column that still holds `id`, or null; probed in batches of UNION ALL. */
async function firstReference(wc: WriteContext, refs: { table: Table; column: Column }[], id: unknown): Promise<{ table: Table; column: Column } | null> {
  for (let start = 0; start < refs.length; start += PROBES_PER_QUERY) {
    const batch = refs.slice(start, start + PROBES_PER_QUERY);
    const sql = new SqlBuilder();
    const p = sql.param(id);
    const probes = batch.map((r, i) => `(SELECT ${i} AS i FROM ${ident(r.table.dbName)} WHERE ${ident(r.column.dbName)} = ${p} LIMIT 1)`);
    const { rows } = await wc.tx.query<{ i: number }>(`SELECT p.i FROM (${probes.join(' UNION ALL ')}) p LIMIT 1`, sql.values);
    if (rows.length) return batch[Number(rows[0]!.i)]!;
  }
  return null;
}

/**
 * Deletes a record the caller may write, with its detail records (each raising its own
 * events); processed documents cannot be deleted, and a record other records still point at
 * is refused with 409 naming the first such reference.
 */
export async function deleteRecord(wc: WriteContext, table: Table, idText: string, existing?: Row, depth = 0): Promise<void> {
  assertNotDocumentMaintained(table, 'delete', depth > 0);
  const old = existing ?? (await loadForWrite(wc, table, idText));
  if (!table.isDeleteable) throw forbidden('Delete error', `Records of ${table.name} cannot be deleted`);
  assertWritableRow(wc.auth, table, table.byName.has('ad_client_id') ? Number(old.ad_client_id) : null, table.byName.has('ad_org_id') ? Number(old.ad_org_id) : null, 'delete');
  if (old.processed === 'Y') throw validationError(`Cannot delete a processed ${table.name} record`);
  await emit(wc, 'before-delete', table, old, old, new Set());
  if (table.keyColumn && depth < 8) {
    const id = old[table.keyColumn.dbName];
    for (const link of detailLinks(wc, table)) {
      const key = link.table.keyColumn ?? link.table.uuColumn;
      if (!key) continue;
      const { rows } = await wc.tx.query<Row>(`SELECT * FROM ${ident(link.table.dbName)} WHERE ${ident(link.column.dbName)} = $1 FOR UPDATE`, [id]);
      for (const r of rows) await deleteRecord(wc, link.table, String(r[key.dbName]), r, depth + 1);
    }
    const all = referencingColumns(wc, table);
    const refs = all.filter((x) => !CASCADE.has(x.column.fkConstraintType ?? '') && !SET_NULL.has(x.column.fkConstraintType ?? '') && x.column.fkConstraintType !== 'D');
    if (refs.length) {
      const found = await firstReference(wc, refs, id);
      if (found) throw new ApiError(409, 'Delete error', `The record is still referenced by ${found.table.name}.${found.column.name}`);
    }
    for (const r of all.filter((x) => CASCADE.has(x.column.fkConstraintType ?? ''))) await cascadeDelete(wc, r, id, depth);
    for (const r of all.filter((x) => SET_NULL.has(x.column.fkConstraintType ?? ''))) await detachReferences(wc, r, id);
  }
  const sql = new SqlBuilder();
  await wc.tx.query(`DELETE FROM ${ident(table.dbName)} WHERE ${keyOf(table, old, sql)}`, sql.values);
  wc.memo.forget(table.dbName);
  await emit(wc, 'after-delete', table, old, old, new Set());
}
