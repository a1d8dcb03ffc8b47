import type { NodeEntry } from '../nodes/node-registry.js';
import { BackgroundServer, type ServerControl } from './background-server.js';
import { PeriodicTask } from './periodic-task.js';

/** The background services of this instance, each a server instance of the spec. */
export class ServerRegistry {
  readonly #servers = new Map<string, BackgroundServer>();

  add(control: ServerControl): BackgroundServer {
    const server = new BackgroundServer(control);
    if (control instanceof PeriodicTask) control.report = (summary, reference, error) => server.log(summary, reference, error);
    this.#servers.set(control.key, server);
    return server;
  }

  all(): BackgroundServer[] {
    return [...this.#servers.values()];
  }

  byKey(key: string): BackgroundServer | null {
    return this.#servers.get(key) ?? null;
  }
}

/** Server id `<key>@<node id>`: the node part says which instance answers for it. */
export function parseServerId(id: string): { key: string; nodeId: string } | null {
  const at = id.indexOf('@');
  if (at <= 0 || at === id.length - 1) return null;
  return { key: id.slice(0, at), nodeId: id.slice(at + 1) };
}

export function serverEntry(server: BackgroundServer, node: NodeEntry): Record<string, unknown> {
  const c = server.control;
  return { id: `${c.key}@${node.id}`, name: c.name, nodeId: node.id, hostName: node.hostName, port: node.port, started: c.started() };
}

/** GET /servers/{id} for a service: the times appear only when there is one, as the original leaves them out. */
export function serverDetail(server: BackgroundServer, node: NodeEntry): Record<string, unknown> {
  const c = server.control;
  const last = c.lastRun();
  const next = c.started() ? c.nextRun() : null;
  const out = serverEntry(server, node);
  if (last) out.lastRun = last.toISOString();
  out.info = c.info();
  if (next) out.nextRun = next.toISOString();
  out.statistics = c.statistics();
  // Background services wait between passes: a started one is sleeping unless called to run.
  out.sleeping = c.started();
  out.interruptd = !c.started();
  return out;
}
