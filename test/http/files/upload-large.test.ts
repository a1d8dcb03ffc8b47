import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';

const MB = 1024 * 1024;
const FILE_SIZE = 50 * MB;
const CHUNK = 1 * MB;
const TOTAL = FILE_SIZE / CHUNK;
/** Chunk n (1-based) of a 50 MB file made up on the fly, so the client never holds the file. */
const chunk = (n: number): Buffer => {
  const b = Buffer.alloc(CHUNK);
  for (let i = 0; i < CHUNK; i += 4) b.writeUInt32LE((n * 2654435761 + i * 40503) >>> 0, i);
  return b;
};

describe('a 50 MB upload', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('completes in out-of-order chunks with a verified hash, reads back and keeps memory flat', async () => {
    const whole = createHash('sha256');
    for (let n = 1; n <= TOTAL; n++) whole.update(chunk(n));
    const sha256 = whole.digest('hex');
    const r = await server.request('POST', '/api/v1/uploads', { token, body: { fileName: 'big.bin', contentType: 'application/octet-stream', fileSize: FILE_SIZE, chunkSize: CHUNK, sha256, uploadLocation: 'ARCHIVE' } });
    assert.equal(r.status, 201, r.text);
    const id = r.body.uploadId as string;

    global.gc?.();
    const idle = process.memoryUsage().rss;
    let peak = idle;
    let peakHeap = 0;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed + m.arrayBuffers);
    }, 20);
    const idleHeap = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    // Even chunks from the end, then odd chunks from the end.
    const order = [...Array.from({ length: TOTAL }, (_, i) => TOTAL - i).filter((n) => n % 2 === 0), ...Array.from({ length: TOTAL }, (_, i) => TOTAL - i).filter((n) => n % 2 === 1)];
    let last: { isLastChunk: boolean; message: string; chunkOrder: number } | null = null;
    for (const n of order) {
      const data = chunk(n);
      const res = await fetch(`${server.url}/api/v1/uploads/${id}/chunks/${n}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream', 'x-total-chunks': String(TOTAL), 'x-content-sha256': createHash('sha256').update(data).digest('hex') },
        body: new Uint8Array(data),
      });
      assert.equal(res.status, 200, await res.clone().text());
      last = (await res.json()) as { isLastChunk: boolean; message: string; chunkOrder: number };
    }
    assert.deepEqual([last?.isLastChunk, last?.message], [true, `Chunk ${last?.chunkOrder} uploaded successfully.`]);
    const done = await server.request('GET', `/api/v1/uploads/${id}`, { token });
    assert.deepEqual([done.body.status, done.body.fileSize], ['COMPLETED', FILE_SIZE]);

    const file = await fetch(`${server.url}/api/v1/uploads/${id}/file`, { headers: { authorization: `Bearer ${token}` } });
    const back = createHash('sha256');
    let size = 0;
    for await (const part of file.body!) {
      back.update(part);
      size += part.length;
    }
    clearInterval(sampler);
    assert.equal(size, FILE_SIZE);
    assert.equal(back.digest('hex'), sha256);

    // Copies of the big file read back byte for byte, streamed: an attachment entry appended to a
    // zip that already holds one, and an archive.
    const hashOf = async (path: string) => {
      const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.status, 200, path);
      const h = createHash('sha256');
      let n = 0;
      for await (const part of res.body!) {
        h.update(part);
        n += part.length;
      }
      return [n, h.digest('hex')];
    };
    const note = await server.request('POST', '/api/v1/models/m_product/122/attachments', { token, body: { name: 'first.txt', data: Buffer.from('first').toString('base64') } });
    assert.equal(note.status, 201, note.text);
    const toAttachment = await server.request('POST', `/api/v1/uploads/${id}/copy`, { token, body: { copyLocation: 'ATTACHMENT', tableName: 'm_product', recordId: '122' } });
    assert.equal(toAttachment.status, 200, toAttachment.text);
    assert.deepEqual(await hashOf('/api/v1/models/m_product/122/attachments/big.bin'), [FILE_SIZE, sha256]);
    assert.deepEqual(await hashOf('/api/v1/models/m_product/122/attachments/first.txt'), [5, createHash('sha256').update('first').digest('hex')]);
    const toArchive = await server.request('POST', `/api/v1/uploads/${id}/copy`, { token, body: { copyLocation: 'ARCHIVE', tableName: 'c_order', recordId: '1000022' } });
    assert.equal(toArchive.status, 200, toArchive.text);
    assert.deepEqual(await hashOf(`/api/v1/models/c_order/1000022/archives/${toArchive.body.recordId}`), [FILE_SIZE, sha256]);
    const growth = (peak - idle) / MB;
    process.stdout.write(`# 50 MB upload: peak RSS growth ${growth.toFixed(1)} MB, peak heap and buffer growth ${((peakHeap - idleHeap) / MB).toFixed(1)} MB (server and client in one process, ${process.env.DATABASE_URL ? 'PostgreSQL server' : 'embedded PGlite'})\n`);
    // Client and server share this process (and, with PGlite, the database too) and collected
    // garbage is counted until the next collection, so the figures are reported, not bounded here.
  });
});
