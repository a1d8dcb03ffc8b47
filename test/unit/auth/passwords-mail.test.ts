import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { availableParallelism } from 'node:os';
import { hashingLoad, hashPassword, isPhc, verifyHash, verifyPassword } from '../../../src/auth/passwords.js';
import { createMailer, resetTemplate } from '../../../src/auth/mailer.js';

describe('password hashing', () => {
  it('hashes with argon2id and verifies', async () => {
    const h = await hashPassword('Tulips2026');
    assert.match(h, /^\$argon2id\$/);
    assert.equal(isPhc(h), true);
    assert.equal(await verifyPassword(h, 'Tulips2026'), true);
    assert.equal(await verifyPassword(h, 'tulips2026'), false);
  });

  it('checks clear-text legacy passwords and refuses missing ones', async () => {
    assert.equal(await verifyPassword('GardenAdmin', 'GardenAdmin'), true);
    assert.equal(await verifyPassword('GardenAdmin', 'gardenadmin'), false);
    assert.equal(await verifyPassword(null, 'anything'), false);
    assert.equal(await verifyPassword('', ''), false);
  });

  it('verifies reset codes only against a real hash', async () => {
    const h = await hashPassword('123456');
    assert.equal(await verifyHash(h, '123456'), true);
    assert.equal(await verifyHash(h, '123457'), false);
    assert.equal(await verifyHash(null, '123456'), false);
    assert.equal(await verifyHash('123456', '123456'), false);
  });

  it('runs at most one hash per CPU and queues the rest, each with its own answer', async () => {
    const h = await hashPassword('Tulips2026');
    const cpus = Math.max(1, availableParallelism());
    assert.equal(hashingLoad().limit, cpus);
    const n = cpus * 3;
    let finished = 0;
    const checks = Array.from({ length: n }, (_, i) => verifyPassword(h, i % 2 ? 'Tulips2026' : 'wrong').finally(() => finished++));
    await new Promise((r) => setImmediate(r));
    const seen = hashingLoad();
    // On a loaded machine a hash may already have finished; the limit holds whatever the count.
    assert.equal(seen.running, Math.min(cpus, n - finished), 'as many hashes run as there are CPUs');
    assert.equal(seen.running + seen.waiting + finished, n, 'every check is running, waiting or finished');
    assert.ok(seen.waiting > 0, 'the rest wait');
    assert.deepEqual(await Promise.all(checks), Array.from({ length: n }, (_, i) => i % 2 === 1));
    assert.deepEqual(hashingLoad(), { running: 0, waiting: 0, limit: cpus });
  });
});

describe('password reset mail', () => {
  it('has templates per language with a fallback', () => {
    assert.equal(resetTemplate('de_DE').language, 'de_DE');
    assert.equal(resetTemplate('de_CH').language, 'de_DE');
    assert.equal(resetTemplate('xx_XX').language, 'en_US');
    const t = resetTemplate('es_CO').template;
    assert.match(t.body('123456', 15, 'Ana'), /123456/);
    assert.match(t.body('123456', 15, 'Ana'), /15/);
  });

  it('uses the outbox without SMTP and checks the SMTP address', () => {
    const log = pino({ level: 'silent' });
    assert.equal(createMailer({}, log).kind, 'outbox');
    assert.equal(createMailer({ DICTUM_SMTP_URL: 'smtp://u:p@127.0.0.1:2525' }, log).kind, 'smtp');
    assert.throws(() => createMailer({ DICTUM_SMTP_URL: 'http://example.com' }, log), /DICTUM_SMTP_URL/);
    assert.throws(() => createMailer({ DICTUM_SMTP_URL: 'not a url' }, log), /DICTUM_SMTP_URL/);
  });
});
