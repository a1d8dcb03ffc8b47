import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { sleep } from './auth-helpers.js';

/** A minimal SMTP receiver that keeps every message it is given. */
class SmtpCatcher {
  readonly messages: { from: string; to: string[]; data: string }[] = [];
  #server = net.createServer((socket) => this.#session(socket));

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return (this.#server.address() as net.AddressInfo).port;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  #session(socket: net.Socket): void {
    let buffer = '';
    let inData = false;
    let current = { from: '', to: [] as string[], data: '' };
    socket.write('220 catcher ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          this.messages.push(current);
          current = { from: '', to: [], data: '' };
          socket.write('250 OK queued\r\n');
          continue;
        }
        const nl = buffer.indexOf('\r\n');
        if (nl < 0) return;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 catcher\r\n');
        else if (verb === 'MAIL') {
          current.from = line.slice(10);
          socket.write('250 OK\r\n');
        } else if (verb === 'RCPT') {
          current.to.push(line.slice(8));
          socket.write('250 OK\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
          return;
        } else socket.write('250 OK\r\n');
      }
    });
    socket.on('error', () => undefined);
  }
}

/** Undoes quoted-printable soft line breaks and escapes. */
const unQuote = (s: string): string => s.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

describe('password reset mail over SMTP', () => {
  let server: TestServer;
  const catcher = new SmtpCatcher();
  const email = 'smtp.admin@reset.test';

  before(async () => {
    const port = await catcher.listen();
    process.env.DICTUM_SMTP_URL = `smtp://127.0.0.1:${port}`;
    process.env.DICTUM_SMTP_FROM = 'erp@gardenworld.test';
    try {
      server = await startTestServer();
    } finally {
      delete process.env.DICTUM_SMTP_URL;
      delete process.env.DICTUM_SMTP_FROM;
    }
    await server.services.db.query(`UPDATE ad_user SET email = $1 WHERE name = 'GardenAdmin'`, [email]);
  });
  after(async () => {
    await server.close();
    await catcher.close();
  });

  it('sends the code by SMTP in the requested language, not into the outbox', async () => {
    const r = await server.request('POST', '/api/v1/auth/password-reset/request', { body: { email, language: 'fr_FR' } });
    assert.equal(r.status, 200, r.text);
    for (let i = 0; i < 100 && catcher.messages.length === 0; i++) await sleep(20);
    assert.equal(catcher.messages.length, 1);
    const m = catcher.messages[0]!;
    assert.match(m.from, /erp@gardenworld\.test/);
    assert.match(m.to.join(' '), new RegExp(email.replace(/\./g, '\\.')));
    const text = unQuote(m.data);
    assert.match(text, /Subject: .*(r=C3=A9initialisation|réinitialisation|=\?UTF-8\?)/i);
    const code = /\b(\d{6})\b/.exec(text.split(/\r\n\r\n/).slice(1).join('\n'))?.[1];
    assert.ok(code, text);
    const { rows } = await server.services.db.query('SELECT 1 FROM rest_mail');
    assert.equal(rows.length, 0, 'nothing went into the outbox');

    const v = await server.request('POST', '/api/v1/auth/password-reset/verify', { body: { email, code } });
    assert.equal(v.status, 200, v.text);
    const c = await server.request('POST', '/api/v1/auth/password-reset/complete', { body: { verifiedToken: v.body.verifiedToken, newPassword: 'Mail-Sent-2026' } });
    assert.equal(c.status, 200, c.text);
  });

  it('sends nothing for an unknown address and answers the same', async () => {
    const before = catcher.messages.length;
    const r = await server.request('POST', '/api/v1/auth/password-reset/request', { body: { email: 'nobody@nowhere.test' } });
    assert.equal(r.status, 200);
    await sleep(200);
    assert.equal(catcher.messages.length, before);
  });
});
