import { assertTableAccess } from '../../access/access.js';
import { ident, SqlBuilder } from '../../db/sql.js';
import { ApiError, badRequest, forbidden, notFound } from '../../errors.js';
import type { Table } from '../../dictionary/model.js';
import { serializeRecord, columnValue, type JsonObject } from '../serialize.js';
import { expandRecords, expandTexts, type DetailTexts, type SqlCommands } from './expand.js';
import { keyIndex, parentKeys, textWriterOf, writeRecordTexts } from './records-text.js';
import { recordText } from '../record-text.js';
import { addAssignedLabels } from './labels.js';
import { projection, statementText, type Projection } from './projection.js';
import type { ReadContext } from './read-context.js';
import type { ReadOptions } from './read-options.js';
import { findValRule, valRuleSql } from './valrule-sql.js';
import { orderClause, whereClause } from './where.js';
import { runNamed } from './statements.js';
import { estimatedCount } from '../query/count-preference.js';
import { queryPacked, queryPackedValues, rowsOfValues } from './packed-row.js';
import { VERSION, versionExpr } from '../versions/row-version.js';

type Row = Record<string, unknown>;

/** Records written as JSON text: the pieces of `record,record,…` (no brackets) and how many records. */
export interface RecordTexts {
  pieces: string[];
  count: number;
}

