import type { RetryPolicy } from '../queue/retry.js';

/** How one request of an attempt ended. */
export interface SendOutcome {
  status: number | null;
  body: string;
  error: string | null;
}

/** The state a delivery leaves In Progress for, and when it is tried again. */
export interface AttemptResult {
  status: 'S' | 'P' | 'A';
  nextAttemptAt: Date | null;
  ok: boolean;
  gone: boolean;
}

/**
 * The spec's transitions out of In Progress: 2xx → Success; 410 Gone → Abandoned; another failure
 * → Pending with the schedule's next time while attempts remain, else Abandoned.
 */
export function attemptResult(o: SendOutcome, attempts: number, maxRetries: number, retry: RetryPolicy, random: () => number, now: Date): AttemptResult {
  const ok = o.status !== null && o.status >= 200 && o.status < 300;
  const gone = o.status === 410;
  if (ok) return { status: 'S', nextAttemptAt: null, ok, gone };
  if (gone) return { status: 'A', nextAttemptAt: null, ok, gone };
  const delay = attempts < maxRetries ? retry(attempts, random) : null;
  if (delay === null) return { status: 'A', nextAttemptAt: null, ok, gone };
  return { status: 'P', nextAttemptAt: new Date(now.getTime() + delay), ok, gone };
}

/** What a batch of recorded attempts changes on one endpoint. */
export interface EndpointTotals {
  endpointId: number;
  /** A success in the batch resets the count of consecutive failures. */
  reset: boolean;
  /** Failures after the batch's last success (all of them when none succeeded). */
  failures: number;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  /** A 410 Gone pauses the endpoint at once. */
  gone: boolean;
}

/** Sums attempts, in the order they were recorded, per endpoint. */
export function endpointTotals(results: readonly { endpointId: number; ok: boolean; gone: boolean; at: Date }[]): EndpointTotals[] {
  const by = new Map<number, EndpointTotals>();
  for (const r of results) {
    let t = by.get(r.endpointId);
    if (!t) by.set(r.endpointId, (t = { endpointId: r.endpointId, reset: false, failures: 0, lastSuccessAt: null, lastFailureAt: null, gone: false }));
    if (r.ok) {
      t.reset = true;
      t.failures = 0;
      t.lastSuccessAt = r.at;
    } else {
      t.failures++;
      t.lastFailureAt = r.at;
      t.gone ||= r.gone;
    }
  }
  return [...by.values()];
}
