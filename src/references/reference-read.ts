import { readPredicate } from '../access/access.js';
import { ident, SqlBuilder } from '../db/sql.js';
import type { Column, Table } from '../dictionary/model.js';
import type { ReferenceRow } from './find-reference.js';
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
async function referenceRecord(rc: ReadContext, ref: ReferenceRow): Promise<JsonObject> {
  const table = dictionaryTable(rc, 'AD_Reference');
  const proj = projection(rc.dict, table, REFERENCE_COLUMNS, 'r');
  const sql = new SqlBuilder();
  const where = `r."ad_reference_id" = ${sql.param(ref.id)} AND ${readPredicate(rc.auth, table, 'r', sql)}`;
  const rows = await queryPacked(rc.q, statementText(proj, `FROM "ad_reference" r WHERE ${where}`), sql.values, proj.items);
  if (!rows.length) throw notFound('Invalid reference id', `No match found for AD_Reference_ID: ${ref.id}`);
  return serializeRecord(rc.dict, table, rows[0]!, { columns: proj.output });
}

/** A list reference: its record plus reflist, the active values (translated) ordered by name, or by value when the reference says so. */
async function listReference(rc: ReadContext, ref: ReferenceRow): Promise<JsonObject> {
  const record = await referenceRecord(rc, ref);
  // Names in the caller's language where a translation exists (AD_Ref_List_Trl), else as stored.
  const { rows } = await rc.q.query<{ value: string; name: string }>(
    `SELECT l.value, COALESCE(t.name, l.name) AS name FROM ad_ref_list l
       LEFT JOIN ad_ref_list_trl t ON t.ad_ref_list_id = l.ad_ref_list_id AND t.ad_language = $2 AND t.isactive = 'Y'
      WHERE l.ad_reference_id = $1 AND l.isactive = 'Y' ORDER BY ${ref.orderByValue ? '1, 2' : '2, 1'}`,
    [ref.id, rc.auth.language],
  );
  record.reflist = rows.map((v) => ({ value: v.value, name: v.name }));
  return record;
}

/** A table reference's configuration (AD_Ref_Table) with its table, key and display column names. */
interface RefTable {
  tableName: string;
  keyColumn: string;
  displayColumn: string | null;
  whereClause: string | null;
  orderByClause: string | null;
  isValueDisplayed: boolean;
}

async function refTableOf(rc: ReadContext, id: number): Promise<RefTable | null> {
  // AD_Key and AD_Display hold column ids (compared as text, so that any stored form matches).
  const { rows } = await rc.q.query<Record<string, string | null>>(
    `SELECT t.tablename, k.columnname AS keycolumn, d.columnname AS displaycolumn, rt.whereclause, rt.orderbyclause, rt.isvaluedisplayed
       FROM ad_ref_table rt JOIN ad_table t ON t.ad_table_id = rt.ad_table_id
       JOIN ad_column k ON k.ad_column_id::text = trim(rt.ad_key::text)
       LEFT JOIN ad_column d ON d.ad_column_id::text = trim(rt.ad_display::text)
      WHERE rt.ad_reference_id = $1`,
    [id],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    tableName: String(r.tablename),
    keyColumn: String(r.keycolumn),
    displayColumn: r.displaycolumn ?? null,
    whereClause: r.whereclause || null,
    orderByClause: r.orderbyclause || null,
    isValueDisplayed: r.isvaluedisplayed === 'Y',
  };
}

/** The key, display and (if shown) Value columns of a table reference's records. */
function referenceColumns(table: Table, ref: RefTable): Column[] {
  const names = [ref.keyColumn, ref.displayColumn, ref.isValueDisplayed ? 'Value' : null];
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
async function tableReference(rc: ReadContext, refRow: ReferenceRow): Promise<JsonObject> {
  const ref = await refTableOf(rc, refRow.id);
  const table = ref ? rc.dict.byName.get(ref.tableName.toLowerCase()) : undefined;
  if (!ref || !table) throw notFound('Invalid reference table id', `No ref table match found for AD_Reference_ID: ${refRow.id}`);
  const alias = table.dbName;
  const columns = referenceColumns(table, ref);
  const proj = projection(rc.dict, table, columns.filter((c) => c !== table.keyColumn && c !== table.uuColumn).map((c) => c.name), alias);
  const sql = new SqlBuilder();
  const where = [readPredicate(rc.auth, table, alias, sql)];
  if (table.byName.has('isactive')) where.push(`${ident(alias)}."isactive" = 'Y'`);
  if (ref.whereClause) where.push(`(${bindContext(ref.whereClause, rc.auth, sql)})`);
  const display = ref.displayColumn ? table.byName.get(ref.displayColumn.toLowerCase()) : undefined;
  const order = [ref.orderByClause ? bindContext(ref.orderByClause, rc.auth, sql) : display && !display.columnSql ? `${ident(alias)}.${ident(display.dbName)}` : null, table.keyColumn ? `${ident(alias)}.${ident(table.keyColumn.dbName)}` : null].filter(Boolean);
  const text = statementText(proj, `FROM ${ident(table.dbName)} ${ident(alias)} WHERE ${where.join(' AND ')}${order.length ? ` ORDER BY ${order.join(', ')}` : ''}`);
  const rows = await queryPacked(rc.q, text, sql.values, proj.items);
  return { reftable: rows.map((row) => serializeRecord(rc.dict, table, row, { columns: proj.output })) };
}

/** The answer of GET /references/{refID}: list and table validation; data types are not served (501). */
export async function readReference(rc: ReadContext, ref: ReferenceRow): Promise<JsonObject> {
  if (ref.validationType === 'L') return listReference(rc, ref);
  if (ref.validationType === 'T') return tableReference(rc, ref);
  throw notImplemented('Unsupported reference type', `Only list and table validation references are served (as the spec says); reference ${ref.id} uses data validation`);
}
