import type { ServerControl } from './background-server.js';

export interface PeriodicTaskOptions {
  /** Stable within the node; the server id is `<key>@<node id>`. */
  key: string;
  name: string;
  /** What a pass does, as one line for the server's log. */
  description: string;
  intervalMs: number;
  /** One pass; answers a summary for the server's log ('' when there was nothing to do). */
  pass: () => Promise<string>;
  /** What else starts and stops with the task (a webhook dispatcher's sending). */
  onStart?: () => Promise<void>;
  onStop?: () => Promise<void>;
}

/**
 * A housekeeping job of an instance that runs every `intervalMs` while started (the session cleaner,
 * upload cleaner, webhook retry timer): a server instance with state, run now and a log.
 */
export class PeriodicTask implements ServerControl {
  readonly key: string;
  readonly name: string;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #lastRun: Date | null = null;
  #nextRun: Date | null = null;
  #runs = 0;
  #failures = 0;
  /** Where a pass reports (the server's log); set when the task is registered as a server. */
  report: (summary: string, reference: string, error: boolean) => void = () => undefined;

  constructor(private readonly o: PeriodicTaskOptions) {
    this.key = o.key;
    this.name = o.name;
  }

  started(): boolean {
    return this.#timer !== null;
  }

  async start(): Promise<void> {
    if (this.#timer) return;
    this.#schedule();
    await this.o.onStart?.();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#nextRun = null;
    await this.#running;
    await this.o.onStop?.();
  }

  #schedule(): void {
    this.#nextRun = new Date(Date.now() + this.o.intervalMs);
    this.#timer = setTimeout(() => {
      void this.runNow().finally(() => {
        if (this.#timer !== null) this.#schedule();
      });
    }, this.o.intervalMs);
    this.#timer.unref();
  }

  /** One pass now; a pass already under way is waited for rather than doubled. */
  async runNow(): Promise<void> {
    if (this.#running) return this.#running;
    this.#running = (async () => {
      this.#lastRun = new Date();
      this.#runs++;
      try {
        const summary = await this.o.pass();
        if (summary) this.report(summary, '', false);
      } catch (err) {
        this.#failures++;
        this.report(`failed: ${err instanceof Error ? err.message : String(err)}`, '', true);
      }
    })().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  lastRun(): Date | null {
    return this.#lastRun;
  }

  nextRun(): Date | null {
    return this.#nextRun;
  }

  info(): string {
    return this.started() ? `${this.o.description} every ${this.o.intervalMs} ms` : 'stopped';
  }

  statistics(): string {
    return `passes: ${this.#runs}, failed: ${this.#failures}`;
  }
}
