import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readPredicate } from '../access/access.js';
import type { AuthContext } from '../auth/context.js';
import { ident, SqlBuilder } from '../db/sql.js';
import type { Tx } from '../db/types.js';
import type { Table } from '../dictionary/model.js';
import { ApiError, badRequest, conflict, notFound } from '../errors.js';
import { toApiError } from '../http/errors.js';
import type { Services } from '../services.js';
import { writeArchive } from '../archives/archive-store.js';
import { DOCUMENT_PRINT_CLASS, DOCUMENT_PRINT_PROCESSES } from '../print/print-processes.js';
import type { FileInput, ParamValue, RunRequest } from './parameters.js';
import type { ProcessDef } from './process-definition.js';
import { createInstance, finishInstance, isRunning, writeLogs, type ProcessLogEntry } from './process-instance.js';

/** A file a process produced: a report or an export. */
export interface OutputFile {
  name: string;
  contentType: string;
  data: Buffer;
  /** How a report is archived when it is a printed document rather than a report (IsReport N, its partner). */
  archive?: { isReport: boolean; bpartnerId: number | null };
}

/** What an implementation receives: the caller, its transaction, the parameters and the record of a button process. */
export interface ProcessCall {
  s: Services;
  auth: AuthContext;
  tx: Tx;
  def: ProcessDef;
  request: RunRequest;
  record: { table: Table; id: number } | null;
  instanceId: number;
  /** A parameter's value (and range end) by column name. */
  param(name: string): ParamValue | undefined;
  /** The local path of a FileName parameter (content sent in the request is written to a temporary file). */
  file(name: string): { path: string; name: string } | null;
  log(entry: ProcessLogEntry): void;
  /** Reports how far the run is, from 0 to 1 (shown by GET /processes/jobs/{id}; a run that is not a job ignores it). */
  progress(fraction: number): void;
  /** Aborted when the job is cancelled: a long run may stop early (what it wrote is rolled back either way). */
  signal: AbortSignal;
}

export interface ProcessOutcome {
  summary: string;
  isError?: boolean;
  report?: OutputFile;
  export?: OutputFile;
}

export type ProcessImplementation = (call: ProcessCall) => Promise<ProcessOutcome>;

/** The spec's process result. */
export interface ProcessResult {
  AD_PInstance_ID: number;
  process: string;
  summary: string;
  isError: boolean;
  nodeId: string;
  logs: Record<string, unknown>[];
  reportFile?: string;
  reportFileName?: string;
  reportFileLength?: number;
  exportFile?: string;
  exportFileName?: string;
  exportFileLength?: number;
}

/** Implementations by class key (AD_Process.Classname); see builtins/. */
export class ProcessImplementations {
  readonly #byKey = new Map<string, ProcessImplementation>();

  register(classKey: string, impl: ProcessImplementation): void {
    this.#byKey.set(classKey, impl);
  }

  /**
   * The implementation of a process: its Classname; a document print process (Rpt C_Order...)
   * prints its record; a report with a report view and no class runs the report engine; a workflow
   * process without class (the document processes such as "C_Order Process") runs the document
   * action on its record.
   */
  find(def: ProcessDef): ProcessImplementation | null {
    if (def.classname) return this.#byKey.get(def.classname) ?? null;
    if (def.isReport && DOCUMENT_PRINT_PROCESSES.has(def.id)) return this.#byKey.get(DOCUMENT_PRINT_CLASS) ?? null;
    if (def.isReport && def.reportViewId) return this.#byKey.get(REPORT_VIEW_CLASS) ?? null;
    if (def.workflowId) return this.#byKey.get(DOCUMENT_ACTION_CLASS) ?? null;
    return null;
  }
}

export const REPORT_VIEW_CLASS = 'dictum.report.ReportViewReport';
export const DOCUMENT_ACTION_CLASS = 'dictum.process.DocumentAction';

/** Where FileName parameters given as paths must lie (a path anywhere else is refused). */
export function processFileDir(s: Services): string {
  return path.resolve(s.config.processFileDir);
}

/**
 * The record of a button process: record-id with table-id or model-name (a document process,
 * whose workflow names its table, also takes record-id alone); 400 or 404 when they do not name
 * one the caller may read.
 */
export async function resolveRecord(
  s: Services,
  q: Tx | Services['db'],
  auth: AuthContext,
  request: RunRequest,
  def?: Pick<ProcessDef, 'workflowTableId'>,
): Promise<{ table: Table; id: number } | null> {
  if (request.recordId === null) {
    if (request.tableId !== null || request.modelName !== null) throw badRequest('Invalid parameter', 'table-id and model-name need record-id');
    return null;
  }
  const dict = s.dictionary.current;
  const tableId = request.tableId ?? (request.modelName === null ? (def?.workflowTableId ?? null) : null);
  const table = request.modelName !== null ? dict.byName.get(request.modelName.toLowerCase()) : tableId !== null ? dict.byId.get(tableId) : undefined;
  if (!table || !table.keyColumn) throw badRequest('Invalid parameter', 'record-id needs table-id or model-name naming a table');
  const sql = new SqlBuilder();
  const cond = `${ident(table.keyColumn.dbName)} = ${sql.param(request.recordId)} AND ${readPredicate(auth, table, table.dbName, sql)}`;
  const { rows } = await q.query(`SELECT 1 FROM ${ident(table.dbName)} WHERE ${cond}`, sql.values);
  if (!rows.length) throw notFound('Record not found', `No ${table.name} record with id ${request.recordId}`);
  return { table, id: request.recordId };
}

