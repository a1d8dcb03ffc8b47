// Child processes of the benchmark (wrk, pgbench), ended when the benchmark is interrupted.
const children = new Set();

export function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export function killChildren(signal = 'SIGTERM') {
  for (const c of children) c.kill(signal);
}
