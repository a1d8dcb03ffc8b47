import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { nextId, uuidv7 } from '../db/ids.js';
import type { Queryable } from '../db/types.js';

/** SHA-256 in hex: how high-entropy secrets (refresh token ids, verified tokens) are stored. */
export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

/** Compares two secrets in constant time; hashing first makes the lengths equal. */
export function constantTimeEquals(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a, 'utf8').digest();
  const hb = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(ha, hb);
}

/** A URL-safe random secret of the given number of bytes. */
export const randomSecret = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** A JS date as a `timestamp` (UTC, no zone) parameter; the Z is ignored by PostgreSQL on purpose. */
export const ts = (d: Date | number): string => new Date(d).toISOString();

/** A `timestamp` column value (UTC text from the type parsers) as milliseconds since the epoch. */
export function tsMillis(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.getTime();
  const s = String(v).trim().replace(' ', 'T');
  const t = Date.parse(/[zZ]|[+-]\d\d(:?\d\d)?$/.test(s) ? s : `${s}Z`);
  return Number.isNaN(t) ? null : t;
}

/** Minutes from SysConfig as milliseconds; fractions are allowed (0.05 = 3 s), zero or less means the default. */
export function minutesToMs(minutes: number, defMinutes: number): number {
  const m = Number.isFinite(minutes) && minutes > 0 ? minutes : defMinutes;
  return Math.round(m * 60_000);
}

/**
 * Inserts one row of a dictionary table, filling the standard columns (key from the table's
 * sequence, UUID, client, org, active flag, who and when). Column names are constants of the
 * caller, values are always parameters.
 */
export async function insertRow(
  q: Queryable,
  table: string,
  values: Record<string, unknown>,
  who: { clientId?: number; orgId?: number; userId?: number } = {},
): Promise<number> {
  const t = table.toLowerCase();
  const id = typeof values[`${t}_id`] === 'number' ? (values[`${t}_id`] as number) : await nextId(q, t);
  const now = ts(Date.now());
  const row: Record<string, unknown> = {
    [`${t}_id`]: id,
    [`${t}_uu`]: uuidv7(),
    ad_client_id: who.clientId ?? 0,
    ad_org_id: who.orgId ?? 0,
    isactive: 'Y',
    created: now,
    createdby: who.userId ?? 0,
    updated: now,
    updatedby: who.userId ?? 0,
    ...values,
  };
  const cols = Object.keys(row);
  await q.query(
    `INSERT INTO ${t} (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
    cols.map((c) => row[c]),
  );
  return id;
}

/** The key under which failed logins of a user name are counted. */
export const loginFailureKey = (userName: string): string => `user:${userName.trim().toLowerCase()}`;

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Runs fn and answers no earlier than minMs after the start, whether fn succeeds or throws:
 * responses whose work differs with the existence of an account take the same time.
 */
export async function atLeast<T>(minMs: number, fn: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await fn();
  } finally {
    const rest = minMs - (performance.now() - start);
    if (rest > 0) await sleep(rest);
  }
}
