import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { tableAccessAllowed } from '../../../src/access/access.js';
import { formatDate, formatDateTime, parseTemporal } from '../../../src/records/format.js';

describe('table access by user level', () => {
  it('follows the access-level rules', () => {
    const co = ' CO';
    assert.equal(tableAccessAllowed(co, '1'), true);
    assert.equal(tableAccessAllowed(co, '2'), true);
    assert.equal(tableAccessAllowed(co, '3'), true);
    assert.equal(tableAccessAllowed(co, '4'), false);
    assert.equal(tableAccessAllowed(co, '6'), true);
    assert.equal(tableAccessAllowed(co, '7'), true);
    assert.equal(tableAccessAllowed('S  ', '4'), true);
    assert.equal(tableAccessAllowed('S  ', '3'), false);
    assert.equal(tableAccessAllowed('  O', '2'), false);
    assert.equal(tableAccessAllowed('  O', '1'), true);
  });
});

describe('temporal formats', () => {
  it('parses the accepted input forms to UTC text', () => {
    assert.equal(parseTemporal('2024-01-05'), '2024-01-05 00:00:00');
    assert.equal(parseTemporal('2024-01-05T10:00:00'), '2024-01-05 10:00:00');
    assert.equal(parseTemporal('2024-01-05 10:00:00'), '2024-01-05 10:00:00');
    assert.equal(parseTemporal('2024-01-05T10:00:00Z'), '2024-01-05 10:00:00');
    assert.equal(parseTemporal('2024-01-05T12:00:00+02:00'), '2024-01-05 10:00:00');
    assert.equal(parseTemporal('2024-02-30'), null);
    assert.equal(parseTemporal('yesterday'), null);
  });

  it('writes dates and timestamps as the spec shows', () => {
    assert.equal(formatDate('2024-01-05 00:00:00'), '2024-01-05');
    assert.equal(formatDateTime('2024-01-05 10:00:00'), '2024-01-05T10:00:00Z');
    assert.equal(formatDateTime('2024-01-05 10:00:00.123456'), '2024-01-05T10:00:00Z');
  });
});
