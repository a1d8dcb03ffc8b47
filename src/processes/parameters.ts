import { DisplayType } from '../dictionary/display-type.js';
import { ApiError } from '../errors.js';
import { parseTemporal } from '../records/format.js';
import type { ParamDef } from './process-definition.js';

/** A FileName parameter: a path on the server, or content sent in the request. */
export type FileInput = { path: string } | { content: Buffer; fileName: string };

export type ParamScalar = string | number | boolean | number[] | string[] | FileInput;

export interface ParamValue {
  def: ParamDef;
  value: ParamScalar | null;
  /** The upper end of a range parameter (`<Column>_To`). */
  to: ParamScalar | null;
}

export type ReportType = 'HTML' | 'CSV' | 'XLS' | 'XLSX' | 'PDF';
export type NotificationType = 'E' | 'N' | 'B';

/** A run request: parameter values by column name, and the special body parameters. */
export interface RunRequest {
  params: Map<string, ParamValue>;
  reportType: ReportType | null;
  isSummary: boolean;
  printFormatId: number | null;
  recordId: number | null;
  tableId: number | null;
  modelName: string | null;
  notificationType: NotificationType | null;
}

const invalid = (detail: string): ApiError => new ApiError(400, 'Invalid parameter', detail);
const REPORT_TYPES: readonly ReportType[] = ['HTML', 'CSV', 'XLS', 'XLSX', 'PDF'];
const MULTI_SELECT = new Set<number>([DisplayType.ChosenMultipleSelectionList, DisplayType.ChosenMultipleSelectionTable, DisplayType.ChosenMultipleSelectionSearch]);

const describe = (v: unknown): string => {
  const t = JSON.stringify(v) ?? String(v);
  return t.length > 40 ? `${t.slice(0, 40)}…` : t;
};

function positiveInt(v: unknown, what: string): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d{1,15}\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < 0) throw invalid(`${what} must be a record id: ${describe(v)}`);
  return n;
}

function flag(v: unknown, what: string): boolean {
  if (v === true || v === 'Y' || v === 'y' || v === 'true') return true;
  if (v === false || v === 'N' || v === 'n' || v === 'false' || v === null || v === undefined || v === '') return false;
  throw invalid(`${what} must be true or false: ${describe(v)}`);
}

/** Converts one body value to the parameter's type; 400 naming the parameter otherwise. */
export function convertParam(def: ParamDef, raw: unknown): ParamScalar | null {
  if (raw === null || raw === undefined || raw === '') return null;
  const bad = (why: string) => invalid(`${why} for parameter ${def.columnName}: ${describe(raw)}`);
  if (def.referenceId === DisplayType.FileName) {
    if (typeof raw === 'string') return { path: raw };
    if (typeof raw === 'object' && !Array.isArray(raw)) {
      const o = raw as Record<string, unknown>;
      if (typeof o.fileContent !== 'string' || !/^[A-Za-z0-9+/=\s_-]*$/.test(o.fileContent)) throw bad('Expected fileContent in base64');
      const fileName = typeof o.fileName === 'string' && o.fileName.trim() ? o.fileName.trim() : 'upload';
      return { content: Buffer.from(o.fileContent, 'base64'), fileName };
    }
    throw bad('Expected a file path or {fileContent, fileName}');
  }
  if (MULTI_SELECT.has(def.referenceId)) {
    const items = Array.isArray(raw) ? raw : String(raw).split(',');
    const parts = items.map((x) => String(x).trim()).filter((x) => x !== '');
    if (def.referenceId === DisplayType.ChosenMultipleSelectionList) return parts;
    if (!parts.every((p) => /^\d{1,15}$/.test(p))) throw bad('Expected record ids');
    return parts.map(Number);
  }
  switch (def.kind) {
    case 'boolean':
      if (raw === true || raw === 'Y' || raw === 'true') return true;
      if (raw === false || raw === 'N' || raw === 'false') return false;
      throw bad('Expected true or false');
    case 'integer':
    case 'foreign-key':
    case 'record-id': {
      const v = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>).id : raw;
      if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
      if (typeof v === 'string' && /^-?\d{1,15}$/.test(v.trim())) return Number(v.trim());
      throw bad(def.kind === 'integer' ? 'Expected an integer' : 'Expected a record id');
    }
    case 'number':
      if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
      if (typeof raw === 'string' && /^-?\d+(\.\d+)?$/.test(raw.trim())) return Number(raw.trim());
      throw bad('Expected a number');
    case 'date':
    case 'datetime':
    case 'timestamptz': {
      const t = typeof raw === 'string' ? parseTemporal(raw) : null;
      if (!t) throw bad('Expected a date');
      return def.kind === 'date' ? t.slice(0, 10) : t;
    }
    case 'list':
    case 'button': {
      const v = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>).id : raw;
      if (typeof v !== 'string' && typeof v !== 'number') throw bad('Expected a list value');
      return String(v);
    }
    default:
      if (typeof raw === 'string') return raw;
      if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
      throw bad('Expected text');
  }
}

