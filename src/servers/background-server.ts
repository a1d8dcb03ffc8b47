/** One entry of a server's log, as GET /servers/{id}/logs shows it (empty texts are left out, as the original does). */
export interface ServerLogEntry {
  created: string;
  summary?: string;
  reference?: string;
  error: boolean;
}

/** What a background service of an instance offers to the server endpoints. */
export interface ServerControl {
  /** Stable within the node; the server id is `<key>@<node id>`. */
  key: string;
  name: string;
  started(): boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Does one pass now. */
  runNow(): Promise<void>;
  lastRun(): Date | null;
  nextRun(): Date | null;
  info(): string;
  statistics(): string;
}

const KEPT_ENTRIES = 100;

/** A background service with its recent log (the last hundred entries, in memory). */
export class BackgroundServer {
  readonly #log: ServerLogEntry[] = [];
  constructor(readonly control: ServerControl) {}

  log(summary: string, reference = '', error = false): void {
    this.#log.push({ created: new Date().toISOString(), ...(summary ? { summary } : {}), ...(reference ? { reference } : {}), error });
    if (this.#log.length > KEPT_ENTRIES) this.#log.shift();
  }

  logs(): ServerLogEntry[] {
    return [...this.#log].reverse();
  }
}
