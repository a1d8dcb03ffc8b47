import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatUptime, redactedDatabaseUrl } from '../../../src/nodes/node-detail.js';

describe('node detail figures', () => {
  it('shows a database URL without its password or options', () => {
    assert.equal(redactedDatabaseUrl('postgres://dictum:s3cret@db.example:5432/erp?sslpassword=x', '/d'), 'postgres://dictum@db.example:5432/erp');
    assert.equal(redactedDatabaseUrl(null, '/var/dictum'), 'pglite:/var/dictum');
    assert.equal(redactedDatabaseUrl('postgres://u:p@[bad/x', '/d'), 'postgresql://');
  });
  it('formats uptime as days and clock time', () => {
    assert.equal(formatUptime(3_723_000), '01:02:03');
    assert.equal(formatUptime(90_061_000), '1d 01:01:01');
  });
});
