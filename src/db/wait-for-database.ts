import type { Logger } from 'pino';

/**
 * Errors of a database server that is not up yet (a container started before its database, a
 * restart): the connection is refused, the name does not resolve yet, or the server says it is
 * starting. Anything else (a wrong password, a missing database) fails at once.
 */
const NOT_UP_YET = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', '57P03']);

export function isNotUpYet(e: unknown): boolean {
  const codes: unknown[] = [];
  for (let x = e as { code?: unknown; errors?: unknown[]; cause?: unknown } | undefined, depth = 0; x && depth < 4; x = x.cause as typeof x, depth++) {
    codes.push(x.code);
    // Node reports a refused connection to each address of a name as an AggregateError.
    for (const inner of x.errors ?? []) codes.push((inner as { code?: unknown }).code);
  }
  if (codes.some((c) => typeof c === 'string' && NOT_UP_YET.has(c))) return true;
  return e instanceof Error && /Connection terminated unexpectedly|the database system is starting up/.test(e.message);
}

export interface WaitOptions {
  /** How long to keep trying, in milliseconds (0: try once). */
  waitMs: number;
  log?: Pick<Logger, 'warn'>;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/**
 * Runs `open` until it succeeds, retrying while the database is not up yet, for at most `waitMs`:
 * waits of 0.5 s doubling to 5 s, one log line each. The last error is thrown when time is up.
 */
export async function untilDatabaseIsUp<T>(open: () => Promise<T>, o: WaitOptions): Promise<T> {
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = o.now ?? Date.now;
  const deadline = now() + o.waitMs;
  let delay = 500;
  for (let attempt = 1; ; attempt++) {
    try {
      return await open();
    } catch (e) {
      const left = deadline - now();
      if (!isNotUpYet(e) || left <= 0) throw e;
      const wait = Math.min(delay, left);
      const code = (e as { code?: string }).code ?? (e as Error).message;
      o.log?.warn({ attempt, code, retryInMs: wait, giveUpInMs: left }, `the database is not reachable yet (${code}); retrying in ${(wait / 1000).toFixed(1)} s`);
      await sleep(wait);
      delay = Math.min(delay * 2, 5_000);
    }
  }
}
