import type { AuthContext } from '../auth/context.js';
import { readPredicate } from '../access/access.js';
import { SqlBuilder } from '../db/sql.js';
import type { Queryable } from '../db/types.js';
import type { Dictionary, Table } from '../dictionary/model.js';
import { forbidden, notFound } from '../errors.js';
import { slugify } from '../dictionary/slug.js';

type Row = Record<string, unknown>;

/** One column of an info window, as the query needs it. */
export interface InfoColumnDef {
  id: number;
  name: string;
  columnName: string;
  selectClause: string;
  referenceId: number;
  referenceValueId: number | null;
  isDisplayed: boolean;
  isKey: boolean;
  isRange: boolean;
  queryOperator: string | null;
  queryFunction: string | null;
}

export interface InfoWindowDef {
  id: number;
  name: string;
  slug: string;
  table: Table;
  fromClause: string;
  whereClause: string | null;
  orderByClause: string | null;
  isDistinct: boolean;
  columns: InfoColumnDef[];
}

const str = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));

export function infoColumnDef(r: Row): InfoColumnDef {
  return {
    id: Number(r.ad_infocolumn_id),
    name: String(r.name ?? r.columnname),
    columnName: String(r.columnname),
    selectClause: String(r.selectclause ?? ''),
    referenceId: Number(r.ad_reference_id ?? 10),
    referenceValueId: r.ad_reference_value_id === null || r.ad_reference_value_id === undefined ? null : Number(r.ad_reference_value_id),
    isDisplayed: r.isdisplayed === 'Y',
    isKey: r.iskey === 'Y',
    isRange: r.isrange === 'Y',
    queryOperator: str(r.queryoperator),
    queryFunction: str(r.queryfunction),
  };
}

/** The definition of a window row and its columns (active ones, in SeqNo order). */
export function infoWindowDef(dict: Dictionary, w: Row, columns: Row[]): InfoWindowDef {
  const table = dict.byId.get(Number(w.ad_table_id));
  if (!table) throw notFound('Invalid info window name', `The info window ${String(w.name)} names no known table`);
  return {
    id: Number(w.ad_infowindow_id),
    name: String(w.name),
    slug: slugify(String(w.name)),
    table,
    fromClause: String(w.fromclause ?? ''),
    whereClause: str(w.whereclause),
    orderByClause: str(w.orderbyclause),
    isDistinct: w.isdistinct === 'Y',
    columns: columns.map(infoColumnDef),
  };
}

/** The active info windows of the caller's client (and System) as rows, for the list and for lookups by slug. */
export async function infoWindowRows(q: Queryable, dict: Dictionary, auth: AuthContext, extra?: (sql: SqlBuilder) => string): Promise<Row[]> {
  const t = dict.byName.get('ad_infowindow')!;
  const sql = new SqlBuilder();
  const where = [`w."isactive" = 'Y'`, readPredicate(auth, t, 'w', sql)];
  if (extra) where.push(extra(sql));
  const { rows } = await q.query<Row>(`SELECT w.* FROM "ad_infowindow" w WHERE ${where.join(' AND ')} ORDER BY w."name", w."ad_infowindow_id"`, sql.values);
  return rows;
}

/** Whether the role has an active access row for the window. */
export function infoAccessSql(auth: AuthContext, sql: SqlBuilder, alias = 'w'): string {
  return `EXISTS (SELECT 1 FROM "ad_infowindow_access" a WHERE a."ad_infowindow_id" = ${alias}."ad_infowindow_id" AND a."ad_role_id" = ${sql.param(auth.roleId)} AND a."isactive" = 'Y')`;
}

/** The window a path names by slug: 404 when none matches, 403 when the role has no access to it. */
export async function findInfoWindow(q: Queryable, dict: Dictionary, auth: AuthContext, slug: string): Promise<InfoWindowDef> {
  const window = (await infoWindowRows(q, dict, auth)).find((w) => slugify(String(w.name)) === slug);
  if (!window) throw notFound('Invalid info window name', `No match found for info window name: ${slug}`);
  const sql = new SqlBuilder();
  const access = await q.query(`SELECT 1 FROM "ad_infowindow" w WHERE w."ad_infowindow_id" = ${sql.param(Number(window.ad_infowindow_id))} AND ${infoAccessSql(auth, sql)}`, sql.values);
  if (!access.rows.length) throw forbidden('Access denied', `Access denied for info window: ${slug}`);
  const { rows: columns } = await q.query<Row>(
    `SELECT * FROM "ad_infocolumn" c WHERE c."ad_infowindow_id" = $1 AND c."isactive" = 'Y' ORDER BY c."seqno", c."ad_infocolumn_id"`,
    [Number(window.ad_infowindow_id)],
  );
  return infoWindowDef(dict, window, columns);
}
