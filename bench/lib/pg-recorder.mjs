// A recording relay for the PostgreSQL wire protocol: listens on 127.0.0.1, forwards every byte
// to the real server unchanged, and reads the client's side on the way to note which statements
// run with which parameters (Parse/Bind of the extended protocol, Query of the simple one).
// The benchmark puts a short-lived server instance behind it to learn the exact SQL and
// parameter values of a request, for the pgbench ceiling.
import net from 'node:net';

const PROTOCOL_3 = 196608;
const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;

/**
 * Splits a client's byte stream into messages. The first messages carry no type byte (startup,
 * SSL or GSS request); after the startup message every message is type + int32 length + payload.
 */
export class FrontendParser {
  constructor(onMessage) {
    this.onMessage = onMessage;
    this.buf = Buffer.alloc(0);
    this.started = false;
  }

  push(chunk) {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    for (let guard = 0; guard < 1_000_000; guard++) {
      if (!this.started) {
        if (this.buf.length < 8) return;
        const len = this.buf.readInt32BE(0);
        if (this.buf.length < len) return;
        const code = this.buf.readInt32BE(4);
        if (code === PROTOCOL_3) this.started = true;
        else if (code !== SSL_REQUEST && code !== GSS_REQUEST) this.started = true; // cancel request or unknown: nothing to read
        this.buf = this.buf.subarray(len);
        continue;
      }
      if (this.buf.length < 5) return;
      const len = this.buf.readInt32BE(1);
      if (this.buf.length < 1 + len) return;
      const type = String.fromCharCode(this.buf[0]);
      this.onMessage(type, this.buf.subarray(5, 1 + len));
      this.buf = this.buf.subarray(1 + len);
    }
  }
}

function cstring(buf, at) {
  const end = buf.indexOf(0, at);
  return { value: buf.toString('utf8', at, end), next: end + 1 };
}

/** Decodes a Parse message: statement name and text. */
export function decodeParse(payload) {
  const name = cstring(payload, 0);
  const text = cstring(payload, name.next);
  return { name: name.value, text: text.value };
}

/** Decodes a Bind message: statement name and the parameters (text format as strings, binary as Buffers, null). */
export function decodeBind(payload) {
  const portal = cstring(payload, 0);
  const stmt = cstring(payload, portal.next);
  let at = stmt.next;
  const nFormats = payload.readInt16BE(at);
  at += 2;
  const formats = [];
  for (let i = 0; i < nFormats; i++, at += 2) formats.push(payload.readInt16BE(at));
  const nParams = payload.readInt16BE(at);
  at += 2;
  const params = [];
  for (let i = 0; i < nParams; i++) {
    const len = payload.readInt32BE(at);
    at += 4;
    if (len < 0) {
      params.push(null);
      continue;
    }
    const format = nFormats === 0 ? 0 : nFormats === 1 ? formats[0] : formats[i];
    const bytes = payload.subarray(at, at + len);
    params.push(format === 1 ? Buffer.from(bytes) : bytes.toString('utf8'));
    at += len;
  }
  return { statement: stmt.value, params };
}

/**
 * Starts the relay to the server at host:port, or at the Unix socket `path`. Returns {port, statements(), clear(), close()}; statements() lists
 * {text, params} in the order the server was asked to run them (all connections together).
 */
export async function startRecorder({ host, port, path }) {
  const executed = [];
  const sockets = new Set();
  const server = net.createServer({ noDelay: true }, (client) => {
    const upstream = path ? net.connect({ path }) : net.connect({ host, port, noDelay: true });
    sockets.add(client);
    sockets.add(upstream);
    const prepared = new Map();
    const parser = new FrontendParser((type, payload) => {
      if (type === 'P') {
        const p = decodeParse(payload);
        prepared.set(p.name, p.text);
      } else if (type === 'B') {
        const b = decodeBind(payload);
        if (executed.length < 100_000) executed.push({ text: prepared.get(b.statement) ?? '', params: b.params, name: b.statement });
      } else if (type === 'Q') {
        if (executed.length < 100_000) executed.push({ text: cstring(payload, 0).value, params: [] });
      }
    });
    client.on('data', (chunk) => {
      try {
        parser.push(chunk);
      } catch {
        // A message the relay cannot read is still forwarded; only the record misses it.
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: server.address().port,
    statements: () => executed.slice(),
    clear: () => {
      executed.length = 0;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
