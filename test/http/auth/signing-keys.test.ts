import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPair, SignJWT } from 'jose';
import { ALG, ISSUER, rotateSigningKey, SigningKeys, UNKNOWN_KID_RELOAD_MS } from '../../../src/auth/jwt-keys.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { eventually, sleep } from '../../helpers/wait.js';
import { watchedDb } from '../../helpers/watched-db.js';

const HOUR = 3_600_000;

async function forgedToken(): Promise<string> {
  const { privateKey } = await generateKeyPair(ALG);
  return new SignJWT({ AD_Client_ID: 11 })
    .setProtectedHeader({ alg: ALG, kid: 'made-up-kid', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(privateKey);
}

describe('signing keys shared through the database', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('a key added by another instance just after this one read the table is found when a token needs it', async () => {
    // The case needs the token verified within the reload interval of the verifier's read; on a
    // loaded machine the setup may take longer, and then it is set up again (a few times at most).
    for (let attempt = 1; ; attempt++) {
      const verifier = new SigningKeys(server.services.db, () => HOUR);
      await verifier.load();
      const readAt = Date.now();
      const kid = await rotateSigningKey(server.services.db);
      const signer = new SigningKeys(server.services.db, () => HOUR);
      await signer.load();
      assert.equal(signer.currentKid, kid);
      const token = await signer.sign({ AD_Client_ID: 11 }, Date.now() + 60_000);
      if (Date.now() - readAt >= UNKNOWN_KID_RELOAD_MS) {
        assert.ok(attempt < 5, 'the verification never came within the reload interval, the case under test');
        continue;
      }
      const payload = await verifier.verify(token);
      assert.equal(payload.AD_Client_ID, 11);
      return;
    }
  });

  it('tokens with unknown kids read the key table once per interval, however many arrive', async () => {
    const { db, reads } = watchedDb(server.services.db, 'FROM rest_signingkey');
    const verifier = new SigningKeys(db, () => HOUR);
    await verifier.load();
    const token = await forgedToken();
    for (let round = 1; round <= 2; round++) {
      const results = await Promise.allSettled(Array.from({ length: 20 }, () => verifier.verify(token)));
      for (const r of results) {
        assert.equal(r.status, 'rejected');
        assert.match(String((r as PromiseRejectedResult).reason), /unknown signing key/);
      }
      assert.equal(reads.length, 1 + round, `one read for the ${round === 1 ? 'first' : 'second'} 20 verifications`);
      assert.ok(reads[round]! - reads[round - 1]! >= UNKNOWN_KID_RELOAD_MS - 5, `reads ${reads[round]! - reads[round - 1]!} ms apart`);
    }
  });

  it('loads run one after another, so an earlier read never replaces a later one', async () => {
    const watched = watchedDb(server.services.db, 'FROM rest_signingkey');
    const keys = new SigningKeys(watched.db, () => HOUR);
    const release = watched.holdNext();
    const first = keys.load();
    await eventually(() => watched.answered() === 1, 'the first load has read the table');
    const kid = await rotateSigningKey(server.services.db);
    const second = keys.load();
    // A second load that does not wait for the first finishes meanwhile; one that waits cannot.
    await Promise.race([second, sleep(500)]);
    release();
    await Promise.all([first, second]);
    assert.equal(keys.currentKid, kid);
  });
});
