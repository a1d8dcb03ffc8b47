// Document completions on one kept-alive connection, with the headers fetch sends (so that the
// service does the same work, compressing its answer as for fetch). The client's own CPU per
// request is counted as the service's time (one request at a time): fetch took over 1 ms a
// request on the benchmark machine, node:http about 0.5 ms, so by default the request's bytes are
// written to a TCP socket as they are and the answer read by its framing (`rawConnection`), as a
// load generator such as wrk does.
import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';

const FETCH_HEADERS = { accept: 'application/json', 'accept-language': '*', 'sec-fetch-mode': 'cors', 'user-agent': 'node', 'accept-encoding': 'gzip, deflate' };
const COMPLETE = JSON.stringify({ 'doc-action': 'CO' });

/** An agent that keeps its one connection open between requests. */
export const keptAliveAgent = () => new http.Agent({ keepAlive: true, maxSockets: 1 });

/** The answer's text (decoded as its Content-Encoding says), an error unless it is 200 with shipment `id` completed. */
function completedText(id, status, encoding, raw) {
  const text = (encoding === 'gzip' ? zlib.gunzipSync(raw) : encoding === 'deflate' ? zlib.inflateSync(raw) : raw).toString('utf8');
  if (status !== 200) throw new Error(`PUT m_inout ${id} answered ${status}: ${text.slice(0, 800)}`);
  const done = JSON.parse(text);
  if (done.DocStatus?.id !== 'CO') throw new Error(`m_inout ${id} ended in ${JSON.stringify(done.DocStatus)}`);
  return text;
}

/**
 * Completes shipment `id` (PUT /api/v1/models/m_inout/{id} {"doc-action":"CO"}) on `at`
 * ({server: {baseUrl}, token, agent}) through node:http; answers the answer's text, an error
 * unless it is 200 with the shipment completed.
 */
export function completeShipment(at, id) {
  const u = new URL(`${at.server.baseUrl}/api/v1/models/m_inout/${id}`);
  const headers = { authorization: `Bearer ${at.token}`, 'content-type': 'application/json', ...FETCH_HEADERS, 'content-length': Buffer.byteLength(COMPLETE) };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'PUT', agent: at.agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        try {
          resolve(completedText(id, res.statusCode, res.headers['content-encoding'], Buffer.concat(chunks)));
        } catch (e) {
          reject(e);
        }
      });
    });
    req.on('error', reject);
    req.end(COMPLETE);
  });
}

/**
 * The end of an HTTP/1.1 answer at the start of `buf`: {status, headers (names in lower case),
 * body, end} once all of it is there, else null. The body is framed by Content-Length or chunked.
 */
export function parseAnswer(buf) {
  const headEnd = buf.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const lines = buf.toString('latin1', 0, headEnd).split('\r\n');
  const status = Number(lines[0].split(' ')[1]);
  const headers = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const start = headEnd + 4;
  if (headers['content-length'] !== undefined) {
    const end = start + Number(headers['content-length']);
    return buf.length < end ? null : { status, headers, body: buf.subarray(start, end), end };
  }
  if (!/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) throw new Error(`an answer framed neither by Content-Length nor chunked: ${lines[0]}`);
  const parts = [];
  for (let at = start; ; ) {
    const lineEnd = buf.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(buf.toString('latin1', at, lineEnd), 16);
    if (Number.isNaN(size)) throw new Error('a chunk without its size');
    if (size === 0) {
      // No trailers are expected: the last chunk's line, then an empty line.
      if (buf.length < lineEnd + 4) return null;
      return { status, headers, body: Buffer.concat(parts), end: lineEnd + 4 };
    }
    const dataEnd = lineEnd + 2 + size;
    if (buf.length < dataEnd + 2) return null;
    parts.push(buf.subarray(lineEnd + 2, dataEnd));
    at = dataEnd + 2;
  }
}

/**
 * One kept-alive TCP connection to the server at `baseUrl`, without Nagle's delay, for one request
 * at a time: `request(line, headers, body)` writes the request line, Host and Connection, `headers`
 * (lines each ending in CRLF) and `body`, and answers the parsed answer (`parseAnswer`).
 */
export function rawConnection(baseUrl) {
  const u = new URL(baseUrl);
  const hostLine = `Host: ${u.host}\r\nConnection: keep-alive\r\n`;
  let socket = null;
  let waiting = null;
  let buf = Buffer.alloc(0);
  const fail = (e) => {
    const w = waiting;
    waiting = null;
    socket?.destroy();
    socket = null;
    w?.reject(e);
  };
  const open = () => {
    const s = net.connect({ host: u.hostname, port: Number(u.port), noDelay: true });
    s.on('data', (chunk) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      if (!waiting) return fail(new Error('bytes from the server with no request waiting'));
      let answer;
      try {
        answer = parseAnswer(buf);
      } catch (e) {
        return fail(e);
      }
      if (!answer) return;
      if (answer.end !== buf.length) return fail(new Error('more bytes than one answer'));
      buf = Buffer.alloc(0);
      const w = waiting;
      waiting = null;
      w.resolve(answer);
    });
    s.on('error', fail);
    s.on('close', () => {
      if (socket === s) socket = null;
      if (waiting) fail(new Error('the server closed the connection'));
    });
    return s;
  };
  return {
    request(line, headers, body) {
      if (waiting) return Promise.reject(new Error('one request at a time'));
      socket ??= open();
      buf = Buffer.alloc(0);
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject };
        socket.write(`${line}\r\n${hostLine}${headers}\r\n${body}`);
      });
    },
    destroy() {
      socket?.destroy();
      socket = null;
    },
  };
}

/**
 * The completion of `completeShipment` on `at` ({server, token, connection: rawConnection}): the
 * same headers and body, written as they are; answers the answer's text.
 */
export async function completeShipmentRaw(at, id) {
  at.head ??= Object.entries({ authorization: `Bearer ${at.token}`, 'content-type': 'application/json', ...FETCH_HEADERS, 'content-length': Buffer.byteLength(COMPLETE) })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  const answer = await at.connection.request(`PUT /api/v1/models/m_inout/${id} HTTP/1.1`, at.head, COMPLETE);
  return completedText(id, answer.status, answer.headers['content-encoding'], answer.body);
}
