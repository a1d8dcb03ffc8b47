import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { noRetry, scheduleRetry, webhookRetry, WEBHOOK_RETRY_DELAYS_MS } from '../../../src/queue/retry.js';

describe('retry policies', () => {
  it('follow their schedule and give up after its last entry', () => {
    const p = scheduleRetry([1000, 5000]);
    assert.equal(p(1, Math.random), 1000);
    assert.equal(p(2, Math.random), 5000);
    assert.equal(p(3, Math.random), null);
    assert.equal(noRetry(1, Math.random), null);
  });

  it('spread each webhook delay by at most 15 percent either way', () => {
    assert.deepEqual(
      WEBHOOK_RETRY_DELAYS_MS.map((d) => d / 1000),
      [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400],
    );
    assert.equal(webhookRetry(1, () => 0), 4250);
    assert.equal(webhookRetry(1, () => 1), 5750);
    assert.equal(webhookRetry(2, () => 0.5), 300_000);
    assert.equal(webhookRetry(10, () => 0.5), null, 'ten attempts in all');
  });
});
