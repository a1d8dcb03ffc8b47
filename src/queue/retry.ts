/** When a failed item runs again: a delay in milliseconds after the given failed attempt (1-based), or null to give up. */
export type RetryPolicy = (failedAttempt: number, random: () => number) => number | null;

/** No retry: the first failure is final. */
export const noRetry: RetryPolicy = () => null;

/**
 * Retries after the given delays (the first entry after the first failure), each spread by
 * plus or minus `jitter` (a fraction) so that many items failing together do not return together.
 */
export function scheduleRetry(delaysMs: readonly number[], jitter = 0): RetryPolicy {
  return (failedAttempt, random) => {
    const base = delaysMs[failedAttempt - 1];
    if (base === undefined) return null;
    const spread = base * jitter * (random() * 2 - 1);
    return Math.max(0, Math.round(base + spread));
  };
}

const s = 1000;
const min = 60 * s;
const h = 60 * min;

/**
 * Delivery schedule of outbound webhooks (spec, Events rule 8): the first try is immediate, then
 * retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h, each randomized by 15 percent.
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [5 * s, 5 * min, 30 * min, 2 * h, 5 * h, 10 * h, 14 * h, 20 * h, 24 * h];
export const webhookRetry: RetryPolicy = scheduleRetry(WEBHOOK_RETRY_DELAYS_MS, 0.15);