/** The server file a FileName parameter names by path: inside the process file directory, and existing (400 otherwise). */
function serverFile(s: Services, given: string): string {
  const root = processFileDir(s);
  const resolved = path.resolve(root, given);
  if (resolved !== root && !resolved.startsWith(root + path.sep)) throw badRequest('Invalid parameter', `File ${given} is outside the directory of process files`);
  if (!fs.existsSync(resolved) || !fs.statSync(resolved).isFile()) throw badRequest('Invalid parameter', `File not found: ${given}`);
  return resolved;
}

const fileInputOf = (p: ParamValue): FileInput | null => {
  const v = p.value;
  return v && typeof v === 'object' && !Array.isArray(v) && ('path' in v || 'content' in v) ? v : null;
};

/** Checks the FileName parameters given as paths before a run is recorded. */
export function assertFilesExist(s: Services, request: RunRequest): void {
  for (const p of request.params.values()) {
    const v = fileInputOf(p);
    if (v && 'path' in v) serverFile(s, v.path);
  }
}

/** Files of FileName parameters as local paths; content is written to temporary files removed after the run. */
function prepareFiles(s: Services, request: RunRequest): { files: Map<string, { path: string; name: string }>; cleanup: () => void } {
  const files = new Map<string, { path: string; name: string }>();
  const temporary: string[] = [];
  for (const p of request.params.values()) {
    const v = fileInputOf(p);
    if (!v) continue;
    if ('path' in v) {
      const resolved = serverFile(s, v.path);
      files.set(p.def.columnName.toLowerCase(), { path: resolved, name: path.basename(resolved) });
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-process-'));
      const file = path.join(dir, path.basename(v.fileName) || 'upload');
      fs.writeFileSync(file, v.content);
      temporary.push(dir);
      files.set(p.def.columnName.toLowerCase(), { path: file, name: path.basename(file) });
    }
  }
  return { files, cleanup: () => temporary.forEach((d) => fs.rmSync(d, { recursive: true, force: true })) };
}

export interface RunOptions {
  s: Services;
  auth: AuthContext;
  def: ProcessDef;
  request: RunRequest;
  record: { table: Table; id: number } | null;
  impls: ProcessImplementations;
  /** The queue's control of a background run: progress and cancellation. */
  job?: { progress(fraction: number): void; signal: AbortSignal };
}

/** The signal of a run that is not a job: never aborted. */
const NEVER = new AbortController().signal;

/** Checks a run before it is recorded: its files exist (400); no second concurrent run of a process that does not allow it (409). */
export async function assertNotRunning(q: Tx | Services['db'], o: Pick<RunOptions, 's' | 'def' | 'auth' | 'record' | 'request'>): Promise<void> {
  assertFilesExist(o.s, o.request);
  if (o.def.allowMultiple !== 'N') return;
  if (await isRunning(q, o.def.id, o.auth.clientId, o.record?.id ?? null)) throw conflict('Process already running', `${o.def.name} is already running`);
}

/** Records the run's AD_PInstance (before it starts, so that it shows as running). */
export function startInstance(tx: Tx | Services['db'], o: Pick<RunOptions, 'def' | 'auth' | 'request' | 'record'>, runAsJob: boolean): Promise<number> {
  return createInstance(tx, { def: o.def, auth: o.auth, request: o.request, record: o.record ? { tableId: o.record.table.id, recordId: o.record.id } : null, runAsJob });
}

/**
 * Runs the implementation in a savepoint of `tx` (a failing process leaves nothing behind but its
 * instance record), then records logs and outcome, and archives a report. Returns the result.
 */
