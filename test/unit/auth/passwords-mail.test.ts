import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { hashPassword, isPhc, verifyHash, verifyPassword } from '../../../src/auth/passwords.js';
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
