/**
 * What the loader of `npm start` (scripts/bundle-loader.mjs) and the service tell each other,
 * through two global symbols since the loader is not part of the bundle: the loader says whether
 * V8 took the bundle's code cache, the service says when it serves (the loader then writes a
 * cache if it had none). Run any other way (tests, `node dist/src/main.js`), neither is set.
 */
const SERVING = Symbol.for('dictum.start.onServing');
const CODE_CACHE = Symbol.for('dictum.start.codeCache');

type Signals = { [SERVING]?: () => void; [CODE_CACHE]?: string };
const signals = globalThis as Signals;

/** 'accepted', 'rejected' or 'absent' when started through the loader; undefined otherwise. */
export const codeCacheOutcome = (): string | undefined => signals[CODE_CACHE];

/** Tells the loader, if any, that the service serves (once). */
export function signalServing(): void {
  const onServing = signals[SERVING];
  delete signals[SERVING];
  onServing?.();
}
