/** The signal of one delivery attempt, and what ends it. */
export interface AttemptSignal {
  readonly signal: AbortSignal;
  /** Whether the attempt's time ran out (rather than `stop` aborting it). */
  timedOut(): boolean;
  /** Clears the timer and unhooks the attempt from `stop`: called once the attempt is over. */
  release(): void;
}

/**
 * A signal that aborts when `timeoutMs` pass or when `stop` aborts. `stop` is the dispatcher's
 * signal, which lives as long as the dispatcher: the attempt hooks onto it with an `abort`
 * listener that `release` takes off again. `AbortSignal.any([timeout, stop])` is not used for this:
 * on Node 20 each call leaves an entry in the long-lived signal's set of dependants that is never
 * taken out, so that set grew by one entry per delivery for as long as the instance ran.
 */
export function attemptSignal(timeoutMs: number, stop?: AbortSignal): AttemptSignal {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`The attempt timed out after ${timeoutMs} ms`, 'TimeoutError'));
  }, timeoutMs);
  timer.unref();
  const onStop = (): void => controller.abort(stop?.reason);
  if (stop?.aborted) onStop();
  else stop?.addEventListener('abort', onStop, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    release: () => {
      clearTimeout(timer);
      stop?.removeEventListener('abort', onStop);
    },
  };
}
