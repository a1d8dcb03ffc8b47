import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { unzipSync } from 'fflate';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';

const sha = (b: Buffer | Uint8Array) => createHash('sha256').update(b).digest('hex');

/**
 * A file of the size of the upstream collection's example upload (292,287 bytes, sent as chunks of
 * 146,144): a PNG signature, then bytes that follow from a fixed seed, so that the suite needs
 * nothing outside the project.
 */
function exampleFile(): Buffer {
  const out = Buffer.alloc(292_287);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(out);
  let block = createHash('sha256').update('dictum upload example').digest();
  for (let at = 8; at < out.length; at += block.length) {
    block.copy(out, at);
    block = createHash('sha256').update(block).digest();
  }
  return out;
}

describe('chunked uploads', () => {
  let server: TestServer;
  let admin: string;
  const file = exampleFile();
  const chunk1 = file.subarray(0, 146_144);
  const chunk2 = file.subarray(146_144);

  const put = (id: string, n: number, data: Buffer, opts: { token?: string; total?: string; hash?: string | null; query?: string; contentType?: string | null } = {}) =>
    fetch(`${server.url}/api/v1/uploads/${id}/chunks/${n}${opts.query ? `?${opts.query}` : ''}`, {
      method: 'PUT',
      headers: {
        ...(opts.contentType === null ? {} : { 'content-type': opts.contentType ?? 'application/octet-stream' }),
        'x-total-chunks': opts.total ?? '2',
        ...(opts.hash === null ? {} : { 'x-content-sha256': opts.hash ?? sha(data) }),
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      },
      body: new Uint8Array(data),
    });
  const session = async (token: string, location = 'ARCHIVE', extra: Record<string, unknown> = {}) => {
    const r = await server.request('POST', '/api/v1/uploads', {
      token,
      body: { fileName: 'emoji_wallpaper.png', contentType: 'image/png', fileSize: 292287, chunkSize: 146144, sha256: sha(file), uploadLocation: location, expiresInSeconds: 3600, ...extra },
    });
    assert.equal(r.status, 201, r.text);
    return r.body as { uploadId: string; chunkSize: number; expiresAt: string; presignedURL: string };
  };
  const complete = async (token: string, location = 'ARCHIVE', extra: Record<string, unknown> = {}) => {
    const s = await session(token, location, extra);
    assert.equal((await put(s.uploadId, 2, chunk2, { token })).status, 200);
    assert.equal((await put(s.uploadId, 1, chunk1, { token })).status, 200);
    return s.uploadId;
  };

  before(async () => {
    server = await startTestServer();
    admin = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('takes the example file in chunks out of order, verifies it and serves it back', async () => {
    assert.equal(sha(Buffer.concat([chunk1, chunk2])), sha(file));
    const s = await session(admin);
    assert.match(s.uploadId, /^[0-9a-f-]{36}$/);
    assert.equal(s.chunkSize, 146144);
    assert.ok(Date.parse(s.expiresAt) > Date.now() + 3500_000);
    assert.match(s.presignedURL, /X-ID-SIGNATURE=[0-9a-f]{64}/);

    const second = await put(s.uploadId, 2, chunk2, { token: admin });
    assert.equal(second.status, 200);
    assert.deepEqual(await second.json(), { uploadId: s.uploadId, chunkOrder: 2, receivedSize: 146143, message: 'Chunk 2 received', isLastChunk: false });
    const again = await put(s.uploadId, 2, chunk2, { token: admin });
    assert.equal(again.status, 200, 'a re-sent chunk is accepted');
    const pending = await server.request('GET', '/api/v1/uploads', { token: admin });
    const mine = (pending.body.uploads as { uploadId: string; receivedChunks: unknown[]; status: string }[]).find((u) => u.uploadId === s.uploadId);
    assert.equal(mine?.status, 'PENDING');
    assert.equal(mine?.receivedChunks.length, 1);

    const first = await put(s.uploadId, 1, chunk1, { token: admin });
    assert.equal(first.status, 200);
    assert.deepEqual(await first.json(), { uploadId: s.uploadId, chunkOrder: 1, receivedSize: 146144, message: 'Upload complete', isLastChunk: true });

    const info = await server.request('GET', `/api/v1/uploads/${s.uploadId}?expiresInSeconds=3600`, { token: admin });
    assert.equal(info.status, 200, info.text);
    assert.equal(info.body.status, 'COMPLETED');
    assert.equal(info.body.receivedSize, 292287);
    assert.match(info.body.presignedURL as string, /X-ID-EXPIRES=3[56]\d\d/);
    const noUrl = await server.request('GET', `/api/v1/uploads/${s.uploadId}`, { token: admin });
    assert.equal(noUrl.body.presignedURL, undefined);

    const got = await fetch(`${server.url}/api/v1/uploads/${s.uploadId}/file`, { headers: { authorization: `Bearer ${admin}` } });
    assert.equal(got.headers.get('content-type'), 'image/png');
    assert.equal(sha(Buffer.from(await got.arrayBuffer())), sha(file));
    const asJson = await server.request('GET', `/api/v1/uploads/${s.uploadId}/file?asJson=true`, { token: admin });
    assert.equal(sha(Buffer.from(asJson.body.data as string, 'base64')), sha(file));
    // The file is served without a token through its presigned URL.
    const viaUrl = await fetch(info.body.filePresignedURL as string);
    assert.equal(viaUrl.status, 200);
    assert.equal(sha(Buffer.from(await viaUrl.arrayBuffer())), sha(file));
    const listed = await server.request('GET', '/api/v1/uploads', { token: admin });
    assert.ok(!(listed.body.uploads as { uploadId: string }[]).some((u) => u.uploadId === s.uploadId), 'a completed upload is no longer pending');
  });

  it('takes the chunk hash in hex of either case or base64, or none, and the bytes under any content type', async () => {
    const s = await session(admin);
    const upper = await put(s.uploadId, 1, chunk1, { token: admin, hash: sha(chunk1).toUpperCase(), contentType: 'image/png' });
    assert.equal(upper.status, 200, await upper.clone().text());
    const b64 = createHash('sha256').update(chunk1).digest('base64');
    assert.equal((await put(s.uploadId, 1, chunk1, { token: admin, hash: b64, contentType: null })).status, 200, 'base64, no content type');
    const b64url = createHash('sha256').update(chunk1).digest('base64url');
    assert.equal((await put(s.uploadId, 1, chunk1, { token: admin, hash: b64url, contentType: 'application/json' })).status, 200, 'base64url, JSON content type');
    const wrong64 = createHash('sha256').update(chunk2).digest('base64');
    assert.equal((await put(s.uploadId, 1, chunk1, { token: admin, hash: wrong64 })).status, 400, 'a base64 hash of other bytes');
    assert.equal((await put(s.uploadId, 1, Buffer.alloc(0), { token: admin })).status, 400, 'no bytes');
    const last = await put(s.uploadId, 2, chunk2, { token: admin, hash: null, total: ' 2 ' });
    assert.equal(last.status, 200, await last.clone().text());
    assert.equal(((await last.json()) as { isLastChunk: boolean }).isLastChunk, true, 'without a chunk hash the whole-file hash decides');
  });

  it('refuses corrupted chunks, wrong totals and sizes, and other bytes for a kept chunk', async () => {
    const s = await session(admin);
    const corrupt = Buffer.from(chunk1);
    corrupt[10] = corrupt[10]! ^ 0xff;
    const bad = await put(s.uploadId, 1, corrupt, { token: admin, hash: sha(chunk1) });
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { detail: string }).detail, /does not match X-Content-SHA256/);
    assert.equal((await put(s.uploadId, 1, chunk1, { token: admin, total: '3' })).status, 400);
    assert.equal((await put(s.uploadId, 3, chunk1, { token: admin })).status, 400);
    assert.equal((await put(s.uploadId, 0, chunk1, { token: admin })).status, 400);
    assert.equal((await put(s.uploadId, 1, chunk2, { token: admin })).status, 400, 'chunk 1 must have the chunk size');
    assert.equal((await put(s.uploadId, 1, chunk1, { token: admin, hash: 'xyz' })).status, 400);
    assert.equal((await put(s.uploadId, 1, chunk1, { token: admin })).status, 200);
    const other = Buffer.from(chunk1);
    other[0] = other[0]! ^ 1;
    assert.equal((await put(s.uploadId, 1, other, { token: admin })).status, 409);
    const info = await server.request('GET', `/api/v1/uploads/${s.uploadId}`, { token: admin });
    assert.deepEqual((info.body.receivedChunks as { chunkOrder: number }[]).map((c) => c.chunkOrder), [1]);

    // A whole file whose hash is not the session's is refused at the last chunk, which is not kept.
    const wrong = await session(admin, 'ARCHIVE', { sha256: sha(Buffer.from('other')) });
    assert.equal((await put(wrong.uploadId, 1, chunk1, { token: admin })).status, 200);
    const last = await put(wrong.uploadId, 2, chunk2, { token: admin });
    assert.equal(last.status, 400);
    assert.match(((await last.json()) as { detail: string }).detail, /whole file/);
    const after = await server.request('GET', `/api/v1/uploads/${wrong.uploadId}`, { token: admin });
    assert.equal(after.body.status, 'PENDING');
    assert.equal(after.body.receivedSize, 146144);

    for (const body of [{}, { fileName: 'x', fileSize: 10, chunkSize: 5, sha256: 'no', uploadLocation: 'ARCHIVE' }, { fileName: 'x', fileSize: 10, chunkSize: 5, sha256: sha(file), uploadLocation: 'DISK' }, { fileName: 'x', fileSize: -1, chunkSize: 5, sha256: sha(file), uploadLocation: 'IMAGE' }]) {
      const r = await server.request('POST', '/api/v1/uploads', { token: admin, body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.ok(r.body.detail);
    }
    const del = await server.request('DELETE', `/api/v1/uploads/${s.uploadId}`, { token: admin });
    assert.equal(del.status, 200);
    assert.equal((await server.request('GET', `/api/v1/uploads/${s.uploadId}`, { token: admin })).status, 404);
  });

  it('accepts chunks through the presigned URL without a token, until it expires or when tampered', async () => {
    const s = await session(admin);
    const url = new URL(s.presignedURL.replace('{chunkOrder}', '1'));
    const query = url.search.slice(1);
    const noToken = await put(s.uploadId, 1, chunk1, { query });
    assert.equal(noToken.status, 200, await noToken.clone().text());
    assert.equal((await put(s.uploadId, 2, chunk2, {})).status, 401, 'neither token nor signature');
    const tampered = query.replace(/X-ID-CREDENTIAL=\d+/, 'X-ID-CREDENTIAL=100');
    assert.equal((await put(s.uploadId, 2, chunk2, { query: tampered })).status, 401);
    const other = await session(admin);
    assert.equal((await put(other.uploadId, 1, chunk1, { query })).status, 401, 'signed for another upload');

    const short = await server.request('GET', `/api/v1/uploads/${s.uploadId}?expiresInSeconds=1`, { token: admin });
    const shortQuery = new URL(short.body.presignedURL as string).search.slice(1);
    await new Promise((r) => setTimeout(r, 2100));
    const expired = await put(s.uploadId, 2, chunk2, { query: shortQuery });
    assert.equal(expired.status, 401);
    assert.match(((await expired.json()) as { detail: string }).detail, /expired/);
    assert.equal((await put(s.uploadId, 2, chunk2, { query })).status, 200, 'the long-lived URL still works');
  });

  it('copies to an archive, an image and an attachment that read back byte for byte', async () => {
    const a = await complete(admin);
    const toArchive = await server.request('POST', `/api/v1/uploads/${a}/copy`, { token: admin, body: { copyLocation: 'ARCHIVE', tableName: 'c_order', recordId: '1000022' } });
    assert.equal(toArchive.status, 202, toArchive.text);
    assert.equal(toArchive.body.tableName, 'AD_Archive');
    const archived = await server.request('GET', `/api/v1/models/c_order/1000022/archives/${toArchive.body.id}?json=true`, { token: admin });
    assert.equal(sha(Buffer.from(archived.body.data as string, 'base64')), sha(file));

    const toImage = await server.request('POST', `/api/v1/uploads/${a}/copy`, { token: admin, body: { copyLocation: 'IMAGE' } });
    assert.equal(toImage.status, 202, toImage.text);
    const image = await server.request('GET', `/api/v1/models/ad_image/${toImage.body.id}`, { token: admin });
    assert.equal(image.status, 200, image.text);
    assert.equal(sha(Buffer.from(image.body.BinaryData as string, 'base64')), sha(file));
    assert.equal((await server.request('GET', `/api/v1/uploads/${a}`, { token: admin })).body.imageId, toImage.body.id);

    const uu = (await server.request('GET', '/api/v1/models/m_product/144', { token: admin })).body.uid as string;
    const toAttachment = await server.request('POST', `/api/v1/uploads/${a}/copy`, { token: admin, body: { copyLocation: 'ATTACHMENT', tableName: 'm_product', recordId: uu } });
    assert.equal(toAttachment.status, 202, toAttachment.text);
    assert.deepEqual([toAttachment.body.id, toAttachment.body.uuid], [144, uu]);
    const entry = await fetch(`${server.url}/api/v1/models/m_product/144/attachments/emoji_wallpaper.png`, { headers: { authorization: `Bearer ${admin}` } });
    assert.equal(sha(Buffer.from(await entry.arrayBuffer())), sha(file));
    // The appended entry sits in a zip that the other attachment endpoints read and extend.
    const again = await server.request('POST', `/api/v1/uploads/${a}/copy`, { token: admin, body: { copyLocation: 'ATTACHMENT', tableName: 'm_product', recordId: '144' } });
    assert.equal(again.status, 409, 'the name is attached already');
    const note = await server.request('POST', '/api/v1/models/m_product/144/attachments', { token: admin, body: { name: 'note.txt', data: Buffer.from('a note').toString('base64') } });
    assert.equal(note.status, 201, note.text);
    // A second upload goes after the entries already there, which stay as they were.
    const second = await complete(admin, 'ARCHIVE', { fileName: 'second.png' });
    const toSame = await server.request('POST', `/api/v1/uploads/${second}/copy`, { token: admin, body: { copyLocation: 'ATTACHMENT', tableName: 'm_product', recordId: '144' } });
    assert.equal(toSame.status, 202, toSame.text);
    const listed = await server.request('GET', '/api/v1/models/m_product/144/attachments', { token: admin });
    assert.deepEqual((listed.body.attachments as { name: string }[]).map((e) => e.name).sort(), ['emoji_wallpaper.png', 'note.txt', 'second.png']);
    const { rows: objects } = await server.services.db.query<{ n: string }>('SELECT count(*) AS n FROM pg_largeobject_metadata');
    assert.equal(Number(objects[0]!.n), 0, 'the file was assembled in a large object that is gone');
    const secondEntry = await fetch(`${server.url}/api/v1/models/m_product/144/attachments/second.png`, { headers: { authorization: `Bearer ${admin}` } });
    assert.equal(sha(Buffer.from(await secondEntry.arrayBuffer())), sha(file));
    const asJson = await server.request('GET', '/api/v1/models/m_product/144/attachments/emoji_wallpaper.png?json=true', { token: admin });
    assert.equal(sha(Buffer.from(asJson.body.data as string, 'base64')), sha(file));
    const zip = await fetch(`${server.url}/api/v1/models/m_product/144/attachments/zip`, { headers: { authorization: `Bearer ${admin}` } });
    const entries = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    assert.equal(sha(entries['emoji_wallpaper.png']!), sha(file));
    assert.equal(Buffer.from(entries['note.txt']!).toString(), 'a note');
    assert.equal(sha(entries['second.png']!), sha(file));
    assert.equal((await server.request('DELETE', '/api/v1/models/m_product/144/attachments', { token: admin })).status, 200);
    assert.equal((await server.request('DELETE', '/api/v1/models/m_product/144/attachments', { token: admin })).status, 404);

    // The collection's empty body copies to the session's own location.
    const plain = await server.request('POST', `/api/v1/uploads/${a}/copy`, { token: admin, body: { copyLocation: '', tableName: '', recordId: '' } });
    assert.equal(plain.status, 202, plain.text);
    assert.equal(plain.body.tableName, 'AD_Archive');
    const noRecord = await server.request('POST', `/api/v1/uploads/${a}/copy`, { token: admin, body: { copyLocation: 'ATTACHMENT' } });
    assert.equal(noRecord.status, 400);
    const pending = await session(admin);
    assert.equal((await server.request('POST', `/api/v1/uploads/${pending.uploadId}/copy`, { token: admin, body: {} })).status, 409);
  });

  for (const who of [
    { userName: 'GardenUser', password: 'GardenUser', roleId: 103 },
    { userName: 'WebService', password: 'WebService', roleId: 50004 },
  ]) {
    it(`keeps ${who.userName} away from other users' uploads and records it may not write`, async () => {
      const token = await login(server, who);
      const theirs = await complete(admin);
      for (const [method, path] of [['GET', ''], ['DELETE', ''], ['GET', '/file'], ['POST', '/copy']] as const) {
        const r = await server.request(method, `/api/v1/uploads/${theirs}${path}`, { token, body: method === 'POST' ? { copyLocation: 'IMAGE' } : undefined });
        assert.equal(r.status, 404, `${method} ${path}: ${r.text}`);
      }
      assert.equal((await put(theirs, 1, chunk1, { token })).status, 404);
      const list = await server.request('GET', '/api/v1/uploads', { token });
      assert.ok(!(list.body.uploads as { uploadId: string }[]).some((u) => u.uploadId === theirs));

      const own = await complete(token);
      const sys = await server.request('POST', `/api/v1/uploads/${own}/copy`, { token, body: { copyLocation: 'ATTACHMENT', tableName: 'ad_org', recordId: '0' } });
      assert.ok([403, 404].includes(sys.status), sys.text);
      assert.deepEqual((await server.request('GET', '/api/v1/models/ad_org/0/attachments', { token: admin })).body, { attachments: [] });
    });
  }
});