export interface ListResult {
  /** The records as objects, or, when `json` is set, empty. */
  records: JsonObject[];
  /** The records as JSON text, for reads that need no objects (see textWriterOf). */
  json?: RecordTexts;
  rowCount: number;
  /** Whether rowCount was counted (or told by the page) or is the planner's estimate. */
  rowCountKind: 'exact' | 'estimated';
  sql: SqlCommands;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The total a page tells by itself: a page that is not full is the last one, so the matches are
 * the rows skipped plus the rows it holds (unless it is empty past the end, where the skip says
 * nothing). Null when a count is needed.
 */
export function countFromPage(rows: number, top: number, skip: number): number | null {
  if (rows >= top) return null;
  if (rows === 0 && skip > 0) return null;
  return skip + rows;
}

/**
 * A condition that narrows a read to part of a table (a window tab's records, the details of one
 * record), rendered against the read's builder and alias.
 */
export type ReadScope = (sql: SqlBuilder, alias: string) => string;

/** A page of records matching the options, with the total count (counted only when the page cannot tell it). */
export async function listRecords(rc: ReadContext, table: Table, o: ReadOptions, scope?: ReadScope): Promise<ListResult> {
  assertTableAccess(rc.auth, table);
  const alias = table.dbName;
  const proj = projection(rc.dict, table, o.select, alias);
  const output = proj.output;
  const sql = new SqlBuilder();
  const conditions = [o.valrule ? valRuleSql(findValRule(rc.dict, o.valrule), o.context, rc.auth, sql) : '', scope ? scope(sql, alias) : ''].filter(Boolean);
  const extra = conditions.length ? conditions.join(' AND ') : undefined;
  const where = whereClause(rc, table, alias, sql, { activeOnly: true, filter: o.filter, label: o.label, extra }).join(' AND ');
  const from = `FROM ${ident(table.dbName)} ${ident(alias)} WHERE ${where}`;
  const countText = `SELECT count(*) AS n ${from}`;
  const countValues = [...sql.values];
  const order = orderClause(table, alias, o.orderby);
  const pageText = statementText(proj, `${from} ORDER BY ${order} LIMIT ${sql.param(o.top)} OFFSET ${sql.param(o.skip)}`);
  const commands: SqlCommands = new Map([['sql-command', pageText]]);
  const exact = async (): Promise<{ rowCount: number; rowCountKind: 'exact' }> => ({
    rowCount: Number((await runNamed<{ n: number }>(rc.q, countText, countValues)).rows[0]!.n),
    rowCountKind: 'exact',
  });
  const total = async (seen: number): Promise<{ rowCount: number; rowCountKind: 'exact' | 'estimated' }> => {
    if (o.count?.mode !== 'estimated') return exact();
    const estimate = estimatedCount(await plannedRows(rc, from, countValues), o.count.estimateAbove, seen);
    return estimate === null ? exact() : { rowCount: estimate, rowCountKind: 'estimated' };
  };
  if (o.showSql === 'nodata') return { records: [], ...(await total(0)), sql: commands };
  const count = async (rows: number) => {
    const told = countFromPage(rows, o.top, o.skip);
    return told === null ? total(o.skip + rows) : { rowCount: told, rowCountKind: 'exact' as const };
  };
  const values = await queryPackedValues(rc.q, pageText, sql.values, proj.items);
  const writer = textWriterOf(rc, table, proj, o);
  if (writer && !o.expand?.length) {
    // Written before the count is awaited: a waiting request then holds strings, not the page's values.
    const pieces = writeRecordTexts(writer, values, -1, null);
    return { records: [], json: { pieces, count: values.length }, ...(await count(values.length)), sql: commands };
  }
  const counted = await count(values.length);
  if (writer) {
    const keyAt = keyIndex(table, proj);
    const details = await expandTexts(rc, table, parentKeys(values, keyAt), o.expand!, commands);
    if (details) return { records: [], json: { pieces: writeRecordTexts(writer, values, keyAt, details), count: values.length }, ...counted, sql: commands };
  }
  const page = rowsOfValues(proj.items, values);
  const records = page.map((r) => serializeRecord(rc.dict, table, r, { columns: output }));
  if (o.expand?.length) await expandRecords(rc, table, page, records, o.expand, commands);
  if (o.showLabel) await addAssignedLabels(rc, table, records, o.showLabel);
  return { records, ...counted, sql: commands };
}

/** The planner's estimate of the rows a FROM/WHERE tail matches (EXPLAIN plans it; nothing runs). */
async function plannedRows(rc: ReadContext, from: string, values: unknown[]): Promise<number> {
  const { rows } = await rc.q.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) SELECT 1 ${from}`, values);
  const raw = rows[0]?.['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan?: { 'Plan Rows'?: number } }[];
  return Number(plan[0]?.Plan?.['Plan Rows'] ?? NaN);
}

/** The key condition for an id or UUID given in a path. */
export function keyCondition(table: Table, idText: string, alias: string, sql: SqlBuilder): string {
  if (/^\d{1,15}$/.test(idText) && table.keyColumn) return `${ident(alias)}.${ident(table.keyColumn.dbName)} = ${sql.param(Number(idText))}`;
  if (UUID.test(idText) && table.uuColumn) return `${ident(alias)}.${ident(table.uuColumn.dbName)} = ${sql.param(idText.toLowerCase())}`;
  throw new ApiError(400, 'Request Error', `Wrong ID ${idText} is not an UU value nor a valid integer ID`);
}

/** Tells apart "no such record" (404) from "not yours" (403) after an access-filtered miss. */
async function missing(rc: ReadContext, table: Table, idText: string, scope?: ReadScope): Promise<never> {
  const sql = new SqlBuilder();
  const alias = table.dbName;
  const cond = [keyCondition(table, idText, alias, sql), ...(scope ? [scope(sql, alias)] : [])].join(' AND ');
  const { rows } = await rc.q.query(`SELECT 1 FROM ${ident(table.dbName)} ${ident(alias)} WHERE ${cond}`, sql.values);
  if (rows.length) throw forbidden('Access denied', `Access denied for record with id: ${idText}`);
  throw notFound('Record not found', `No record found matching id: ${idText}`);
}

export interface SingleResult {
  record: JsonObject;
  row: Row;
  sql: SqlCommands;
  /** The row's version (see row-version.ts); null for a view's. */
  version: string | null;
}

/**
 * The statement of a read of one record by id or UUID, access rules applied: the packed row and,
 * after it, the row's version.
 */
function singleRead(rc: ReadContext, table: Table, idText: string, select: string[] | undefined, scope?: ReadScope): { proj: Projection; text: string; values: unknown[] } {
  assertTableAccess(rc.auth, table);
  const alias = table.dbName;
  const proj = projection(rc.dict, table, select, alias);
  const sql = new SqlBuilder();
  const cond = keyCondition(table, idText, alias, sql);
  const where = [cond, ...whereClause(rc, table, alias, sql, { activeOnly: false }), ...(scope ? [scope(sql, alias)] : [])].join(' AND ');
  const version = versionExpr(table, alias);
  const tail = `${version ? `, ${version} AS "${VERSION}" ` : ''}FROM ${ident(table.dbName)} ${ident(alias)} WHERE ${where}`;
  return { proj, text: statementText(proj, tail), values: sql.values };
}

/**
 * One record by id or UUID as its JSON text, written straight from its row with the texts of its
 * details; null when the read must build objects (see textWriterOf): then use getRecord.
 */
export async function getRecordJson(rc: ReadContext, table: Table, idText: string, o: Pick<ReadOptions, 'select' | 'expand' | 'showLabel'>): Promise<{ json: string; sql: SqlCommands; version: string | null } | null> {
  const { proj, text, values } = singleRead(rc, table, idText, o.select);
  const writer = textWriterOf(rc, table, proj, o);
  if (!writer) return null;
  const versions: (string | null)[] = [];
  const rows = await queryPackedValues(rc.q, text, values, proj.items, { name: VERSION, out: versions });
  if (!rows.length) return missing(rc, table, idText);
  const commands: SqlCommands = new Map([['sql-command', text]]);
  let details: DetailTexts | null = null;
  const keyAt = keyIndex(table, proj);
  if (o.expand?.length) {
    details = await expandTexts(rc, table, parentKeys(rows, keyAt), o.expand, commands);
    if (!details) return null;
  }
  return { json: details ? writeRecordTexts(writer, rows, keyAt, details).join('') : recordText(writer, rows[0]!), sql: commands, version: versions[0] ?? null };
}

/** One record by id or UUID (active or not), with $select, $expand, showsql and showlabel. */
export async function getRecord(rc: ReadContext, table: Table, idText: string, o: Pick<ReadOptions, 'select' | 'expand' | 'showLabel' | 'showSql'>, scope?: ReadScope): Promise<SingleResult> {
  const { proj, text, values } = singleRead(rc, table, idText, o.select, scope);
  const commands: SqlCommands = new Map([['sql-command', text]]);
  const versions: (string | null)[] = [];
  const rows = await queryPacked(rc.q, text, values, proj.items, { name: VERSION, out: versions });
  if (!rows.length) return missing(rc, table, idText, scope);
  const record = serializeRecord(rc.dict, table, rows[0]!, { columns: proj.output });
  if (o.expand?.length) await expandRecords(rc, table, rows, [record], o.expand, commands);
  if (o.showLabel) await addAssignedLabels(rc, table, [record], o.showLabel);
  return { record, row: rows[0]!, sql: commands, version: versions[0] ?? null };
}

/** {id, uid, <column>, model-name} for one column of one record. */
export async function getRecordProperty(rc: ReadContext, table: Table, idText: string, property: string): Promise<JsonObject> {
  const col = table.byName.get(property.toLowerCase());
  if (!col || col.isSecure || col.isEncrypted) throw notFound('Invalid property name', `${property} is not a column of ${table.name}`);
  const { record, row } = await getRecord(rc, table, idText, { select: col === table.keyColumn || col === table.uuColumn ? [] : [col.name], showSql: false });
  const out: JsonObject = {};
  if (record.id !== undefined) out.id = record.id;
  if (record.uid !== undefined) out.uid = record.uid;
  const v = columnValue(rc.dict, col, row);
  out[col.name] = v === undefined ? null : v;
  out['model-name'] = table.modelName;
  return out;
}

export function assertNotEmptySelect(select: string[] | undefined): void {
  if (select && select.length === 0) throw badRequest('Invalid $select', 'No column selected');
}
