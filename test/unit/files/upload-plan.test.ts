import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chunkLength, parseChunkSha256, parseSessionRequest, parseTotalChunks, presignQuery, verifyPresigned } from '../../../src/uploads/upload-plan.js';

const digest = createHash('sha256').update('chunk').digest();
const hex = digest.toString('hex');

describe('upload plan', () => {
  it('reads a chunk hash in hex of either case, base64 or base64url, and none as null', () => {
    for (const v of [hex, hex.toUpperCase(), ` ${hex} `, digest.toString('base64'), digest.toString('base64url'), [hex]]) assert.equal(parseChunkSha256(v), hex);
    for (const v of [undefined, '', '  ']) assert.equal(parseChunkSha256(v), null);
    for (const v of ['xyz', hex.slice(1), Buffer.alloc(31).toString('base64'), `${hex}0`]) assert.throws(() => parseChunkSha256(v), /X-Content-SHA256/);
  });

  it('reads X-Total-Chunks as a whole number only', () => {
    assert.equal(parseTotalChunks('2'), 2);
    assert.equal(parseTotalChunks(' 12 '), 12);
    for (const v of [undefined, '', 'two', '-1', '1.5']) assert.equal(parseTotalChunks(v), null);
  });

  it('works out the chunks of a session and the size of each', () => {
    const r = parseSessionRequest({ fileName: 'a.png', fileSize: 292287, chunkSize: 146144, sha256: hex, uploadLocation: 'archive' });
    assert.deepEqual([r.totalChunks, r.uploadLocation, r.contentType, r.sha256], [2, 'ARCHIVE', 'image/png', hex]);
    assert.deepEqual([chunkLength(292287, 146144, 1), chunkLength(292287, 146144, 2)], [146144, 146143]);
    assert.throws(() => parseSessionRequest({ fileName: 'a/b', fileSize: 1, chunkSize: 1, sha256: hex, uploadLocation: 'IMAGE' }), /Invalid file name/);
  });

  it('takes a session without hash, location or type, as the original does', () => {
    for (const absent of [{}, { sha256: null, uploadLocation: null, contentType: null }, { sha256: '', uploadLocation: '', contentType: '' }]) {
      const r = parseSessionRequest({ fileName: 'notes.bin', fileSize: 10, chunkSize: 4, ...absent });
      assert.deepEqual([r.sha256, r.uploadLocation, r.contentType, r.totalChunks], [null, 'ARCHIVE', 'application/octet-stream', 3]);
    }
    assert.throws(() => parseSessionRequest({ fileName: 'a', fileSize: 1, chunkSize: 1, sha256: 'no' }), /sha256/);
    assert.throws(() => parseSessionRequest({ fileName: 'a', fileSize: 1, chunkSize: 1, uploadLocation: 'DISK' }), /uploadLocation/);
  });

  it('signs presigned queries that expire and bind one upload and one method', () => {
    const now = Date.UTC(2026, 0, 1);
    const q = Object.fromEntries(new URLSearchParams(presignQuery('k', 'PUT', 'u1', 100, now, 60)));
    assert.deepEqual(verifyPresigned('k', 'PUT', 'u1', q, now + 59_000), { userId: 100 });
    assert.match(JSON.stringify(verifyPresigned('k', 'PUT', 'u1', q, now + 61_000)), /expired/);
    assert.match(JSON.stringify(verifyPresigned('k', 'PUT', 'u2', q, now)), /does not match/);
    assert.match(JSON.stringify(verifyPresigned('k', 'GET', 'u1', q, now)), /does not match/);
    assert.match(JSON.stringify(verifyPresigned('other', 'PUT', 'u1', q, now)), /does not match/);
  });
});
