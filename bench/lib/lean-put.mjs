// Document completions through node:http on one kept-alive connection, with the headers fetch
// sends (so that the service does the same work, compressing its answer as for fetch): fetch's own
// CPU per request (over 1 ms on the benchmark machine) would otherwise count as the service's time.
import http from 'node:http';
import zlib from 'node:zlib';

const FETCH_HEADERS = { accept: 'application/json', 'accept-language': '*', 'sec-fetch-mode': 'cors', 'user-agent': 'node', 'accept-encoding': 'gzip, deflate' };

/** An agent that keeps its one connection open between requests. */
export const keptAliveAgent = () => new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * Completes shipment `id` (PUT /api/v1/models/m_inout/{id} {"doc-action":"CO"}) on `at`
 * ({server: {baseUrl}, token, agent}); answers the answer's length in characters, an error
 * unless it is 200 with the shipment completed.
 */
export function completeShipment(at, id) {
  const body = JSON.stringify({ 'doc-action': 'CO' });
  const u = new URL(`${at.server.baseUrl}/api/v1/models/m_inout/${id}`);
  const headers = { authorization: `Bearer ${at.token}`, 'content-type': 'application/json', ...FETCH_HEADERS, 'content-length': Buffer.byteLength(body) };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'PUT', agent: at.agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        try {
          const raw = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          const text = (encoding === 'gzip' ? zlib.gunzipSync(raw) : encoding === 'deflate' ? zlib.inflateSync(raw) : raw).toString('utf8');
          if (res.statusCode !== 200) throw new Error(`PUT m_inout ${id} answered ${res.statusCode}: ${text.slice(0, 800)}`);
          const done = JSON.parse(text);
          if (done.DocStatus?.id !== 'CO') throw new Error(`m_inout ${id} ended in ${JSON.stringify(done.DocStatus)}`);
          resolve(text.length);
        } catch (e) {
          reject(e);
        }
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
