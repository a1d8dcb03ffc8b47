import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { generateSecret, secretKey, signatureHeader, signEntry, verifySignature } from '../../../src/webhooks/signature.js';

/**
 * The Standard Webhooks signing vector that every reference library of the specification tests
 * against (secret, message id, timestamp, body and the signature they give), and signatures that
 * must be refused for it: its last character changed, a fragment, an empty one.
 */
const OFFICIAL = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  payload: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const REFUSED = ['v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OA=', 'v1,dawfeoifkpqwoekfpqoekf', 'v1,'];

describe('webhook signatures', () => {
  it('match the official Standard Webhooks vector', () => {
    const x = OFFICIAL;
    assert.equal(signEntry(x.secret, x.id, x.timestamp, x.payload), x.signature);
    assert.equal(verifySignature(x.secret, { id: x.id, timestamp: String(x.timestamp), signature: x.signature }, x.payload, x.timestamp), null);
    for (const signature of REFUSED) {
      assert.notEqual(verifySignature(x.secret, { id: x.id, timestamp: String(x.timestamp), signature }, x.payload, x.timestamp), null, signature);
    }
  });

  it('reject a stale or future timestamp and missing headers', () => {
    const secret = generateSecret();
    const sig = signEntry(secret, 'msg_1', 1000, 'x');
    assert.equal(verifySignature(secret, { id: 'msg_1', timestamp: '1000', signature: sig }, 'x', 1301), 'timestamp-out-of-range');
    assert.equal(verifySignature(secret, { id: 'msg_1', timestamp: '1000', signature: sig }, 'x', 699), 'timestamp-out-of-range');
    assert.equal(verifySignature(secret, { id: 'msg_1', timestamp: '1000', signature: sig }, 'x', 1300), null);
    assert.equal(verifySignature(secret, { id: undefined, timestamp: '1000', signature: sig }, 'x', 1000), 'missing-headers');
    assert.equal(verifySignature(secret, { id: 'msg_1', timestamp: '1000', signature: sig }, 'y', 1000), 'no-match');
  });

  it('accept any listed v1 signature and ignore other versions', () => {
    const a = generateSecret();
    const b = generateSecret();
    const header = `v1a,AAAA ${signatureHeader([b, a], 'msg_2', 50, '{}')}`;
    assert.equal(verifySignature(a, { id: 'msg_2', timestamp: '50', signature: header }, '{}', 50), null);
    assert.equal(verifySignature(b, { id: 'msg_2', timestamp: '50', signature: header }, '{}', 50), null);
    assert.equal(verifySignature(generateSecret(), { id: 'msg_2', timestamp: '50', signature: header }, '{}', 50), 'no-match');
  });

  it('generate whsec_ secrets of 32 bytes that the standardwebhooks library verifies', () => {
    const secret = generateSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(secretKey(secret)!.length, 32);
    const now = Math.floor(Date.now() / 1000);
    const body = '{"a":1}';
    const wh = new Webhook(secret);
    assert.deepEqual(wh.verify(body, { 'webhook-id': 'msg_x', 'webhook-timestamp': String(now), 'webhook-signature': signatureHeader([secret], 'msg_x', now, body) }), { a: 1 });
    assert.equal(secretKey('whsec_not base64!'), null);
  });
});
