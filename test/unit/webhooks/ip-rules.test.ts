import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { clientAddress, inList, isInternal, parseIpList } from '../../../src/webhooks/ip-rules.js';
import { WEBHOOK_RETRY_DELAYS_MS, webhookRetry } from '../../../src/queue/retry.js';

describe('webhook address rules', () => {
  it('match addresses against IPs and CIDRs of both families, IPv4-mapped included', () => {
    const { list, invalid } = parseIpList('10.0.0.0/8, 192.168.1.5, 2001:db8::/32, nonsense!');
    assert.deepEqual(invalid, ['nonsense!']);
    assert.equal(inList('10.2.3.4', list), true);
    assert.equal(inList('::ffff:10.2.3.4', list), true);
    assert.equal(inList('192.168.1.5', list), true);
    assert.equal(inList('192.168.1.6', list), false);
    assert.equal(inList('2001:db8::1', list), true);
    assert.equal(inList('2001:db9::1', list), false);
  });

  it('call loopback, link-local and private addresses internal', () => {
    for (const a of ['127.0.0.1', '::1', '169.254.169.254', '10.1.1.1', '172.16.0.1', '192.168.0.1', 'fd00::1', 'fe80::1', '0.0.0.0', '::ffff:127.0.0.1']) assert.equal(isInternal(a), true, a);
    for (const a of ['8.8.8.8', '2606:4700::1111']) assert.equal(isInternal(a), false, a);
  });

  it('read X-Forwarded-For right to left only behind a trusted proxy', () => {
    const trusted = parseIpList('10.0.0.0/8').list;
    assert.equal(clientAddress('10.0.0.2', '1.1.1.1, 2.2.2.2, 10.0.0.9', trusted), '2.2.2.2');
    assert.equal(clientAddress('3.3.3.3', '1.1.1.1', trusted), '3.3.3.3');
    assert.equal(clientAddress('10.0.0.2', '1.1.1.1', []), '10.0.0.2');
    assert.equal(clientAddress('::ffff:10.0.0.2', '5.5.5.5', trusted), '5.5.5.5');
  });

  it('retry after the spec schedule, each delay within 15 percent, and give up after the tenth attempt', () => {
    assert.deepEqual(WEBHOOK_RETRY_DELAYS_MS.map((d) => d / 1000), [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
    for (let i = 1; i <= 9; i++) {
      const base = WEBHOOK_RETRY_DELAYS_MS[i - 1]!;
      assert.equal(webhookRetry(i, () => 0), Math.round(base * 0.85));
      assert.equal(webhookRetry(i, () => 1), Math.round(base * 1.15));
      assert.equal(webhookRetry(i, () => 0.5), base);
    }
    assert.equal(webhookRetry(10, () => 0.5), null);
  });
});
