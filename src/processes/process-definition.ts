import { tableAccessAllowed } from '../access/access.js';
import type { AuthContext } from '../auth/context.js';
import { ident, SqlBuilder } from '../db/sql.js';
import type { Queryable } from '../db/types.js';
import { columnKind, type ColumnKind } from '../dictionary/display-type.js';
import type { Column, Dictionary, Table } from '../dictionary/model.js';
import { forbidden, notFound } from '../errors.js';
import { projection, statementText } from '../records/read/projection.js';
import { queryPacked } from '../records/read/packed-row.js';
import type { FilterNode } from '../records/query/filter-ast.js';
import { filterToSql } from '../records/read/filter-sql.js';
import { serializeRecord, type JsonObject } from '../records/serialize.js';
import { slugify as processSlug } from '../dictionary/slug.js';

/** One parameter of a process (AD_Process_Para). */
export interface ParamDef {
  id: number;
  columnName: string;
  name: string;
  seqNo: number;
  referenceId: number;
  referenceValueId: number | null;
  kind: ColumnKind;
  isMandatory: boolean;
  isRange: boolean;
  defaultValue: string | null;
  defaultValue2: string | null;
}

/** A process as the runner needs it (AD_Process with its parameters). */
export interface ProcessDef {
  id: number;
  clientId: number;
  value: string;
  name: string;
  slug: string;
  isReport: boolean;
  classname: string | null;
  workflowId: number | null;
  /** AD_Table_ID of the workflow's table: the records a document process runs on. */
  workflowTableId: number | null;
  reportViewId: number | null;
  printFormatId: number | null;
  accessLevel: string;
  /** AllowMultipleExecution: N refuses a run while another of the same process runs. */
  allowMultiple: string;
  params: ParamDef[];
}

type Row = Record<string, unknown>;

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export function paramDefOf(r: Row): ParamDef {
  const columnName = String(r.columnname);
  return {
    id: Number(r.ad_process_para_id),
    columnName,
    name: String(r.name ?? columnName),
    seqNo: Number(r.seqno ?? 0),
    referenceId: Number(r.ad_reference_id),
    referenceValueId: num(r.ad_reference_value_id),
    kind: columnKind(Number(r.ad_reference_id), columnName),
    isMandatory: r.ismandatory === 'Y',
    isRange: r.isrange === 'Y',
    defaultValue: (r.defaultvalue as string | null) ?? null,
    defaultValue2: (r.defaultvalue2 as string | null) ?? null,
  };
}

function processDefOf(r: Row, params: ParamDef[]): ProcessDef {
  return {
    id: Number(r.ad_process_id),
    clientId: Number(r.ad_client_id),
    value: String(r.value),
    name: String(r.name),
    slug: processSlug(String(r.value)),
    isReport: r.isreport === 'Y',
    classname: (r.classname as string | null) || null,
    workflowId: num(r.ad_workflow_id),
    workflowTableId: num(r.workflow_table_id),
    reportViewId: num(r.ad_reportview_id),
    printFormatId: num(r.ad_printformat_id),
    accessLevel: String(r.accesslevel ?? '3'),
    allowMultiple: String(r.allowmultipleexecution ?? 'P'),
    params,
  };
}

/** The table a process's workflow runs on (a document process runs on records of that table). */
const WORKFLOW_TABLE = `(SELECT w.ad_table_id FROM ad_workflow w WHERE w.ad_workflow_id = p.ad_workflow_id) AS workflow_table_id`;

/**
 * The processes of the caller's client and System, with whether its role has an active access
 * row for each (it may see the process) and whether that row is read-write (it may run it).
 */
const PROCESS_ROWS = `SELECT p.*, ${WORKFLOW_TABLE},
    EXISTS (SELECT 1 FROM ad_process_access a WHERE a.ad_process_id = p.ad_process_id AND a.ad_role_id = $2 AND a.isactive = 'Y') AS has_access,
    EXISTS (SELECT 1 FROM ad_process_access a WHERE a.ad_process_id = p.ad_process_id AND a.ad_role_id = $2 AND a.isactive = 'Y' AND a.isreadwrite = 'Y') AS may_write
  FROM ad_process p WHERE p.isactive = 'Y' AND p.ad_client_id IN (0, $1)`;

/** What a caller does with a process: see it (list, definition) or run it (at once or as a job). */
export type ProcessUse = 'read' | 'run';

/**
 * Whether the role may use the process: an active AD_Process_Access row and a matching access
 * level; running it also needs the row to be read-write, as the original asks.
 */
function mayUse(auth: AuthContext, r: Row, use: ProcessUse): boolean {
  if (r.has_access !== true || !tableAccessAllowed(auth.userLevel, String(r.accesslevel ?? '3'))) return false;
  return use === 'read' || r.may_write === true;
}

async function paramsOf(q: Queryable, processId: number): Promise<ParamDef[]> {
  const { rows } = await q.query<Row>(`SELECT * FROM ad_process_para WHERE ad_process_id = $1 AND isactive = 'Y' ORDER BY seqno, ad_process_para_id`, [processId]);
  return rows.map(paramDefOf);
}

