import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Large bytes (upload chunks, windows of stored files, messages carrying them to the database) pass
 * through the service as buffers outside V8's heap. V8 frees spent ones only after a collection,
 * and while little else is allocated it starts a full one only when such memory has grown by about
 * 64 MB since the last: a 50 MB file moving through the service held tens of megabytes of spent
 * buffers on top of everything else. Young-generation collections were tried and freed little of
 * them (measured in docs/benchmarks.md), so after every RELEASE_BYTES of spent buffers one full
 * collection runs once the current work has yielded: 10 to 20 ms on the service's heap, about ten
 * for a 50 MB file uploaded, checked and downloaded.
 */
const RELEASE_BYTES = 16 * 1024 * 1024;

type Collect = () => void;
let collect: Collect | null | undefined;
let spent = 0;
let scheduled = false;

/** Counts `n` bytes of buffers the caller no longer holds; collects once enough have been spent. */
export function noteSpentBytes(n: number): void {
  spent += n;
  if (spent < RELEASE_BYTES || scheduled) return;
  spent = 0;
  scheduled = true;
  // At the caller's next await, so that what it still held is garbage too. Not on a later turn of
  // the event loop: on the embedded database a query resolves without one, so a whole file's
  // hash check ran before such a collection (32 MB of spent windows held, measured).
  queueMicrotask(() => {
    scheduled = false;
    collector()?.();
  });
}

/**
 * V8's collection function, without exposing `gc` to the service's globals: the flag is set for as
 * long as it takes to make one context that has it.
 */
function collector(): Collect | null {
  if (collect !== undefined) return collect;
  const given = (globalThis as { gc?: Collect }).gc;
  if (typeof given === 'function') return (collect = given);
  try {
    v8.setFlagsFromString('--expose-gc');
    const fn: unknown = vm.runInNewContext('gc');
    collect = typeof fn === 'function' ? (fn as Collect) : null;
  } catch {
    collect = null;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
  return collect;
}
