import type { Logger } from 'pino';
import type { Queryable } from '../db/types.js';

export interface NodeEntry {
  id: string;
  hostName: string;
  port: number;
  /** Where the node answers HTTP (requests for its logs are forwarded there). */
  url: string;
  startedAt: Date;
  heartbeatAt: Date;
}

export interface NodeRegistryOptions {
  db: Queryable;
  log: Logger;
  id: string;
  hostName: string;
  /** How often this node renews its heartbeat. */
  heartbeatMs: number;
  /** A node whose heartbeat is older than this is gone. */
  windowMs: number;
}

interface NodeRow {
  id: string;
  host_name: string;
  port: number;
  url: string;
  started_at: Date;
  heartbeat_at: Date;
}

const entry = (r: NodeRow): NodeEntry => ({ id: r.id, hostName: r.host_name, port: Number(r.port), url: r.url, startedAt: new Date(r.started_at), heartbeatAt: new Date(r.heartbeat_at) });

/**
 * Every instance registers itself here and renews its heartbeat; the live nodes are those whose
 * heartbeat is within the window. Heartbeats use the database's clock, so instances on machines
 * whose clocks differ still agree on who is alive.
 */
export class NodeRegistry {
  readonly #o: NodeRegistryOptions;
  #port = 0;
  #url = '';
  #timer: NodeJS.Timeout | null = null;
  #beating: Promise<void> | null = null;
  readonly startedAt = new Date();

  constructor(o: NodeRegistryOptions) {
    this.#o = o;
  }

  get id(): string {
    return this.#o.id;
  }

  get self(): NodeEntry {
    return { id: this.#o.id, hostName: this.#o.hostName, port: this.#port, url: this.#url, startedAt: this.startedAt, heartbeatAt: new Date() };
  }

  /** Registers this node once it serves at `url` and starts its heartbeat. */
  async start(port: number, url: string): Promise<void> {
    const o = this.#o;
    this.#port = port;
    this.#url = url;
    await o.db.query(
      `INSERT INTO dictum.node (id, host_name, port, url, started_at, heartbeat_at) VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (id) DO UPDATE SET host_name = EXCLUDED.host_name, port = EXCLUDED.port, url = EXCLUDED.url, started_at = EXCLUDED.started_at, heartbeat_at = now()`,
      [o.id, o.hostName, this.#port, this.#url, this.startedAt],
    );
    this.#timer = setInterval(() => {
      if (this.#beating) return;
      this.#beating = this.#beat()
        .catch((e: unknown) => o.log.warn({ err: e }, 'node heartbeat failed'))
        .finally(() => {
          this.#beating = null;
        });
    }, o.heartbeatMs);
    this.#timer.unref();
  }

  /** Renews this node's heartbeat (it registers again if it was dropped) and drops nodes gone silent. */
  async #beat(): Promise<void> {
    const o = this.#o;
    const { rowCount } = await o.db.query('UPDATE dictum.node SET heartbeat_at = now() WHERE id = $1', [o.id]);
    if (rowCount === 0) await this.#register();
    await o.db.query(`DELETE FROM dictum.node WHERE heartbeat_at < now() - make_interval(secs => $1)`, [o.windowMs / 1000]);
  }

  async #register(): Promise<void> {
    const o = this.#o;
    await o.db.query(
      `INSERT INTO dictum.node (id, host_name, port, url, started_at, heartbeat_at) VALUES ($1, $2, $3, $4, $5, now()) ON CONFLICT (id) DO NOTHING`,
      [o.id, o.hostName, this.#port, this.#url, this.startedAt],
    );
  }

  /** The live nodes, oldest first. */
  async list(): Promise<NodeEntry[]> {
    const { rows } = await this.#o.db.query<NodeRow>(
      `SELECT id, host_name, port, url, started_at, heartbeat_at FROM dictum.node WHERE heartbeat_at >= now() - make_interval(secs => $1) ORDER BY started_at, id`,
      [this.#o.windowMs / 1000],
    );
    return rows.map(entry);
  }

  async find(id: string): Promise<NodeEntry | null> {
    return (await this.list()).find((n) => n.id === id) ?? null;
  }

  /** Leaves the registry: a node that stops in order is gone at once, not after the window. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#beating;
    await this.#o.db.query('DELETE FROM dictum.node WHERE id = $1', [this.#o.id]).catch((e: unknown) => this.#o.log.warn({ err: e }, 'node deregistration failed'));
  }
}
