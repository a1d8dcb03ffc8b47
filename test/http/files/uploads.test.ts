import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Unzip, UnzipInflate, UnzipPassThrough, unzipSync } from 'fflate';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { cleanExpired } from '../../../src/uploads/upload-store.js';

const sha = (b: Buffer | Uint8Array) => createHash('sha256').update(b).digest('hex');
const UUID = '[0-9a-f-]{36}';
const PRESIGNED_QUERY = 'X-ID-CREDENTIAL=\\d+&X-ID-DATE=\\d{8}T\\d{6}Z&X-ID-EXPIRES=\\d+&X-ID-SIGNATURE=[0-9a-f]{64}';

/** The entry names a reader walking the local headers meets, as the original's ZipInputStream reads an attachment. */
function localEntryNames(zip: Uint8Array): string[] {
  const names: string[] = [];
  const reader = new Unzip((f) => {
    names.push(f.name);
    f.ondata = () => {};
    f.start();
  });
  reader.register(UnzipInflate);
  reader.register(UnzipPassThrough);
  reader.push(zip, true);
  return names;
}

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

  /** The original's status answer (UploadStatusResponse) properties, in its order. */
  const STATUS_KEYS = ['uploadId', 'fileName', 'fileSize', 'imageId', 'chunkSize', 'status', 'uploadedChunks', 'totalReceivedSize', 'message'];
  const status = async (id: string, token = admin, query = '') => {
    const r = await server.request('GET', `/api/v1/uploads/${id}${query}`, { token });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(Object.keys(r.body).slice(0, STATUS_KEYS.length), STATUS_KEYS);
    return r.body as Record<string, unknown> & { status: string; message: string; uploadedChunks: { chunkOrder: number; receivedSize: number }[]; totalReceivedSize: number; imageId: number };
  };
  const pendingOf = async (id: string, token = admin) => {
    const r = await server.request('GET', '/api/v1/uploads', { token });
    assert.equal(r.status, 200, r.text);
    return (r.body.uploads as { uploadId: string; status: string; message: string; uploadedChunks: unknown[]; totalReceivedSize: number }[]).find((u) => u.uploadId === id);
  };

  it('takes the example file in chunks out of order, reports the original\'s statuses and serves the file back', async () => {
    assert.equal(sha(Buffer.concat([chunk1, chunk2])), sha(file));
    const s = await session(admin);
    assert.deepEqual(Object.keys(s), ['uploadId', 'chunkSize', 'expiresAt', 'presignedURL']);
    assert.match(s.uploadId, new RegExp(`^${UUID}$`));
    assert.equal(s.chunkSize, 146144);
    assert.ok(Date.parse(s.expiresAt) > Date.now() + 3500_000);
    // Relative to the API's base, as the original gives it (a client prefixes http://host/api/).
    assert.match(s.presignedURL, new RegExp(`^v1/uploads/${s.uploadId}/chunks/\\{chunkOrder\\}\\?${PRESIGNED_QUERY}$`));

    const fresh = await status(s.uploadId);
    assert.deepEqual(
      [fresh.status, fresh.message, fresh.uploadedChunks, fresh.totalReceivedSize, fresh.imageId, fresh.fileSize, fresh.chunkSize, fresh.fileName],
      ['INITIATED', 'File upload initiated, awaiting chunks.', [], 0, 0, 292287, 146144, 'emoji_wallpaper.png'],
    );
    assert.equal(fresh.presignedURL, undefined, 'a presigned URL only when asked for');

    const second = await put(s.uploadId, 2, chunk2, { token: admin });
    assert.equal(second.status, 200);
    assert.deepEqual(await second.json(), { uploadId: s.uploadId, chunkOrder: 2, receivedSize: 146143, message: 'Chunk 2 uploaded successfully.', isLastChunk: false });
    const again = await put(s.uploadId, 2, chunk2, { token: admin });
    assert.equal(again.status, 200, 'a re-sent chunk is accepted');
    const uploading = await status(s.uploadId);
    assert.deepEqual([uploading.status, uploading.message, uploading.uploadedChunks, uploading.totalReceivedSize], ['UPLOADING', 'File upload in progress. 1 chunks received.', [{ chunkOrder: 2, receivedSize: 146143 }], 146143]);
    const pending = await pendingOf(s.uploadId);
    assert.deepEqual([pending?.status, pending?.uploadedChunks.length, pending?.totalReceivedSize], ['UPLOADING', 1, 146143]);
    assert.ok(pending && !('presignedURL' in pending));

    const first = await put(s.uploadId, 1, chunk1, { token: admin });
    assert.equal(first.status, 200);
    assert.deepEqual(await first.json(), { uploadId: s.uploadId, chunkOrder: 1, receivedSize: 146144, message: 'Chunk 1 uploaded successfully.', isLastChunk: true });
    const late = await put(s.uploadId, 1, chunk1, { token: admin });
    assert.equal(late.status, 409, 'no chunk is taken once the upload is complete');
    assert.match(((await late.json()) as { detail: string }).detail, /already completed/);

    // Completed: the original has assembled the file and dropped the chunks it came in.
    const info = await status(s.uploadId, admin, '?expiresInSeconds=3600');
    assert.deepEqual([info.status, info.message, info.uploadedChunks, info.totalReceivedSize, info.imageId], ['COMPLETED', 'File upload completed and processed.', [], 0, 0]);
    assert.match(info.presignedURL as string, new RegExp(`^v1/uploads/${s.uploadId},v1/uploads/${s.uploadId}/file\\?${PRESIGNED_QUERY}$`));
    assert.match(info.presignedURL as string, /X-ID-EXPIRES=3600&/);

    const got = await fetch(`${server.url}/api/v1/uploads/${s.uploadId}/file`, { headers: { authorization: `Bearer ${admin}` } });
    assert.equal(got.headers.get('content-type'), 'image/png');
    assert.equal(sha(Buffer.from(await got.arrayBuffer())), sha(file));
    for (const flag of ['json', 'asJson=true']) {
      const asJson = await server.request('GET', `/api/v1/uploads/${s.uploadId}/file?${flag}`, { token: admin });
      assert.equal(asJson.status, 200, asJson.text);
      assert.match(asJson.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(sha(Buffer.from(asJson.body.data as string, 'base64')), sha(file), flag);
      assert.equal(asJson.headers.get('x-ignored-parameters'), null, flag);
    }
    // The status's URL serves the status and the file without a token, each path with the one query.
    const [statusPath, fileUrl] = (info.presignedURL as string).split(',') as [string, string];
    const query = fileUrl.slice(fileUrl.indexOf('?'));
    const viaStatus = await fetch(`${server.url}/api/${statusPath}${query}`);
    assert.equal(viaStatus.status, 200);
    assert.equal(((await viaStatus.json()) as { status: string }).status, 'COMPLETED');
    const viaFile = await fetch(`${server.url}/api/${fileUrl}`);
    assert.equal(viaFile.status, 200);
    assert.equal(sha(Buffer.from(await viaFile.arrayBuffer())), sha(file));
    assert.equal((await fetch(`${server.url}/api/${info.filePresignedURL as string}`)).status, 200);
    assert.equal(await pendingOf(s.uploadId), undefined, 'a completed upload is no longer pending');
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

  it('refuses corrupted chunks, wrong totals and sizes, and replaces a chunk sent again with other bytes', async () => {
    const s = await session(admin);
    const corrupt = Buffer.from(chunk1);
    corrupt[10] = corrupt[10]! ^ 0xff;
    const bad = await put(s.uploadId, 1, corrupt, { token: admin, hash: sha(chunk1) });
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { detail: string }).detail, /does not match X-Content-SHA256/);
    assert.equal((await put(s.uploadId, 1, chunk1, { token: admin, total: '3' })).status, 400);
    assert.equal((await put(s.uploadId, 1, chunk1, { token: admin, total: '0' })).status, 400);
    const outOfRange = await put(s.uploadId, 3, chunk1, { token: admin });
    assert.equal(outOfRange.status, 400);
    assert.match(((await outOfRange.json()) as { detail: string }).detail, /between 1 and 2/);
    assert.equal((await put(s.uploadId, 0, chunk1, { token: admin })).status, 400);
    assert.equal((await put(s.uploadId, 1, chunk2, { token: admin })).status, 400, 'chunk 1 must have the chunk size');
    assert.equal((await put(s.uploadId, 1, chunk1, { token: admin, hash: 'xyz' })).status, 400);
    assert.equal((await status(s.uploadId)).status, 'INITIATED', 'nothing refused was kept');
    // Other bytes for a kept chunk replace it (the original's), and the whole-file hash then decides.
    const other = Buffer.from(chunk1);
    other[0] = other[0]! ^ 1;
    assert.equal((await put(s.uploadId, 1, other, { token: admin })).status, 200);
    const wrongFile = await put(s.uploadId, 2, chunk2, { token: admin });
    assert.equal(wrongFile.status, 400);
    assert.match(((await wrongFile.json()) as { detail: string }).detail, /whole file/);
    assert.equal((await put(s.uploadId, 1, chunk1, { token: admin })).status, 200, 'the right bytes replace the wrong ones');
    const done = await put(s.uploadId, 2, chunk2, { token: admin });
    assert.equal(done.status, 200, await done.clone().text());
    assert.equal(((await done.json()) as { isLastChunk: boolean }).isLastChunk, true);
    const back = await fetch(`${server.url}/api/v1/uploads/${s.uploadId}/file`, { headers: { authorization: `Bearer ${admin}` } });
    assert.equal(sha(Buffer.from(await back.arrayBuffer())), sha(file));

    // A whole file whose hash is not the session's is refused at the last chunk, which is not kept.
    const wrong = await session(admin, 'ARCHIVE', { sha256: sha(Buffer.from('other')) });
    assert.equal((await put(wrong.uploadId, 1, chunk1, { token: admin })).status, 200);
    const last = await put(wrong.uploadId, 2, chunk2, { token: admin });
    assert.equal(last.status, 400);
    const after = await status(wrong.uploadId);
    assert.deepEqual([after.status, after.totalReceivedSize], ['UPLOADING', 146144]);

    for (const body of [{}, { fileName: 'x', fileSize: 10, chunkSize: 5, sha256: 'no', uploadLocation: 'ARCHIVE' }, { fileName: 'x', fileSize: 10, chunkSize: 5, sha256: sha(file), uploadLocation: 'DISK' }, { fileName: 'x', fileSize: -1, chunkSize: 5, sha256: sha(file), uploadLocation: 'IMAGE' }]) {
      const r = await server.request('POST', '/api/v1/uploads', { token: admin, body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.ok(r.body.detail);
    }
  });

  it('takes a session without sha256, uploadLocation or contentType, as the original does', async () => {
    const r = await server.request('POST', '/api/v1/uploads', { token: admin, body: { fileName: 'plain.png', fileSize: 292287, chunkSize: 146144 } });
    assert.equal(r.status, 201, r.text);
    const id = r.body.uploadId as string;
    const fresh = await status(id);
    assert.deepEqual([fresh.uploadLocation, fresh.contentType, 'sha256' in fresh], ['ARCHIVE', 'image/png', false]);
    assert.equal((await put(id, 2, chunk2, { token: admin })).status, 200);
    const last = await put(id, 1, chunk1, { token: admin, hash: null });
    assert.equal(last.status, 200, await last.clone().text());
    assert.equal(((await last.json()) as { isLastChunk: boolean }).isLastChunk, true);
    assert.equal((await status(id)).status, 'COMPLETED');
    const got = await fetch(`${server.url}/api/v1/uploads/${id}/file`, { headers: { authorization: `Bearer ${admin}` } });
    assert.equal(got.headers.get('content-type'), 'image/png');
    assert.equal(sha(Buffer.from(await got.arrayBuffer())), sha(file));
  });

  it('cancels an upload as the original: the session stays CANCELED without its chunks', async () => {
    const s = await session(admin);
    assert.equal((await put(s.uploadId, 1, chunk1, { token: admin })).status, 200);
    const del = await server.request('DELETE', `/api/v1/uploads/${s.uploadId}`, { token: admin });
    assert.equal(del.status, 200, del.text);
    assert.deepEqual(del.body, { message: `Upload ${s.uploadId} canceled successfully.` });
    const canceled = await status(s.uploadId);
    assert.deepEqual([canceled.status, canceled.message, canceled.uploadedChunks, canceled.totalReceivedSize], ['CANCELED', `Status for upload ID ${s.uploadId}`, [], 0]);
    const { rows } = await server.services.db.query<{ n: string }>('SELECT count(*) AS n FROM rest_uploadchunk c JOIN rest_upload u USING (rest_upload_id) WHERE u.uploadid = $1', [s.uploadId]);
    assert.equal(Number(rows[0]!.n), 0, 'the chunks are gone');
    assert.equal((await server.request('DELETE', `/api/v1/uploads/${s.uploadId}`, { token: admin })).status, 400, 'canceled already');
    const chunk = await put(s.uploadId, 2, chunk2, { token: admin });
    assert.equal(chunk.status, 400);
    assert.match(((await chunk.json()) as { detail: string }).detail, /canceled/);
    const fileOf = await server.request('GET', `/api/v1/uploads/${s.uploadId}/file`, { token: admin });
    assert.equal(fileOf.status, 400);
    assert.match(fileOf.body.detail as string, /CANCELED/);
    assert.equal((await server.request('POST', `/api/v1/uploads/${s.uploadId}/copy`, { token: admin, body: { copyLocation: 'IMAGE' } })).status, 400);
    assert.equal(await pendingOf(s.uploadId), undefined, 'a canceled upload is not pending');

    // A completed upload is canceled too, and its file with it.
    const done = await complete(admin);
    assert.equal((await server.request('DELETE', `/api/v1/uploads/${done}`, { token: admin })).status, 200);
    assert.equal((await status(done)).status, 'CANCELED');
    assert.equal((await server.request('GET', `/api/v1/uploads/${done}/file`, { token: admin })).status, 400);
  });

  it('fails an upload that expires before completion, keeps a completed one, and cleans ended sessions later', async () => {
    const expire = (id: string, ago: string) => server.services.db.query(`UPDATE rest_upload SET expiresat = now() - $2::interval WHERE uploadid = $1`, [id, ago]);
    const clean = () => cleanExpired(server.services.db);
    const s = await session(admin);
    assert.equal((await put(s.uploadId, 1, chunk1, { token: admin })).status, 200);
    await expire(s.uploadId, '1 second');
    const failed = await status(s.uploadId);
    assert.deepEqual([failed.status, failed.message, failed.uploadedChunks], ['FAILED', 'Upload session has expired.', [{ chunkOrder: 1, receivedSize: 146144 }]]);
    const gone = await put(s.uploadId, 2, chunk2, { token: admin });
    assert.equal(gone.status, 410);
    assert.match(((await gone.json()) as { detail: string }).detail, /expired/);
    assert.equal((await pendingOf(s.uploadId))?.status, 'FAILED', 'a failed upload is listed, as the original lists it');

    const done = await complete(admin);
    await expire(done, '1 second');
    const { failed: marked } = await clean();
    assert.ok(marked >= 1);
    const later = await status(s.uploadId);
    assert.deepEqual([later.status, later.message], ['FAILED', 'File processing failed or upload expired before completion.']);
    const { rows } = await server.services.db.query<{ n: string }>(
      'SELECT count(*) AS n FROM rest_uploadchunk c JOIN rest_upload u USING (rest_upload_id) WHERE u.uploadid = $1 AND c.binarydata IS NOT NULL',
      [s.uploadId],
    );
    assert.equal(Number(rows[0]!.n), 0, 'the bytes of a failed upload are freed');
    assert.equal((await put(s.uploadId, 2, chunk2, { token: admin })).status, 409, 'a failed upload takes no chunk');

    // Past its expiry a completed upload still serves its file and copies, as the original's.
    assert.equal((await status(done)).status, 'COMPLETED');
    const got = await fetch(`${server.url}/api/v1/uploads/${done}/file`, { headers: { authorization: `Bearer ${admin}` } });
    assert.equal(sha(Buffer.from(await got.arrayBuffer())), sha(file));
    assert.equal((await server.request('POST', `/api/v1/uploads/${done}/copy`, { token: admin, body: { copyLocation: 'ARCHIVE' } })).status, 200);

    // A week after its expiry a session that ended without a file is removed; a completed one stays.
    await expire(s.uploadId, '8 days');
    await expire(done, '8 days');
    const { removed } = await clean();
    assert.ok(removed >= 1);
    assert.equal((await server.request('GET', `/api/v1/uploads/${s.uploadId}`, { token: admin })).status, 404);
    assert.equal((await status(done)).status, 'COMPLETED');
  });

  it('accepts chunks through the presigned URL without a token, until it expires or when tampered', async () => {
    const s = await session(admin);
    const query = s.presignedURL.slice(s.presignedURL.indexOf('?') + 1);
    const viaUrl = await fetch(`${server.url}/api/${s.presignedURL.replace('{chunkOrder}', '1')}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', 'x-total-chunks': '2', 'x-content-sha256': sha(chunk1) },
      body: new Uint8Array(chunk1),
    });
    assert.equal(viaUrl.status, 200, await viaUrl.clone().text());
    assert.equal((await put(s.uploadId, 2, chunk2, {})).status, 401, 'neither token nor signature');
    const tampered = query.replace(/X-ID-CREDENTIAL=\d+/, 'X-ID-CREDENTIAL=100');
    assert.equal((await put(s.uploadId, 2, chunk2, { query: tampered })).status, 401);
    const other = await session(admin);
    assert.equal((await put(other.uploadId, 1, chunk1, { query })).status, 401, 'signed for another upload');
    // The chunks' URL is for PUT only: it reads neither the status nor the file.
    assert.equal((await fetch(`${server.url}/api/v1/uploads/${s.uploadId}?${query}`)).status, 401);
    assert.equal((await fetch(`${server.url}/api/v1/uploads/${s.uploadId}/file?${query}`)).status, 401);

    const short = await status(s.uploadId, admin, '?expiresInSeconds=1');
    const shortQuery = (short.presignedURL as string).slice((short.presignedURL as string).indexOf('?') + 1);
    assert.equal((await put(s.uploadId, 2, chunk2, { query: shortQuery })).status, 401, 'the status URL is for GET only');
    const viaShort = await fetch(`${server.url}/api/v1/uploads/${s.uploadId}?${shortQuery}&expiresInSeconds=604800`);
    assert.equal(viaShort.status, 200);
    assert.equal(((await viaShort.json()) as { presignedURL?: string }).presignedURL, undefined, 'a presigned URL does not make a longer one');
    await new Promise((r) => setTimeout(r, 2100));
    const expired = await fetch(`${server.url}/api/v1/uploads/${s.uploadId}?${shortQuery}`);
    assert.equal(expired.status, 401);
    assert.match(((await expired.json()) as { detail: string }).detail, /expired/);
    assert.equal((await put(s.uploadId, 2, chunk2, { query })).status, 200, 'the long-lived URL still works');
  });

  it('copies to an archive, an image and an attachment that read back byte for byte, answering 200 with the original\'s properties', async () => {
    const a = await complete(admin);
    const COPY_KEYS = ['uploadId', 'copyLocation', 'fileName', 'contentType', 'fileSize', 'tableName', 'recordId', 'recordUU'];
    const toArchive = await server.request('POST', `/api/v1/uploads/${a}/copy`, { token: admin, body: { copyLocation: 'ARCHIVE', tableName: 'c_order', recordId: '1000022' } });
    assert.equal(toArchive.status, 200, toArchive.text);
    assert.deepEqual(Object.keys(toArchive.body).sort(), [...COPY_KEYS].sort());
    assert.deepEqual(
      [toArchive.body.uploadId, toArchive.body.tableName, toArchive.body.copyLocation, toArchive.body.fileName, toArchive.body.contentType, toArchive.body.fileSize],
      [a, 'AD_Archive', 'ARCHIVE', 'emoji_wallpaper.png', 'image/png', 292287],
    );
    assert.equal(typeof toArchive.body.recordId, 'number');
    assert.match(toArchive.body.recordUU as string, new RegExp(`^${UUID}$`));
    const archived = await server.request('GET', `/api/v1/models/c_order/1000022/archives/${toArchive.body.recordId}?json=true`, { token: admin });
    assert.equal(sha(Buffer.from(archived.body.data as string, 'base64')), sha(file));

    const toImage = await server.request('POST', `/api/v1/uploads/${a}/copy`, { token: admin, body: { copyLocation: 'IMAGE' } });
    assert.equal(toImage.status, 200, toImage.text);
    assert.equal(toImage.body.tableName, 'AD_Image');
    const image = await server.request('GET', `/api/v1/models/ad_image/${toImage.body.recordId}`, { token: admin });
    assert.equal(image.status, 200, image.text);
    assert.equal(image.body.uid, toImage.body.recordUU);
    assert.equal(sha(Buffer.from(image.body.BinaryData as string, 'base64')), sha(file));
    assert.equal((await status(a)).imageId, 0, 'a copy names no image on the session, as the original');

    const uu = (await server.request('GET', '/api/v1/models/m_product/144', { token: admin })).body.uid as string;
    const toAttachment = await server.request('POST', `/api/v1/uploads/${a}/copy`, { token: admin, body: { copyLocation: 'ATTACHMENT', tableName: 'm_product', recordId: uu } });
    assert.equal(toAttachment.status, 200, toAttachment.text);
    assert.deepEqual([toAttachment.body.tableName, toAttachment.body.recordId, toAttachment.body.recordUU], ['m_product', 144, uu]);
    const entry = await fetch(`${server.url}/api/v1/models/m_product/144/attachments/emoji_wallpaper.png`, { headers: { authorization: `Bearer ${admin}` } });
    assert.equal(sha(Buffer.from(await entry.arrayBuffer())), sha(file));
    const note = await server.request('POST', '/api/v1/models/m_product/144/attachments', { token: admin, body: { name: 'note.txt', data: Buffer.from('a note').toString('base64') } });
    assert.equal(note.status, 201, note.text);
    // A second upload goes after the entries already there, which stay as they were.
    const second = await complete(admin, 'ARCHIVE', { fileName: 'second.png' });
    const toSame = await server.request('POST', `/api/v1/uploads/${second}/copy`, { token: admin, body: { copyLocation: 'ATTACHMENT', tableName: 'm_product', recordId: '144' } });
    assert.equal(toSame.status, 200, toSame.text);
    // A file of a name already attached replaces that entry, as the original's attachment does.
    const newer = Buffer.from('a newer emoji wallpaper');
    const small = await server.request('POST', '/api/v1/uploads', { token: admin, body: { fileName: 'emoji_wallpaper.png', fileSize: newer.length, chunkSize: 1024, sha256: sha(newer) } });
    assert.equal(small.status, 201, small.text);
    assert.equal((await put(small.body.uploadId as string, 1, newer, { token: admin, total: '1' })).status, 200);
    const replace = await server.request('POST', `/api/v1/uploads/${small.body.uploadId}/copy`, { token: admin, body: { copyLocation: 'ATTACHMENT', tableName: 'm_product', recordId: '144' } });
    assert.equal(replace.status, 200, replace.text);
    const listed = await server.request('GET', '/api/v1/models/m_product/144/attachments', { token: admin });
    assert.deepEqual((listed.body.attachments as { name: string }[]).map((e) => e.name).sort(), ['emoji_wallpaper.png', 'note.txt', 'second.png']);
    const { rows: objects } = await server.services.db.query<{ n: string }>('SELECT count(*) AS n FROM pg_largeobject_metadata');
    assert.equal(Number(objects[0]!.n), 0, 'the file was assembled in a large object that is gone');
    const secondEntry = await fetch(`${server.url}/api/v1/models/m_product/144/attachments/second.png`, { headers: { authorization: `Bearer ${admin}` } });
    assert.equal(sha(Buffer.from(await secondEntry.arrayBuffer())), sha(file));
    const asJson = await server.request('GET', '/api/v1/models/m_product/144/attachments/emoji_wallpaper.png?json=true', { token: admin });
    assert.equal(Buffer.from(asJson.body.data as string, 'base64').toString(), newer.toString());
    const zip = new Uint8Array(await (await fetch(`${server.url}/api/v1/models/m_product/144/attachments/zip`, { headers: { authorization: `Bearer ${admin}` } })).arrayBuffer());
    const entries = unzipSync(zip);
    assert.equal(Buffer.from(entries['emoji_wallpaper.png']!).toString(), newer.toString());
    assert.equal(Buffer.from(entries['note.txt']!).toString(), 'a note');
    assert.equal(sha(entries['second.png']!), sha(file));
    assert.deepEqual(localEntryNames(zip).sort(), ['emoji_wallpaper.png', 'note.txt', 'second.png'], 'the replaced entry left no bytes behind');
    assert.equal((await server.request('DELETE', '/api/v1/models/m_product/144/attachments', { token: admin })).status, 200);
    assert.equal((await server.request('DELETE', '/api/v1/models/m_product/144/attachments', { token: admin })).status, 404);

    // The collection's empty body copies to the session's own location.
    const plain = await server.request('POST', `/api/v1/uploads/${a}/copy`, { token: admin, body: { copyLocation: '', tableName: '', recordId: '' } });
    assert.equal(plain.status, 200, plain.text);
    assert.deepEqual([plain.body.tableName, plain.body.copyLocation], ['AD_Archive', 'ARCHIVE']);
    const noRecord = await server.request('POST', `/api/v1/uploads/${a}/copy`, { token: admin, body: { copyLocation: 'ATTACHMENT' } });
    assert.equal(noRecord.status, 400);
    const pending = await session(admin);
    const early = await server.request('POST', `/api/v1/uploads/${pending.uploadId}/copy`, { token: admin, body: {} });
    assert.equal(early.status, 400, 'not completed yet');
    assert.match(early.body.detail as string, /INITIATED/);
    assert.equal((await server.request('GET', `/api/v1/uploads/${pending.uploadId}/file`, { token: admin })).status, 400);
  });

  it('makes the image of an IMAGE upload when it completes, keeps it when the upload is canceled, and needs a role that may create images', async () => {
    const id = await complete(admin, 'IMAGE');
    const done = await status(id);
    assert.equal(done.status, 'COMPLETED');
    assert.ok(done.imageId > 0, JSON.stringify(done));
    const image = await server.request('GET', `/api/v1/models/ad_image/${done.imageId}`, { token: admin });
    assert.equal(image.status, 200, image.text);
    assert.equal(image.body.Name, 'emoji_wallpaper.png');
    assert.equal(sha(Buffer.from(image.body.BinaryData as string, 'base64')), sha(file));
    assert.equal((await server.request('DELETE', `/api/v1/uploads/${id}`, { token: admin })).status, 200);
    assert.equal((await status(id)).imageId, 0);
    assert.equal((await server.request('GET', `/api/v1/models/ad_image/${done.imageId}`, { token: admin })).status, 200, 'the image stays');

    // Through a presigned URL the image is made for the session's owner.
    const ws = await login(server, { userName: 'WebService', password: 'WebService', roleId: 50004 });
    const viaUrl = await session(ws, 'IMAGE');
    const query = viaUrl.presignedURL.slice(viaUrl.presignedURL.indexOf('?') + 1);
    assert.equal((await put(viaUrl.uploadId, 1, chunk1, { query })).status, 200);
    assert.equal((await put(viaUrl.uploadId, 2, chunk2, { query })).status, 200);
    const made = await status(viaUrl.uploadId, ws);
    assert.ok(made.imageId > 0);
    const { rows } = await server.services.db.query<{ ad_client_id: string; createdby: string }>('SELECT ad_client_id, createdby FROM ad_image WHERE ad_image_id = $1', [made.imageId]);
    assert.deepEqual([Number(rows[0]!.ad_client_id), Number(rows[0]!.createdby)], [11, 50001]);

    // A role that may only read images starts no IMAGE upload and copies to no image.
    const ownUpload = await complete(ws);
    const rule = await server.request('POST', '/api/v1/models/ad_table_access', { token: admin, body: { AD_Role_ID: 50004, AD_Table_ID: 461, IsReadOnly: true } });
    assert.equal(rule.status, 201, rule.text);
    const readOnly = await login(server, { userName: 'WebService', password: 'WebService', roleId: 50004 });
    const refused = await server.request('POST', '/api/v1/uploads', { token: readOnly, body: { fileName: 'x.png', fileSize: 10, chunkSize: 10, uploadLocation: 'IMAGE' } });
    assert.equal(refused.status, 403, refused.text);
    assert.equal((await server.request('POST', `/api/v1/uploads/${ownUpload}/copy`, { token: readOnly, body: { copyLocation: 'IMAGE' } })).status, 403);
    assert.equal((await server.request('POST', '/api/v1/uploads', { token: readOnly, body: { fileName: 'x.png', fileSize: 10, chunkSize: 10 } })).status, 201, 'an archive upload is still allowed');
    assert.equal((await server.request('DELETE', `/api/v1/models/ad_table_access/${rule.body.uid}`, { token: admin })).status, 200, 'the rule goes again');
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
      assert.equal((await status(own, token)).status, 'COMPLETED');
      const sys = await server.request('POST', `/api/v1/uploads/${own}/copy`, { token, body: { copyLocation: 'ATTACHMENT', tableName: 'ad_org', recordId: '0' } });
      assert.ok([403, 404].includes(sys.status), sys.text);
      assert.deepEqual((await server.request('GET', '/api/v1/models/ad_org/0/attachments', { token: admin })).body, { attachments: [] });
      const mine = await server.request('POST', `/api/v1/uploads/${own}/copy`, { token, body: { copyLocation: 'ARCHIVE' } });
      assert.equal(mine.status, 200, mine.text);
    });
  }
});