/** The process a path slug names: 404 "Invalid process name" when none, 403 "Access denied" when the role may not use it. */
export async function findProcess(q: Queryable, auth: AuthContext, slug: string, use: ProcessUse = 'run'): Promise<ProcessDef> {
  const { rows } = await q.query<Row>(PROCESS_ROWS, [auth.clientId, auth.roleId]);
  const wanted = slug.toLowerCase();
  // A client's own process wins over a System one with the same slug.
  const row = rows.filter((r) => processSlug(String(r.value)) === wanted).sort((a, b) => Number(b.ad_client_id) - Number(a.ad_client_id))[0];
  if (!row) throw notFound('Invalid process name', `No match found for process name: ${slug}`);
  if (!mayUse(auth, row, use)) throw forbidden('Access denied', `Access denied for process: ${slug}`);
  return processDefOf(row, await paramsOf(q, Number(row.ad_process_id)));
}

/** The process by its id, without an access check (background runs were checked when queued). */
export async function processById(q: Queryable, id: number): Promise<ProcessDef> {
  const { rows } = await q.query<Row>(`SELECT p.*, ${WORKFLOW_TABLE} FROM ad_process p WHERE p.ad_process_id = $1`, [id]);
  if (!rows[0]) throw notFound('Invalid process name', `No process with id ${id}`);
  return processDefOf(rows[0], await paramsOf(q, id));
}

/** Reads records of a dictionary table with the generic serializer (foreign keys as objects), keeping the named columns. */
export async function readRecords(
  q: Queryable,
  dict: Dictionary,
  table: Table,
  where: (alias: string, sql: SqlBuilder) => string,
  order: string,
  keep: (column: Column) => boolean = () => true,
): Promise<{ rows: Row[]; records: JsonObject[] }> {
  const alias = table.dbName;
  const proj = projection(dict, table, undefined, alias);
  const sql = new SqlBuilder();
  const text = statementText(proj, `FROM ${ident(table.dbName)} ${ident(alias)} WHERE ${where(alias, sql)} ORDER BY ${order}`);
  const rows = await queryPacked(q, text, sql.values, proj.items);
  const columns = proj.output.filter(keep);
  return { rows, records: rows.map((r) => serializeRecord(dict, table, r, { columns })) };
}

/** The columns of a process record, as the original shows them. */
const PROCESS_COLUMNS = new Set(['value', 'name', 'description', 'help', 'entitytype', 'isreport', 'ad_reportview_id', 'ad_printformat_id', 'ad_workflow_id', 'jasperreport']);
/** The columns of a parameter record the original leaves out. */
const HIDDEN_PARAM_COLUMNS = new Set([
  'ad_client_id', 'ad_org_id', 'ad_process_id', 'fieldlength', 'iscentrallymaintained', 'isencrypted', 'ad_element_id', 'columnname', 'isactive', 'created', 'createdby', 'updated', 'updatedby',
]);

/**
 * GET /processes: the AD_Process records the role may see, matching the filter, by search key,
 * each with its slug. Processes that open a form are left out, as the original leaves them out.
 */
export async function listProcesses(q: Queryable, dict: Dictionary, auth: AuthContext, filter: FilterNode | undefined): Promise<JsonObject[]> {
  const table = dict.byName.get('ad_process')!;
  const { rows: allowed } = await q.query<Row>(PROCESS_ROWS, [auth.clientId, auth.roleId]);
  const ids = allowed.filter((r) => (r.ad_form_id === null || r.ad_form_id === undefined) && mayUse(auth, r, 'read')).map((r) => Number(r.ad_process_id));
  const { records } = await readRecords(
    q,
    dict,
    table,
    (a, sql) => [`${ident(a)}."ad_process_id" = ANY(${sql.param(ids)}::bigint[])`, ...(filter ? [filterToSql(filter, table, a, sql, { dict })] : [])].join(' AND '),
    `"value", "ad_process_id"`,
    (c) => PROCESS_COLUMNS.has(c.dbName),
  );
  return records.map((r) => ({ ...r, slug: processSlug(String(r.Value ?? '')) }));
}

/** GET /processes/{slug}: the AD_Process record with its slug and its parameters (AD_Process_Para records with parameterName). */
export async function processJson(q: Queryable, dict: Dictionary, def: ProcessDef): Promise<JsonObject> {
  const table = dict.byName.get('ad_process')!;
  const paraTable = dict.byName.get('ad_process_para')!;
  const { records } = await readRecords(q, dict, table, (a, sql) => `${ident(a)}."ad_process_id" = ${sql.param(def.id)}`, '1', (c) => PROCESS_COLUMNS.has(c.dbName));
  const { records: params } = await readRecords(
    q,
    dict,
    paraTable,
    (a, sql) => `${ident(a)}."ad_process_id" = ${sql.param(def.id)} AND ${ident(a)}."isactive" = 'Y'`,
    `"seqno", "ad_process_para_id"`,
    (c) => !HIDDEN_PARAM_COLUMNS.has(c.dbName),
  );
  return { ...records[0]!, slug: def.slug, parameters: params.map((p, i) => ({ ...p, parameterName: def.params[i]?.columnName ?? '' })) };
}
