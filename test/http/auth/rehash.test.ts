import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { hash } from '@node-rs/argon2';
import { needsRehash } from '../../../src/auth/passwords.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { loginPair } from './auth-helpers.js';

describe('password hashes', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  const stored = async () => (await server.services.db.query<{ password: string }>(`SELECT password FROM ad_user WHERE ad_user_id = 101`)).rows[0]!.password;

  it('the demo passwords are stored with the current settings', async () => {
    assert.equal(needsRehash(await stored()), false);
  });

  it('a hash made with older settings is replaced at the next login', async () => {
    const old = await hash('GardenAdmin', { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
    assert.equal(needsRehash(old), true);
    await server.services.db.query(`UPDATE ad_user SET password = $1 WHERE ad_user_id = 101`, [old]);
    await loginPair(server);
    const now = await stored();
    assert.notEqual(now, old);
    assert.equal(needsRehash(now), false);
    await loginPair(server);
  });
});
