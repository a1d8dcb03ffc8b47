/**
 * What the loader of `npm start` (scripts/bundle-loader.mjs) and the service tell each other: the
 * loader says whether V8 took the bundle's code cache, the service says when it serves (the loader
 * then writes a cache if it had none). The loader runs this module from dist/src and the bundle
 * holds its own copy, so the two meet through global symbols. Run any other way (tests, `node
 * dist/src/main.js`), neither is set.
 */
const SERVING = Symbol.for('dictum.start.onServing');
const CODE_CACHE = Symbol.for('dictum.start.codeCache');

export type CodeCacheOutcome = 'accepted' | 'rejected' | 'absent';

type Signals = { [SERVING]?: () => void; [CODE_CACHE]?: CodeCacheOutcome };
const signals = globalThis as Signals;

/** The loader: what became of the code cache, and what to run once the service serves (if anything). */
export function reportCodeCache(outcome: CodeCacheOutcome, onServing?: () => void): void {
  signals[CODE_CACHE] = outcome;
  if (onServing) signals[SERVING] = onServing;
}

/** What the loader reported; undefined when the service was not started through it. */
export const codeCacheOutcome = (): CodeCacheOutcome | undefined => signals[CODE_CACHE];

/** Tells the loader, if any, that the service serves (once). */
export function signalServing(): void {
  const onServing = signals[SERVING];
  delete signals[SERVING];
  onServing?.();
}
