import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { attemptSignal } from '../../../src/webhooks/attempt-signal.js';

/** The sizes of the collections a signal keeps under symbol keys (its listeners, and on Node 20 the signals that depend on it). */
function heldCollections(signal: AbortSignal): number[] {
  const own = signal as unknown as Record<symbol, unknown>;
  return Object.getOwnPropertySymbols(signal)
    .map((k) => own[k])
    .filter((v): v is { size: number } => typeof v === 'object' && v !== null && typeof (v as { size?: unknown }).size === 'number')
    .map((v) => v.size);
}

describe('attemptSignal', () => {
  it('aborts when the time runs out, as a timeout', async () => {
    const stop = new AbortController();
    const a = attemptSignal(20, stop.signal);
    assert.equal(a.signal.aborted, false);
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(a.signal.aborted, true);
    assert.equal(a.timedOut(), true);
    assert.equal((a.signal.reason as Error).name, 'TimeoutError');
    assert.equal(stop.signal.aborted, false);
    a.release();
  });

  it('aborts when the dispatcher stops, with its reason, and is no timeout', () => {
    const stop = new AbortController();
    const a = attemptSignal(60_000, stop.signal);
    const reason = new Error('the instance is stopping');
    stop.abort(reason);
    assert.equal(a.signal.aborted, true);
    assert.equal(a.signal.reason, reason);
    assert.equal(a.timedOut(), false);
    a.release();
  });

  it('is aborted at once when the dispatcher has stopped already', () => {
    const stop = new AbortController();
    stop.abort(new Error('stopped'));
    const a = attemptSignal(60_000, stop.signal);
    assert.equal(a.signal.aborted, true);
    assert.equal((a.signal.reason as Error).message, 'stopped');
    a.release();
  });

  it('works without a dispatcher signal', () => {
    const a = attemptSignal(60_000);
    assert.equal(a.signal.aborted, false);
    a.release();
    assert.equal(a.signal.aborted, false);
  });

  it('a released attempt no longer times out', async () => {
    const a = attemptSignal(20);
    a.release();
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(a.signal.aborted, false);
    assert.equal(a.timedOut(), false);
  });

  it('leaves nothing on the long-lived signal once released: it holds no more after 5,000 attempts than after none', () => {
    const stop = new AbortController();
    const before = heldCollections(stop.signal);
    for (let i = 0; i < 5000; i++) {
      const a = attemptSignal(60_000, stop.signal);
      assert.equal(getEventListeners(stop.signal, 'abort').length, 1);
      a.release();
    }
    assert.equal(getEventListeners(stop.signal, 'abort').length, 0);
    assert.deepEqual(heldCollections(stop.signal), before);
    assert.ok(heldCollections(stop.signal).every((n) => n === 0));
  });
});
