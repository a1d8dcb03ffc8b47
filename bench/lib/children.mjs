// Child processes of the benchmark (wrk, pgbench), ended when the benchmark is interrupted.
import { spawn } from 'node:child_process';

const children = new Set();

export function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export function killChildren(signal = 'SIGTERM') {
  for (const c of children) c.kill(signal);
}

/**
 * Runs a load tool to its end and resolves with its standard output; a non-zero exit rejects with
 * `describeFailure(code, stderr, stdout)`. The tool is killed when it outlives `timeoutMs`.
 */
export function runTool(command, args, { cwd, env, timeoutMs, describeFailure }) {
  return new Promise((resolve, reject) => {
    const child = track(spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: env ? { ...process.env, ...env } : process.env }));
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(describeFailure(code, err, out)));
      else resolve(out);
    });
  });
}
