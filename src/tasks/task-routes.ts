import { execFile } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';
import { requireSystemAdministrator } from '../nodes/admin-access.js';
import { slugify as processSlug } from '../dictionary/slug.js';
import type { Services } from '../services.js';
import { splitCommand } from './command-line.js';

interface TaskRow {
  ad_task_id: number;
  ad_task_uu: string | null;
  name: string;
  description: string | null;
  help: string | null;
  os_command: string;
}

const OUTPUT_LIMIT = 1024 * 1024;

const taskJson = (t: TaskRow) => ({ id: Number(t.ad_task_id), uid: t.ad_task_uu, slug: processSlug(t.name), name: t.name, description: t.description, help: t.help, os_command: t.os_command });

async function activeTasks(s: Services): Promise<TaskRow[]> {
  const { rows } = await s.db.query<TaskRow>(`SELECT ad_task_id, ad_task_uu, name, description, help, os_command FROM ad_task WHERE isactive = 'Y' ORDER BY name, ad_task_id`);
  return rows;
}

async function taskBySlug(s: Services, slug: string): Promise<TaskRow> {
  const t = (await activeTasks(s)).find((x) => processSlug(x.name) === slug || String(x.ad_task_id) === slug);
  if (!t) throw new ApiError(404, 'Invalid task name', `No active task is named ${slug}`);
  return t;
}

interface RunOutcome {
  isError: boolean;
  exitCode: number | null;
  summary: string;
  output: string;
}

/** Runs the task's own command without a shell; the request adds nothing to it. */
function runCommand(command: string, timeoutMs: number): Promise<RunOutcome> {
  const words = splitCommand(command);
  if (!words) return Promise.resolve({ isError: true, exitCode: null, summary: 'The task has no valid command', output: '' });
  return new Promise((resolve) => {
    execFile(words.file, words.args, { shell: false, timeout: timeoutMs, maxBuffer: OUTPUT_LIMIT, windowsHide: true }, (err, stdout, stderr) => {
      const output = `${stdout}${stderr}`;
      if (!err) return resolve({ isError: false, exitCode: 0, summary: 'Finished', output });
      const e = err as NodeJS.ErrnoException & { killed?: boolean; code?: string | number };
      if (e.code === 'ENOENT') return resolve({ isError: true, exitCode: null, summary: `The program ${words.file} is not installed on this server`, output });
      if (e.killed) return resolve({ isError: true, exitCode: null, summary: `Stopped after ${timeoutMs} ms`, output });
      resolve({ isError: true, exitCode: typeof e.code === 'number' ? e.code : null, summary: `Exited with ${typeof e.code === 'number' ? `code ${e.code}` : e.message}`, output });
    });
  });
}

/**
 * Tasks run an operating-system command of the dictionary on this server: only the System role may
 * list or run them, and a run executes the AD_Task row's OS_Command as it stands (no shell, nothing
 * from the request), with a timeout, and is logged with its output.
 */
export async function taskRoutes(app: FastifyInstance, s: Services): Promise<void> {
  app.get('/api/v1/tasks', async (req) => {
    requireSystemAdministrator(req.auth);
    return { tasks: (await activeTasks(s)).map(taskJson) };
  });

  app.get('/api/v1/tasks/:slug', async (req) => {
    requireSystemAdministrator(req.auth);
    return taskJson(await taskBySlug(s, (req.params as { slug: string }).slug));
  });

  app.post('/api/v1/tasks/:slug', async (req) => {
    requireSystemAdministrator(req.auth);
    const task = await taskBySlug(s, (req.params as { slug: string }).slug);
    const started = Date.now();
    const outcome = await runCommand(task.os_command, s.config.taskTimeoutMs);
    s.log.info(
      { task: Number(task.ad_task_id), command: task.os_command, user: req.auth.userId, isError: outcome.isError, exitCode: outcome.exitCode, ms: Date.now() - started, output: outcome.output.slice(0, 64 * 1024) },
      `task ${task.name}: ${outcome.summary}`,
    );
    return { id: Number(task.ad_task_id), slug: processSlug(task.name), name: task.name, nodeId: s.nodes.id, ...outcome };
  });
}
