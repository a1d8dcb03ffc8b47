import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A local HTTP receiver that records what arrives and answers with the statuses queued (200 when none). */
export class Receiver {
  readonly received: Received[] = [];
  readonly statuses: number[] = [];
  responseBody = 'ok';
  /** While set, requests arrive and are recorded but never answered (a receiver that hangs). */
  hold = false;
  #server: http.Server;
  url = '';

  constructor() {
    this.#server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
        if (this.hold) return;
        const status = this.statuses.shift() ?? 200;
        res.writeHead(status, status >= 300 && status < 400 ? { location: 'http://127.0.0.1:1/' } : {});
        res.end(this.responseBody);
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((r) => this.#server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((r) => this.#server.close(() => r()));
  }
}
