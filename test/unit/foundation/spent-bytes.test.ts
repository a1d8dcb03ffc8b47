import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { noteSpentBytes } from '../../../src/db/spent-bytes.js';
import { pieceStream } from '../../../src/http/byte-stream.js';

const MB = 1024 * 1024;

/** Full collections that happen while `work` runs and in the 100 ms after. */
async function fullCollections(work: () => void): Promise<number> {
  let count = 0;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if ((e as unknown as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) count++;
  });
  observer.observe({ entryTypes: ['gc'] });
  work();
  await sleep(100);
  observer.disconnect();
  return count;
}

describe('spent large buffers', () => {
  it('start a full collection once 16 MB are spent, after the current work has yielded', async () => {
    const big = await fullCollections(() => {
      for (let i = 0; i < 17; i++) noteSpentBytes(MB);
    });
    assert.ok(big >= 1, `one full collection, ${big} seen`);
  });

  it('collect within work that awaits only promises, as reads on the embedded database do', async () => {
    // Such a loop never lets the event loop turn: a collection left for a later turn would come after it.
    const starts: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if ((e as unknown as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) starts.push(e.startTime);
    });
    observer.observe({ entryTypes: ['gc'] });
    for (let i = 0; i < 17; i++) {
      noteSpentBytes(MB);
      await Promise.resolve();
    }
    const loopEnd = performance.now();
    await sleep(100);
    observer.disconnect();
    assert.ok(starts.some((t) => t < loopEnd), `a full collection before the loop ended; collections at ${starts.join(', ')}, loop ended at ${loopEnd}`);
  });

  it('do not collect on every buffer', async () => {
    const small = await fullCollections(() => noteSpentBytes(MB));
    assert.equal(small, 0);
  });
});

describe('a stream of large pieces', () => {
  it('reads one piece ahead and gives every piece in order', async () => {
    async function* pieces() {
      for (let i = 0; i < 5; i++) yield Buffer.alloc(MB, i);
    }
    const s = pieceStream(pieces());
    assert.equal(s.readableHighWaterMark, 1);
    const got: number[] = [];
    for await (const p of s) got.push((p as Buffer)[0]!, (p as Buffer).length);
    assert.deepEqual(got, [0, MB, 1, MB, 2, MB, 3, MB, 4, MB]);
  });
});