/** A parameter's default (AD_Process_Para.DefaultValue): literal values and the login date `@#Date@`. */
export function defaultOf(def: ParamDef, text: string | null, today: string): ParamScalar | null {
  if (text === null || text.trim() === '') return null;
  const t = text.trim();
  if (/^@#Date@$/i.test(t)) return def.kind === 'date' ? today : `${today} 00:00:00`;
  if (t.includes('@') || /^SQL=/i.test(t)) return null; // context values and SQL defaults are not evaluated here
  const literal = t.replace(/^'(.*)'$/, '$1');
  try {
    return convertParam(def, literal);
  } catch {
    return null;
  }
}

/** The value of a body member named like a column, in any case. */
function member(body: Record<string, unknown>, name: string): { found: boolean; value: unknown } {
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(body)) if (k.toLowerCase() === lower) return { found: true, value: v };
  return { found: false, value: undefined };
}

/**
 * Parses the body of a process run: parameters by column name (any case), the upper end of a
 * range as `<Column>_To`, and the special members (report-type, is-summary, print-format-id,
 * record-id, table-id, model-name, notification-type). Members that name nothing are ignored,
 * as the original does. Pure: the runner resolves tables, files and records.
 */
export function parseRunBody(defs: readonly ParamDef[], body: unknown, today: string): RunRequest {
  if (body !== null && body !== undefined && (typeof body !== 'object' || Array.isArray(body))) throw new ApiError(400, 'Invalid parameter', 'The body must be a JSON object of parameters');
  const b = (body ?? {}) as Record<string, unknown>;
  const params = new Map<string, ParamValue>();
  for (const def of defs) {
    const from = member(b, def.columnName);
    const upper = member(b, `${def.columnName}_To`);
    const value = from.found ? convertParam(def, from.value) : defaultOf(def, def.defaultValue, today);
    const to = def.isRange ? (upper.found ? convertParam(def, upper.value) : from.found ? null : defaultOf(def, def.defaultValue2, today)) : null;
    if (value === null && def.isMandatory) throw invalid(`Parameter ${def.columnName} is mandatory`);
    if (value === null && to === null) continue;
    params.set(def.columnName, { def, value, to });
  }
  const reportTypeRaw = member(b, 'report-type').value;
  let reportType: ReportType | null = null;
  if (reportTypeRaw !== undefined && reportTypeRaw !== null && reportTypeRaw !== '') {
    const t = String(reportTypeRaw).trim().toUpperCase() as ReportType;
    if (!REPORT_TYPES.includes(t)) throw invalid(`report-type must be one of HTML, CSV, XLS, XLSX, PDF: ${describe(reportTypeRaw)}`);
    reportType = t;
  }
  const notificationRaw = member(b, 'notification-type').value;
  let notificationType: NotificationType | null = null;
  if (notificationRaw !== undefined && notificationRaw !== null && notificationRaw !== '') {
    const t = String(notificationRaw).trim().toUpperCase();
    if (t !== 'E' && t !== 'N' && t !== 'B') throw invalid(`notification-type must be E, N or B: ${describe(notificationRaw)}`);
    notificationType = t;
  }
  const opt = (name: string): number | null => {
    const m = member(b, name);
    return m.found && m.value !== null && m.value !== '' ? positiveInt(m.value, name) : null;
  };
  const modelName = member(b, 'model-name').value;
  if (modelName !== undefined && modelName !== null && typeof modelName !== 'string') throw invalid('model-name must be a table name');
  return {
    params,
    reportType,
    isSummary: flag(member(b, 'is-summary').value, 'is-summary'),
    printFormatId: opt('print-format-id'),
    recordId: opt('record-id'),
    tableId: opt('table-id'),
    modelName: typeof modelName === 'string' && modelName.trim() ? modelName.trim() : null,
    notificationType,
  };
}
