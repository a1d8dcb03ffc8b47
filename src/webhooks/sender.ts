import http from 'node:http';
import https from 'node:https';
import { lookup } from 'node:dns/promises';
import type { SysConfig } from '../sysconfig/sysconfig.js';
import { attemptSignal } from './attempt-signal.js';
import type { Claimed } from './delivery-store.js';
import { isInternal, parseAddress, parseIpList, inList } from './ip-rules.js';
import type { SendOutcome } from './outcome.js';
import { signatureHeader } from './signature.js';

/** More of a response body than is ever stored (REST_WEBHOOK_LOG_MAX_LENGTH is in characters) is not kept. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * Sends attempts over kept-alive connections (one pool per instance, as many sockets per receiver
 * as the dispatcher has workers): a new TCP and TLS handshake per delivery would cost more than
 * the delivery. Redirects are never followed.
 */
export class WebhookSender {
  readonly #sysConfig: SysConfig;
  readonly #http: http.Agent;
  readonly #https: https.Agent;

  constructor(sysConfig: SysConfig, maxSockets: number) {
    this.#sysConfig = sysConfig;
    this.#http = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
    this.#https = new https.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  }

  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }

  /** The request of one attempt: signed for standard endpoints, within REST_WEBHOOK_TIMEOUT_MS. */
  async send(d: Claimed, now: Date, signal?: AbortSignal): Promise<SendOutcome> {
    const refused = await this.#refusedDestination(d.url);
    if (refused) return { status: null, body: '', error: refused };
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Dictum-Webhooks/1' };
    if (d.isStandard) {
      const stamp = Math.floor(now.getTime() / 1000);
      headers['webhook-id'] = d.messageId;
      headers['webhook-timestamp'] = String(stamp);
      const secrets = [d.secret, d.previousSecret && d.previousExpiry && d.previousExpiry > now ? d.previousSecret : null].filter((x): x is string => !!x);
      if (secrets.length) headers['webhook-signature'] = signatureHeader(secrets, d.messageId, stamp, d.payload);
    }
    const timeoutMs = Math.max(1, await this.#sysConfig.getInt('REST_WEBHOOK_TIMEOUT_MS', 15000, d.clientId));
    const attempt = attemptSignal(timeoutMs, signal);
    try {
      const { status, body } = await this.#post(d.url, headers, d.payload, attempt.signal);
      const ok = status >= 200 && status < 300;
      return { status, body, error: ok ? null : status >= 300 && status < 400 ? `Redirect not followed (HTTP ${status})` : `HTTP ${status}` };
    } catch (e) {
      const err = e as Error & { code?: string };
      const timedOut = attempt.timedOut() && !signal?.aborted;
      return { status: null, body: '', error: timedOut ? `Timed out after ${timeoutMs} ms` : `${err.message}${err.code && !err.message.includes(err.code) ? ` (${err.code})` : ''}` };
    } finally {
      attempt.release();
    }
  }

  #post(url: string, headers: Record<string, string>, payload: string, signal: AbortSignal): Promise<{ status: number; body: string }> {
    const u = new URL(url);
    const secure = u.protocol === 'https:';
    const body = Buffer.from(payload);
    return new Promise((resolve, reject) => {
      const req = (secure ? https : http).request(
        u,
        { method: 'POST', headers: { ...headers, 'content-length': String(body.length) }, agent: secure ? this.#https : this.#http, signal },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            if (size < MAX_BODY_BYTES) chunks.push(c);
            size += c.length;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Why a URL may not be called: an internal address not allowed by REST_WEBHOOK_ALLOWED_HOSTS. */
  async #refusedDestination(url: string): Promise<string | null> {
    const u = new URL(url);
    const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const allowed = parseIpList(await this.#sysConfig.get('REST_WEBHOOK_ALLOWED_HOSTS'));
    if (allowed.names.includes(host)) return null;
    const literal = parseAddress(host);
    let addresses: string[];
    try {
      addresses = literal ? [literal.toString()] : (await lookup(host, { all: true })).map((a) => a.address);
    } catch (e) {
      return `Host not found: ${host} (${(e as Error).message})`;
    }
    for (const a of addresses) {
      if (isInternal(a) && !inList(a, allowed.list)) return `Refused: ${host} resolves to the internal address ${a}, not allowed by REST_WEBHOOK_ALLOWED_HOSTS`;
    }
    return null;
  }
}
