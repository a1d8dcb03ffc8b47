import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { atLeast, constantTimeEquals, loginFailureKey, minutesToMs, sha256, tsMillis } from '../../../src/auth/util.js';
import { normalizeEmail, randomCode } from '../../../src/auth/password-reset.js';
import { selectionFromClaims } from '../../../src/auth/refresh.js';
import { claimsOf } from '../../../src/auth/service.js';

describe('authentication helpers', () => {
  it('read timestamp columns as UTC milliseconds', () => {
    assert.equal(tsMillis('2026-01-02 03:04:05'), Date.UTC(2026, 0, 2, 3, 4, 5));
    assert.equal(tsMillis('2026-01-02T03:04:05.250Z'), Date.UTC(2026, 0, 2, 3, 4, 5, 250));
    assert.equal(tsMillis(new Date(5)), 5);
    assert.equal(tsMillis(null), null);
    assert.equal(tsMillis('not a date'), null);
  });

  it('turn SysConfig minutes into milliseconds, fractions allowed, zero meaning the default', () => {
    assert.equal(minutesToMs(60, 1), 3_600_000);
    assert.equal(minutesToMs(0.05, 60), 3_000);
    assert.equal(minutesToMs(0, 60), 3_600_000);
    assert.equal(minutesToMs(-3, 2), 120_000);
    assert.equal(minutesToMs(Number.NaN, 2), 120_000);
  });

  it('compare secrets in constant time, also of different lengths', () => {
    assert.equal(constantTimeEquals('abc', 'abc'), true);
    assert.equal(constantTimeEquals('abc', 'abd'), false);
    assert.equal(constantTimeEquals('abc', 'abcd'), false);
    assert.equal(sha256('x').length, 64);
  });

  it('count failures of a user name under one key whatever its case and spaces', () => {
    assert.equal(loginFailureKey(' GardenAdmin '), 'user:gardenadmin');
  });

  it('pad an answer to a minimum time, also when it fails', async () => {
    const t0 = performance.now();
    assert.equal(await atLeast(60, async () => 7), 7);
    assert.ok(performance.now() - t0 >= 55);
    const t1 = performance.now();
    await assert.rejects(atLeast(60, async () => { throw new Error('no'); }), /no/);
    assert.ok(performance.now() - t1 >= 55);
  });

  it('make numeric reset codes of the configured length', () => {
    for (let i = 0; i < 50; i++) assert.match(randomCode(6), /^\d{6}$/);
    assert.match(randomCode(8), /^\d{8}$/);
    assert.match(randomCode(1), /^\d{4}$/);
    assert.equal(new Set(Array.from({ length: 50 }, () => randomCode(8))).size > 45, true);
    assert.equal(normalizeEmail('  Admin@GardenWorld.com '), 'admin@gardenworld.com');
  });

  it('read access-token claims back into a selection', () => {
    const sel = { clientId: 11, userId: 101, userName: 'GardenAdmin', roleId: 102, orgId: 11, warehouseId: 103, language: 'en_US', sessionId: 5 };
    const claims = claimsOf(sel);
    assert.deepEqual(claims, { AD_Client_ID: 11, AD_User_ID: 101, AD_Role_ID: 102, AD_Org_ID: 11, M_Warehouse_ID: 103, AD_Language: 'en_US', AD_Session_ID: 5 });
    assert.deepEqual(selectionFromClaims({ ...claims, sub: 'GardenAdmin' }), sel);
    assert.equal(selectionFromClaims({ AD_User_ID: 101, Clients: '11' }), null);
    assert.equal('M_Warehouse_ID' in claimsOf({ ...sel, orgId: 0 }), false);
  });
});
