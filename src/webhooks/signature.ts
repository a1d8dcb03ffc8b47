import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** The Standard Webhooks secret prefix. */
export const SECRET_PREFIX = 'whsec_';

/** Receivers accept a timestamp this far from their clock, either way (seconds). */
export const TIMESTAMP_TOLERANCE_S = 300;

/** A new secret: the prefix and 32 random bytes in base64. */
export const generateSecret = (): string => SECRET_PREFIX + randomBytes(32).toString('base64');

/** A new message id: msg_ and a UUID without dashes. */
export const newMessageId = (): string => `msg_${randomUUID().replace(/-/g, '')}`;

/** The key bytes of a secret (base64 after the optional whsec_ prefix); null when it is not base64. */
export function secretKey(secret: string): Buffer | null {
  const text = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 === 1) return null;
  const key = Buffer.from(text, 'base64');
  return key.length ? key : null;
}

/** One signature entry, `v1,<base64 HMAC-SHA256(key, id.timestamp.body)>`. */
export function signEntry(secret: string, msgId: string, timestampS: number, body: string): string {
  const key = secretKey(secret);
  if (!key) throw new Error('the webhook secret is not base64');
  return `v1,${createHmac('sha256', key).update(`${msgId}.${timestampS}.${body}`).digest('base64')}`;
}

/** The webhook-signature header: one entry per secret, separated by spaces (rotation sends two). */
export const signatureHeader = (secrets: readonly string[], msgId: string, timestampS: number, body: string): string =>
  secrets.map((s) => signEntry(s, msgId, timestampS, body)).join(' ');

export type VerifyFailure = 'missing-headers' | 'bad-timestamp' | 'timestamp-out-of-range' | 'no-match';

/**
 * Checks a signed request: the timestamp within the tolerance, then every v1 entry of the header
 * against the secret, each compared in constant time; other versions are ignored.
 */
export function verifySignature(
  secret: string,
  h: { id: string | undefined; timestamp: string | undefined; signature: string | undefined },
  body: string,
  nowS: number,
  toleranceS = TIMESTAMP_TOLERANCE_S,
): VerifyFailure | null {
  if (!h.id || !h.timestamp || !h.signature) return 'missing-headers';
  if (!/^\d{1,12}$/.test(h.timestamp)) return 'bad-timestamp';
  const ts = Number(h.timestamp);
  if (Math.abs(nowS - ts) > toleranceS) return 'timestamp-out-of-range';
  const expected = Buffer.from(signEntry(secret, h.id, ts, body).slice(3), 'base64');
  let ok = false;
  for (const entry of h.signature.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    const given = Buffer.from(entry.slice(comma + 1), 'base64');
    // Every entry is compared (no early exit), so the time spent does not tell which one matched.
    if (given.length === expected.length && timingSafeEqual(given, expected)) ok = true;
  }
  return ok ? null : 'no-match';
}
