import { readPredicate } from '../access/access.js';
import { ident, SqlBuilder } from '../db/sql.js';
import type { Column, Reference, Table } from '../dictionary/model.js';
import { notFound, notImplemented } from '../errors.js';
import { projection, statementText } from '../records/read/projection.js';
import { queryPacked } from '../records/read/packed-row.js';
import type { ReadContext } from '../records/read/read-context.js';
import { serializeRecord, type JsonObject } from '../records/serialize.js';
import { bindContext } from '../sql-fragments/context-variables.js';

/** The columns of AD_Reference that the reference answer shows, as the original does. */
const REFERENCE_COLUMNS = ['Name', 'Description', 'Help', 'ValidationType', 'VFormat'];

function dictionaryTable(rc: ReadContext, name: string): Table {
  const t = rc.dict.byName.get(name.toLowerCase());
  if (!t) throw notFound('Invalid table name', `No match found for table name: ${name}`);
  return t;
}

/** The reference's own record (id, uid, Name, ..., model-name), read like any record. */
async function referenceRecord(rc: ReadContext, ref: Reference): Promise<{ record: JsonObject; orderByValue: boolean }> {
  const table = dictionaryTable(rc, 'AD_Reference');
  const proj = projection(rc.dict, table, [...REFERENCE_COLUMNS, 'IsOrderByValue'], 'r');
  const sql = new SqlBuilder();
  const where = `r."ad_reference_id" = ${sql.param(ref.id)} AND ${readPredicate(rc.auth, table, 'r', sql)}`;
  const rows = await queryPacked(rc.q, statementText(proj, `FROM "ad_reference" r WHERE ${where}`), sql.values, proj.items);
  if (!rows.length) throw notFound('Invalid reference id', `No match found for AD_Reference_ID: ${ref.id}`);
  const shown = proj.output.filter((c) => c.name !== 'IsOrderByValue');
  return { record: serializeRecord(rc.dict, table, rows[0]!, { columns: shown }), orderByValue: rows[0]!.isorderbyvalue === 'Y' };
}

/** A list reference: its record plus reflist, the active values ordered by name (or value when the reference says so). */
async function listReference(rc: ReadContext, ref: Reference): Promise<JsonObject> {
  const { record, orderByValue } = await referenceRecord(rc, ref);
  const values = ref.list.filter((v) => v.isActive);
  values.sort(orderByValue ? (a, b) => a.value.localeCompare(b.value) : (a, b) => a.name.localeCompare(b.name));
  record.reflist = values.map((v) => ({ value: v.value, name: v.name }));
  return record;
}

/** The key, display and (if shown) Value columns of a table reference's records. */
function referenceColumns(table: Table, ref: Reference): Column[] {
  const names = [ref.table!.keyColumn, ref.table!.displayColumn, ref.isValueDisplayed ? 'Value' : null];
  const out: Column[] = [];
  for (const n of names) {
    const c = n ? table.byName.get(n.toLowerCase()) : undefined;
    if (c && !out.includes(c) && !c.isSecure && !c.isEncrypted) out.push(c);
  }
  return out;
}

/**
 * A table reference: the active records of its table that the caller may read, filtered by the
 * reference's where clause (dictionary SQL, context variables bound as parameters) and ordered by
 * its order clause, each showing its key, display and value columns.
 */
async function tableReference(rc: ReadContext, ref: Reference): Promise<JsonObject> {
  if (!ref.table) throw notFound('Invalid reference table id', `No ref table match found for AD_Reference_ID: ${ref.id}`);
  const table = rc.dict.byName.get(ref.table.tableName.toLowerCase());
  if (!table) throw notFound('Invalid reference table id', `No ref table match found for AD_Reference_ID: ${ref.id}`);
  const alias = table.dbName;
  const columns = referenceColumns(table, ref);
  const proj = projection(rc.dict, table, columns.filter((c) => c !== table.keyColumn && c !== table.uuColumn).map((c) => c.name), alias);
  const sql = new SqlBuilder();
  const where = [readPredicate(rc.auth, table, alias, sql)];
  if (table.byName.has('isactive')) where.push(`${ident(alias)}."isactive" = 'Y'`);
  if (ref.table.whereClause) where.push(`(${bindContext(ref.table.whereClause, rc.auth, sql)})`);
  const display = ref.table.displayColumn ? table.byName.get(ref.table.displayColumn.toLowerCase()) : undefined;
  const order = [ref.orderByClause ? bindContext(ref.orderByClause, rc.auth, sql) : display && !display.columnSql ? `${ident(alias)}.${ident(display.dbName)}` : null, table.keyColumn ? `${ident(alias)}.${ident(table.keyColumn.dbName)}` : null].filter(Boolean);
  const text = statementText(proj, `FROM ${ident(table.dbName)} ${ident(alias)} WHERE ${where.join(' AND ')}${order.length ? ` ORDER BY ${order.join(', ')}` : ''}`);
  const rows = await queryPacked(rc.q, text, sql.values, proj.items);
  return { reftable: rows.map((row) => serializeRecord(rc.dict, table, row, { columns: proj.output })) };
}

/** The answer of GET /references/{refID}: list and table validation; data types are not served (501). */
export async function readReference(rc: ReadContext, ref: Reference): Promise<JsonObject> {
  if (ref.validationType === 'L') return listReference(rc, ref);
  if (ref.validationType === 'T') return tableReference(rc, ref);
  throw notImplemented('References with data validation are not implemented.', `Not implemented AD_Reference_ID: ${ref.id}`);
}
