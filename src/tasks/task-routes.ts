import { execFile } from 'node:child_process';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Table } from '../dictionary/model.js';
import { ApiError, badRequest } from '../errors.js';
import { requireSystemAdministrator } from '../nodes/admin-access.js';
import { slugify as processSlug } from '../dictionary/slug.js';
import { readRecords } from '../processes/process-definition.js';
import { parseFilter } from '../records/query/filter-parser.js';
import type { FilterNode } from '../records/query/index.js';
import { whereClause } from '../records/read/where.js';
import type { JsonObject } from '../records/serialize.js';
import type { Services } from '../services.js';
import { splitCommand } from './command-line.js';
import { Type } from '@sinclair/typebox';
import { ref, listOf, Open } from '../openapi/answer-schemas.js';
import { OBJECT, documented } from '../openapi/route-schema.js';

const OUTPUT_LIMIT = 1024 * 1024;

/** The columns of a task the original shows (besides id and uid); the command itself stays out. */
const TASK_COLUMNS = new Set(['name', 'description', 'help', 'entitytype']);

interface TaskRecord {
  record: JsonObject;
  id: number;
  name: string;
  command: string;
}

const taskTable = (s: Services): Table => s.dictionary.current.byName.get('ad_task')!;

/** The active tasks matching the filter, by name, serialised as the original's task records plus their slug. */
async function activeTasks(s: Services, req: FastifyRequest, filter?: FilterNode): Promise<TaskRecord[]> {
  const dict = s.dictionary.current;
  const table = taskTable(s);
  const rc = { dict, auth: req.auth, q: s.db };
  const { rows, records } = await readRecords(
    s.db,
    dict,
    table,
    (alias, sql) => whereClause(rc, table, alias, sql, { activeOnly: true, filter }).join(' AND '),
    `"name", "ad_task_id"`,
    (c) => TASK_COLUMNS.has(c.dbName),
  );
  return records.map((record, i) => {
    const name = String(rows[i]!.name);
    return { record: { ...record, slug: processSlug(name) }, id: Number(rows[i]!.ad_task_id), name, command: String(rows[i]!.os_command ?? '') };
  });
}

async function taskBySlug(s: Services, req: FastifyRequest, slug: string): Promise<TaskRecord> {
  const t = (await activeTasks(s, req)).find((x) => processSlug(x.name) === slug || String(x.id) === slug);
  if (!t) throw new ApiError(404, 'Invalid task name', `No match found for task name: ${slug}`);
  return t;
}

/** What a run answers, as the original: the exit value and both outputs. */
interface RunOutcome {
  exitValue: number;
  stdOut: string;
  stdErr: string;
}

/** The exit value of a program that could not be started, as a shell gives it. */
const NOT_FOUND_EXIT = 127;
/** The exit value of a program stopped by a signal (SIGTERM at the time limit): 128 plus the signal. */
const SIGNAL_EXIT: Record<string, number> = { SIGTERM: 143, SIGKILL: 137, SIGINT: 130 };

/** Runs the task's own command without a shell; the request adds nothing to it. */
function runCommand(command: string, timeoutMs: number): Promise<RunOutcome & { note: string }> {
  const words = splitCommand(command);
  if (!words) return Promise.resolve({ exitValue: NOT_FOUND_EXIT, stdOut: '', stdErr: 'The task has no valid command', note: 'no valid command' });
  return new Promise((resolve) => {
    execFile(words.file, words.args, { shell: false, timeout: timeoutMs, maxBuffer: OUTPUT_LIMIT, windowsHide: true }, (err, stdout, stderr) => {
      const out = { stdOut: String(stdout), stdErr: String(stderr) };
      if (!err) return resolve({ exitValue: 0, ...out, note: 'finished' });
      const e = err as NodeJS.ErrnoException & { killed?: boolean; signal?: string | null; code?: string | number };
      if (e.code === 'ENOENT') return resolve({ exitValue: NOT_FOUND_EXIT, stdOut: out.stdOut, stdErr: `${out.stdErr}The program ${words.file} is not installed on this server`, note: 'not installed' });
      if (e.killed || e.signal) {
        const stopped = e.killed ? `Stopped after ${timeoutMs} ms` : `Stopped by ${e.signal}`;
        return resolve({ exitValue: SIGNAL_EXIT[e.signal ?? 'SIGTERM'] ?? 128, stdOut: out.stdOut, stdErr: `${out.stdErr}${out.stdErr && !out.stdErr.endsWith('\n') ? '\n' : ''}${stopped}`, note: stopped });
      }
      resolve({ exitValue: typeof e.code === 'number' ? e.code : 1, ...out, note: `exited with ${typeof e.code === 'number' ? `code ${e.code}` : e.message}` });
    });
  });
}

/**
 * Tasks run an operating-system command of the dictionary on this server: only the System role may
 * list or run them, and a run executes the AD_Task row's OS_Command as it stands (no shell, nothing
 * from the request), with a timeout, and is logged with its output.
 */
export async function taskRoutes(app: FastifyInstance, s: Services): Promise<void> {
  app.get('/api/v1/tasks', { schema: { summary: 'Operating system tasks the role may run', answer: listOf('tasks', ref('SlugRow')), example: { tasks: [{ id: 100, Name: 'Backup', slug: 'backup' }] } }, config: { queryParameters: ['$filter', 'locale'] } }, async (req) => {
    requireSystemAdministrator(req.auth);
    const text = (req.query as { $filter?: unknown }).$filter;
    if (Array.isArray(text)) throw badRequest('Invalid query', '$filter is given more than once');
    const filter = typeof text === 'string' && text.trim() ? parseFilter(text) : undefined;
    return { tasks: (await activeTasks(s, req, filter)).map((t) => t.record) };
  });

  app.get('/api/v1/tasks/:slug', { schema: { summary: 'A task', answer: ref('SlugRow'), example: { id: 100, Name: 'Backup', slug: 'backup' } } }, async (req) => {
    requireSystemAdministrator(req.auth);
    return (await taskBySlug(s, req, (req.params as { slug: string }).slug)).record;
  });

  app.post('/api/v1/tasks/:slug', { schema: { summary: 'Run a task', body: documented(OBJECT), answer: Open({ exitValue: Type.Integer(), stdOut: Type.String(), stdErr: Type.String() }), example: {} } }, async (req) => {
    requireSystemAdministrator(req.auth);
    const task = await taskBySlug(s, req, (req.params as { slug: string }).slug);
    const started = Date.now();
    const { note, ...outcome } = await runCommand(task.command, s.config.taskTimeoutMs);
    s.log.info(
      { task: task.id, command: task.command, user: req.auth.userId, exitValue: outcome.exitValue, ms: Date.now() - started, stdOut: outcome.stdOut.slice(0, 64 * 1024), stdErr: outcome.stdErr.slice(0, 64 * 1024) },
      `task ${task.name}: ${note}`,
    );
    return outcome;
  });
}