export async function executeInstance(tx: Tx, o: RunOptions, instanceId: number): Promise<ProcessResult> {
  const impl = o.impls.find(o.def);
  const logs: ProcessLogEntry[] = [];
  let outcome: ProcessOutcome;
  if (!impl) {
    outcome = { summary: `The process ${o.def.name} has no implementation on this server`, isError: true };
  } else {
    let prepared: ReturnType<typeof prepareFiles> | null = null;
    try {
      prepared = prepareFiles(o.s, o.request);
      const files = prepared.files;
      outcome = await tx.savepoint((sp) =>
        impl({
          s: o.s,
          auth: o.auth,
          tx: sp,
          def: o.def,
          request: o.request,
          record: o.record,
          instanceId,
          param: (name) => o.request.params.get(o.def.params.find((p) => p.columnName.toLowerCase() === name.toLowerCase())?.columnName ?? name),
          file: (name) => files.get(name.toLowerCase()) ?? null,
          log: (e) => logs.push(e),
          progress: (fraction) => o.job?.progress(fraction),
          signal: o.job?.signal ?? NEVER,
        }).then((r) => {
          // An implementation that reports an error keeps nothing of what it wrote.
          if (r.isError) throw new FailedOutcome(r);
          return r;
        }),
      );
    } catch (e) {
      if (e instanceof FailedOutcome) outcome = e.outcome;
      else {
        const api = e instanceof ApiError ? e : toApiError(e);
        outcome = { summary: api.status >= 500 ? 'The process failed: internal error' : api.detail || api.title, isError: true };
        if (api.status >= 500) o.s.log.error({ err: e, process: o.def.value }, 'process failed');
      }
    } finally {
      prepared?.cleanup();
    }
  }
  await writeLogs(tx, instanceId, o.auth, logs);
  const data: Record<string, unknown> = { summary: outcome.summary, isError: outcome.isError === true };
  if (outcome.report) {
    data[isPdf(outcome.report) ? 'reportFileName' : 'exportFileName'] = outcome.report.name;
    data.archiveId = await writeArchive(tx, o.auth, {
      name: outcome.report.name,
      contentType: outcome.report.contentType,
      data: outcome.report.data,
      isReport: outcome.report.archive?.isReport ?? true,
      processId: o.def.id,
      bpartnerId: outcome.report.archive?.bpartnerId ?? null,
      // A report belongs to its run: it is read back under /models/ad_pinstance/{id}/archives.
      tableId: o.record ? o.record.table.id : PINSTANCE_TABLE_ID,
      recordId: o.record ? o.record.id : instanceId,
    });
  }
  if (outcome.export) data.exportFileName = outcome.export.name;
  await finishInstance(tx, instanceId, outcome.isError === true, outcome.summary, data);
  return resultOf(o.s, o.def, instanceId, outcome, logs);
}

/** The node that ran a process: this instance's id in the node registry (GET /nodes), as the original gives its cluster member's id. */
export const nodeIdOf = (s: Services): string => s.nodes.id;

/** AD_Table_ID of AD_PInstance. */
export const PINSTANCE_TABLE_ID = 282;

const isPdf = (f: OutputFile): boolean => f.contentType === 'application/pdf';

class FailedOutcome extends Error {
  constructor(readonly outcome: ProcessOutcome) {
    super(outcome.summary);
  }
}

/** One file of the result, under the original's names (reportFile or exportFile, with its name and length). */
function fileMembers(kind: 'report' | 'export', f: OutputFile | undefined): Partial<ProcessResult> {
  if (!f) return {};
  return { [`${kind}File`]: f.data.toString('base64'), [`${kind}FileName`]: f.name, [`${kind}FileLength`]: f.data.length };
}

/** The process result, its members in the original's order. */
function resultOf(s: Services, def: ProcessDef, instanceId: number, outcome: ProcessOutcome, logs: ProcessLogEntry[]): ProcessResult {
  // As the original's report engine: a PDF report is the report file, a report in another format
  // (HTML, CSV, XLS, XLSX) the export file.
  const reportFile = outcome.report && isPdf(outcome.report) ? outcome.report : undefined;
  const exportFile = outcome.export ?? (outcome.report && !isPdf(outcome.report) ? outcome.report : undefined);
  return {
    AD_PInstance_ID: instanceId,
    process: def.slug,
    summary: outcome.summary,
    isError: outcome.isError === true,
    ...fileMembers('report', reportFile),
    ...fileMembers('export', exportFile),
    nodeId: nodeIdOf(s),
    logs: logs.map((l) => {
      const e: Record<string, unknown> = {};
      if (l.date !== undefined) e.date = l.date;
      if (l.number !== undefined) e.number = l.number;
      if (l.msg !== undefined) e.msg = l.msg;
      if (l.tableId !== undefined) e.tableId = l.tableId;
      if (l.recordId !== undefined) e.recordId = l.recordId;
      return e;
    }),
  };
}

/** A synchronous run outside any caller transaction: the instance is committed first, then the work in a transaction of its own. */
export async function runProcess(o: RunOptions): Promise<ProcessResult> {
  await assertNotRunning(o.s.db, o);
  const instanceId = await o.s.db.tx((tx) => startInstance(tx, o, false));
  return o.s.db.tx((tx) => executeInstance(tx, o, instanceId));
}

/** A run inside a caller's transaction (a batch with transaction=true). */
export async function runProcessIn(tx: Tx, o: RunOptions): Promise<ProcessResult> {
  await assertNotRunning(tx, o);
  const instanceId = await startInstance(tx, o, false);
  return executeInstance(tx, o, instanceId);
}
