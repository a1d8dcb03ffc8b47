import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { webhookRetry } from '../../../src/queue/retry.js';
import { attemptResult, endpointTotals } from '../../../src/webhooks/outcome.js';

const now = new Date(Date.UTC(2026, 0, 1));
const half = () => 0.5;

describe('webhook attempt outcomes', () => {
  it('succeed on 2xx, abandon on 410, retry other failures by the schedule while attempts remain', () => {
    assert.deepEqual(attemptResult({ status: 204, body: '', error: null }, 1, 10, webhookRetry, half, now), { status: 'S', nextAttemptAt: null, ok: true, gone: false });
    assert.deepEqual(attemptResult({ status: 410, body: '', error: 'HTTP 410' }, 1, 10, webhookRetry, half, now), { status: 'A', nextAttemptAt: null, ok: false, gone: true });
    const failed = attemptResult({ status: null, body: '', error: 'ECONNREFUSED' }, 2, 10, webhookRetry, half, now);
    assert.equal(failed.status, 'P');
    assert.equal(failed.nextAttemptAt!.getTime() - now.getTime(), 300_000);
    assert.equal(attemptResult({ status: 302, body: '', error: 'x' }, 1, 10, webhookRetry, half, now).status, 'P', 'a redirect is a failure');
  });

  it('abandon when the attempts reach REST_WEBHOOK_MAX_RETRIES', () => {
    assert.equal(attemptResult({ status: 500, body: '', error: 'HTTP 500' }, 3, 3, webhookRetry, half, now).status, 'A');
    assert.equal(attemptResult({ status: 500, body: '', error: 'HTTP 500' }, 1, 1, webhookRetry, half, now).status, 'A');
    assert.equal(attemptResult({ status: 500, body: '', error: 'HTTP 500' }, 10, 99, webhookRetry, half, now).status, 'A', 'past the schedule');
  });

  it('sum a batch per endpoint: a success resets the count, only later failures add to it', () => {
    const at = (s: number) => new Date(now.getTime() + s * 1000);
    const totals = endpointTotals([
      { endpointId: 1, ok: false, gone: false, at: at(1) },
      { endpointId: 2, ok: false, gone: false, at: at(2) },
      { endpointId: 1, ok: true, gone: false, at: at(3) },
      { endpointId: 1, ok: false, gone: false, at: at(4) },
      { endpointId: 2, ok: false, gone: true, at: at(5) },
    ]);
    assert.deepEqual(totals, [
      { endpointId: 1, reset: true, failures: 1, lastSuccessAt: at(3), lastFailureAt: at(4), gone: false },
      { endpointId: 2, reset: false, failures: 2, lastSuccessAt: null, lastFailureAt: at(5), gone: true },
    ]);
  });
});
