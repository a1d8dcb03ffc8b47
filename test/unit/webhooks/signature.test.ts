import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { generateSecret, secretKey, signatureHeader, signEntry, verifySignature } from '../../../src/webhooks/signature.js';

const vectorsFile = path.resolve(process.cwd(), '../shared/reference/standard-webhooks-vectors.json');

describe('webhook signatures', () => {
  it('match the official Standard Webhooks vector', { skip: !fs.existsSync(vectorsFile) }, () => {
    const v = JSON.parse(fs.readFileSync(vectorsFile, 'utf8'));
    for (const x of v.official_vectors) {
      assert.equal(signEntry(x.secret, x.msg_id, x.timestamp, x.payload), x.expected_signature);
      assert.equal(verifySignature(x.secret, { id: x.msg_id, timestamp: String(x.timestamp), signature: x.expected_signature }, x.payload, x.timestamp), null);
    }
    const base = v.official_vectors[0];
    for (const neg of v.official_negative_cases.filter((n: { 'webhook-signature'?: string }) => n['webhook-signature'] !== undefined)) {
      const r = verifySignature(base.secret, { id: base.msg_id, timestamp: String(base.timestamp), signature: neg['webhook-signature'] }, base.payload, base.timestamp);
      assert.notEqual(r, null, neg.name);
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
