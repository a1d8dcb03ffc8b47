import assert from 'node:assert/strict';
import http from 'node:http';
import zlib from 'node:zlib';
import { test } from 'node:test';
import { completeShipmentRaw, parseAnswer, rawConnection } from '../lib/lean-put.mjs';

const head = (lines) => Buffer.from(`HTTP/1.1 200 OK\r\n${lines.join('\r\n')}\r\n\r\n`);

test('an answer is complete once its Content-Length or its last chunk is there', () => {
  const sized = Buffer.concat([head(['Content-Type: application/json', 'Content-Length: 7']), Buffer.from('{"a":1}')]);
  for (let cut = 0; cut < sized.length; cut++) assert.equal(parseAnswer(sized.subarray(0, cut)), null, `cut at ${cut}`);
  const a = parseAnswer(sized);
  assert.equal(a.status, 200);
  assert.equal(a.headers['content-type'], 'application/json');
  assert.equal(a.body.toString(), '{"a":1}');
  assert.equal(a.end, sized.length);
  const chunked = Buffer.concat([head(['transfer-encoding: chunked']), Buffer.from('3\r\n{"a\r\na\r\n":12345}xy\r\n0\r\n\r\n')]);
  for (let cut = 0; cut < chunked.length; cut++) assert.equal(parseAnswer(chunked.subarray(0, cut)), null, `cut at ${cut}`);
  assert.equal(parseAnswer(chunked).body.toString(), '{"a":12345}xy');
  assert.throws(() => parseAnswer(head(['Connection: close'])), /neither by Content-Length nor chunked/);
});

test('a completion on a raw connection sends the headers node:http sends and reads compressed, chunked answers', async () => {
  const seen = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      const id = Number(req.url.split('/').pop());
      const text = JSON.stringify({ id, DocStatus: { id: id === 3 ? 'DR' : 'CO' } });
      // Chunked: two writes of the compressed answer.
      const gz = zlib.gzipSync(text);
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.write(gz.subarray(0, 5));
      res.end(gz.subarray(5));
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const baseUrl = `http://127.0.0.1:${server.address().port}`;
  const at = { token: 't0k', connection: rawConnection(baseUrl) };
  try {
    assert.equal(await completeShipmentRaw(at, 1), JSON.stringify({ id: 1, DocStatus: { id: 'CO' } }));
    await completeShipmentRaw(at, 2);
    await assert.rejects(completeShipmentRaw(at, 3), /ended in \{"id":"DR"\}/);
    assert.deepEqual(
      seen.map((s) => [s.method, s.url, s.body]),
      [1, 2, 3].map((id) => ['PUT', `/api/v1/models/m_inout/${id}`, '{"doc-action":"CO"}']),
    );
    const h = seen[0].headers;
    assert.equal(h.authorization, 'Bearer t0k');
    assert.equal(h['accept-encoding'], 'gzip, deflate');
    assert.equal(h['content-type'], 'application/json');
    assert.equal(h.connection, 'keep-alive');
    assert.equal(h.host, new URL(baseUrl).host);
  } finally {
    at.connection.destroy();
    server.close();
  }
});
