import { randomInt } from 'node:crypto';
import type { Queryable } from '../db/types.js';
import { ApiError, badRequest } from '../errors.js';
import { tooMany } from './errors.js';
import type { Mail } from './mailer.js';
import { resetTemplate } from './mailer.js';
import { passwordViolations } from './password-policy.js';
import { hashPassword, verifyHash } from './passwords.js';
import { parsers, type ResetCompleteBody, type ResetRequestBody } from './schemas.js';
import type { AuthService } from './service.js';
import { endUserSessions } from './sessions.js';
import { atLeast, insertRow, loginFailureKey, randomSecret, sha256, ts, tsMillis } from './util.js';

/**
 * Password reset by e-mail code: request-code, verify, complete. Tuned by the PASSWORD_RESET_*
 * SysConfig keys (System level); the defaults are below and in docs/auth.md.
 */
export const RESET_DEFAULTS = {
  /** How long a code may be verified (a core key). */
  PASSWORD_RESET_CODE_EXPIRY_MINUTES: 15,
  /** Wrong codes before the code locks (a core key). */
  PASSWORD_RESET_MAX_ATTEMPTS: 5,
  /** Requests per e-mail address within an hour; beyond: 429 (a core key). */
  PASSWORD_RESET_MAX_REQUESTS_PER_HOUR: 5,
  /** Requests per remote address within an hour; beyond: 429. */
  PASSWORD_RESET_MAX_REQUESTS_PER_HOUR_PER_ADDRESS: 20,
  /** Digits of the code sent by e-mail (4 to 12). */
  PASSWORD_RESET_CODE_LENGTH: 6,
  /** How long the verifiedToken may be used to complete. */
  PASSWORD_RESET_TOKEN_EXPIRY_MINUTES: 10,
  /** The password policy's minimum length. */
  PASSWORD_RESET_MIN_PASSWORD_LENGTH: 8,
  /** Request-code and verify answer no earlier than this, whatever happened. */
  PASSWORD_RESET_MIN_RESPONSE_MS: 400,
} as const;

type ResetSetting = keyof typeof RESET_DEFAULTS;

export const NEUTRAL_SUMMARY = 'If the e-mail address belongs to an account, a password reset code has been sent to it';
export const CHANGED_SUMMARY = 'The password has been changed; every session of the account has ended';
const RESET_ERROR = 'Password reset error';
/** The one answer of verify for every failure: it tells nothing about accounts. */
export const VERIFY_FAILED = 'The e-mail address or code is missing, wrong or expired, or too many attempts were made';
const TOKEN_FAILED = 'The verifiedToken is missing, invalid or expired';

const uniformVerifyError = (): ApiError => badRequest(RESET_ERROR, VERIFY_FAILED);

/** The quotas count requests within the last hour. */
export const RESET_QUOTA_WINDOW_MS = 60 * 60_000;

/** Longest e-mail address that can be stored (AD_User.EMail and REST_PasswordReset.EMail). */
const EMAIL_MAX = 60;

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** A random numeric code with leading zeros, from the cryptographic generator. */
export function randomCode(digits: number): string {
  const n = Math.min(12, Math.max(4, Math.floor(digits)));
  let out = '';
  for (let i = 0; i < n; i++) out += String(randomInt(0, 10));
  return out;
}

async function setting(auth: AuthService, name: ResetSetting): Promise<number> {
  const v = await auth.s.sysConfig.getInt(name, RESET_DEFAULTS[name]);
  return Number.isFinite(v) && v >= 0 ? v : RESET_DEFAULTS[name];
}

interface ResetUser {
  ad_user_id: number;
  name: string;
  email: string;
  ad_client_id: number;
  ad_language: string | null;
}

/**
 * POST /auth/password-reset/request. Always the same neutral 200 (or 429 beyond a quota, which
 * counts requests for unknown addresses too); the same work is done whether or not an account
 * has the address, and the answer is padded to a fixed minimum time.
 */
export async function requestCode(auth: AuthService, body: ResetRequestBody, remoteAddr: string): Promise<{ summary: string }> {
  const email = normalizeEmail(body.email);
  if (email === '') throw badRequest('Bad Request', 'email is required');
  const minMs = await setting(auth, 'PASSWORD_RESET_MIN_RESPONSE_MS');
  return atLeast(minMs, async () => {
    const windowMs = RESET_QUOTA_WINDOW_MS;
    const maxRequests = await setting(auth, 'PASSWORD_RESET_MAX_REQUESTS_PER_HOUR');
    const maxPerAddress = await setting(auth, 'PASSWORD_RESET_MAX_REQUESTS_PER_HOUR_PER_ADDRESS');
    const addrKey = `reset:${remoteAddr}`;
    const retry = Math.max(1, windowMs / 1000);
    if (maxPerAddress > 0 && (await auth.resetRequests.count(addrKey, windowMs)) >= maxPerAddress) {
      throw tooMany('Too many password reset requests; try again later', retry);
    }
    await auth.resetRequests.add([addrKey]);

    const code = randomCode(await setting(auth, 'PASSWORD_RESET_CODE_LENGTH'));
    const codeHash = await hashPassword(code);
    if (email.length > EMAIL_MAX) return { summary: NEUTRAL_SUMMARY };

    const db = auth.s.db;
    const { rows: users } = await db.query<ResetUser>(
      `SELECT u.ad_user_id, u.name, u.email, u.ad_client_id, c.ad_language
         FROM ad_user u JOIN ad_client c ON c.ad_client_id = u.ad_client_id
        WHERE u.isactive = 'Y' AND c.isactive = 'Y' AND lower(btrim(u.email)) = $1 AND COALESCE(u.isnopasswordreset, 'N') <> 'Y'`,
      [email],
    );
    // Several accounts sharing one address cannot be told apart by the request: none is reset.
    const user = users.length === 1 ? users[0]! : null;
    if (users.length > 1) auth.s.log.warn({ accounts: users.length }, 'password reset requested for an e-mail address shared by several accounts');
    const requested = typeof body.language === 'string' && body.language.trim() !== '' ? body.language.trim().replace('-', '_') : null;
    const { language, template } = resetTemplate(requested ?? user?.ad_language ?? 'en_US');
    const expireMinutes = await setting(auth, 'PASSWORD_RESET_CODE_EXPIRY_MINUTES');
    const now = Date.now();
    const mail: Mail | null = user
      ? { to: user.email.trim(), subject: template.subject, text: template.body(code, expireMinutes, user.name), language, clientId: Number(user.ad_client_id) }
      : null;

    const overQuota = await db.tx(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`dictum.password_reset:${email}`]);
      const { rows } = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM rest_passwordreset WHERE lower(email) = $1 AND created >= $2`, [
        email,
        ts(now - windowMs),
      ]);
      if (maxRequests > 0 && Number(rows[0]?.n ?? 0) >= maxRequests) return true;
      // A newer request invalidates every earlier code of the address.
      await tx.query(`UPDATE rest_passwordreset SET isactive = 'N', updated = $2 WHERE lower(email) = $1 AND isactive = 'Y'`, [email, ts(now)]);
      await insertRow(
        tx,
        'REST_PasswordReset',
        {
          ad_user_id: user ? Number(user.ad_user_id) : null,
          email,
          codehash: codeHash,
          expiresat: ts(now + expireMinutes * 60_000),
          attempts: 0,
          isused: 'N',
          islocked: 'N',
          language,
        },
        { clientId: user ? Number(user.ad_client_id) : 0, userId: user ? Number(user.ad_user_id) : 0 },
      );
      if (mail && auth.mailer.kind === 'outbox') await auth.mailer.send(tx, mail);
      return false;
    });
    if (overQuota) throw tooMany('Too many password reset requests for this address; try again later', retry);
    if (mail && auth.mailer.kind === 'smtp') await auth.mailer.send(db, mail);
    return { summary: NEUTRAL_SUMMARY };
  });
}

interface ResetRow {
  rest_passwordreset_id: number;
  ad_user_id: number | null;
  codehash: string | null;
  expiresat: unknown;
  attempts: number | null;
  islocked: string | null;
}

/**
 * POST /auth/password-reset/verify. One uniform 400 for every failure (missing fields, wrong,
 * expired or used code, too many attempts); one argon2 verification whatever the case, and the
 * same minimum answer time. Each try is counted before the code is checked, so parallel
 * guesses cannot exceed the limit.
 */
export async function verifyCode(auth: AuthService, rawBody: unknown): Promise<{ verifiedToken: string }> {
  const minMs = await setting(auth, 'PASSWORD_RESET_MIN_RESPONSE_MS');
  return atLeast(minMs, async () => {
    let email = '';
    let code = '';
    try {
      const body = parsers.resetVerify.parse(rawBody, uniformVerifyError);
      email = normalizeEmail(body.email);
      code = body.code.trim();
    } catch (e) {
      await verifyHash(null, 'missing');
      throw e;
    }
    const db = auth.s.db;
    const maxAttempts = Math.max(1, await setting(auth, 'PASSWORD_RESET_MAX_ATTEMPTS'));
    const { rows } = await db.query<ResetRow>(
      `SELECT rest_passwordreset_id, ad_user_id, codehash, expiresat, attempts, islocked FROM rest_passwordreset
        WHERE lower(email) = $1 AND isactive = 'Y' AND isused = 'N' ORDER BY created DESC, rest_passwordreset_id DESC LIMIT 1`,
      [email],
    );
    const row = rows[0];
    const now = Date.now();
    let reserved = false;
    if (row && row.codehash && (tsMillis(row.expiresat) ?? 0) > now) {
      const r = await db.query(
        `UPDATE rest_passwordreset SET attempts = COALESCE(attempts, 0) + 1, updated = $4,
                islocked = CASE WHEN COALESCE(attempts, 0) + 1 >= $2 THEN 'Y' ELSE islocked END
          WHERE rest_passwordreset_id = $1 AND codehash = $3 AND isactive = 'Y' AND isused = 'N' AND COALESCE(islocked, 'N') <> 'Y' AND COALESCE(attempts, 0) < $2`,
        [row.rest_passwordreset_id, maxAttempts, row.codehash, ts(now)],
      );
      reserved = r.rowCount === 1;
    }
    const ok = await verifyHash(reserved ? row!.codehash : null, code);
    if (!ok || !row || row.ad_user_id === null) throw uniformVerifyError();

    const verifiedToken = randomSecret(32);
    const tokenMinutes = await setting(auth, 'PASSWORD_RESET_TOKEN_EXPIRY_MINUTES');
    const done = await db.query(
      `UPDATE rest_passwordreset SET codehash = NULL, islocked = 'N', verifiedtokenhash = $3, verifiedexpiresat = $4, updated = $5
        WHERE rest_passwordreset_id = $1 AND codehash = $2 AND isactive = 'Y' AND isused = 'N'`,
      [row.rest_passwordreset_id, row.codehash, sha256(verifiedToken), ts(now + tokenMinutes * 60_000), ts(now)],
    );
    if (done.rowCount !== 1) throw uniformVerifyError();
    return { verifiedToken };
  });
}

/**
 * POST /auth/password-reset/complete: consumes the verifiedToken, enforces the password policy,
 * changes the password and ends every session and refresh family of the account. A policy
 * violation leaves the token usable for another try.
 */
export async function completeReset(auth: AuthService, body: ResetCompleteBody): Promise<{ summary: string }> {
  const invalid = (): ApiError => badRequest(RESET_ERROR, TOKEN_FAILED);
  const db = auth.s.db;
  const tokenHash = sha256(body.verifiedToken.trim());
  const { rows } = await db.query<{ rest_passwordreset_id: number; ad_user_id: number | null; verifiedexpiresat: unknown }>(
    `SELECT rest_passwordreset_id, ad_user_id, verifiedexpiresat FROM rest_passwordreset
      WHERE verifiedtokenhash = $1 AND isactive = 'Y' AND isused = 'N'`,
    [tokenHash],
  );
  const row = rows[0];
  const now = Date.now();
  if (!row || row.ad_user_id === null || (tsMillis(row.verifiedexpiresat) ?? 0) <= now) throw invalid();
  const userId = Number(row.ad_user_id);
  const { rows: users } = await db.query<{ name: string; email: string | null }>(`SELECT name, email FROM ad_user WHERE ad_user_id = $1 AND isactive = 'Y'`, [userId]);
  const user = users[0];
  if (!user) throw invalid();

  const violations = passwordViolations(body.newPassword, { userName: user.name, email: user.email }, { minLength: await setting(auth, 'PASSWORD_RESET_MIN_PASSWORD_LENGTH') });
  if (violations.length) throw badRequest('Password policy violated', violations.join('; '));
  const newHash = await hashPassword(body.newPassword);

  const ended = await db.tx(async (tx) => {
    const used = await tx.query(
      `UPDATE rest_passwordreset SET isused = 'Y', isactive = 'N', verifiedtokenhash = NULL, updated = $3
        WHERE rest_passwordreset_id = $1 AND verifiedtokenhash = $2 AND isactive = 'Y' AND isused = 'N'`,
      [row.rest_passwordreset_id, tokenHash, ts(now)],
    );
    if (used.rowCount !== 1) return null;
    await tx.query(`UPDATE rest_passwordreset SET isactive = 'N', updated = $2 WHERE ad_user_id = $1 AND isactive = 'Y'`, [userId, ts(now)]);
    await tx.query(
      `UPDATE ad_user SET password = $2, datepasswordchanged = $3, islocked = 'N', failedlogincount = 0, dateaccountlocked = NULL,
              isexpired = 'N', updated = $3, updatedby = $1
        WHERE ad_user_id = $1`,
      [userId, newHash, ts(now)],
    );
    return endUserSessions(tx, userId, 'P');
  });
  if (ended === null) throw invalid();
  for (const id of ended) auth.sessions.markEnded(id);
  await auth.failures.reset(loginFailureKey(user.name));
  return { summary: CHANGED_SUMMARY };
}

/** Removes reset requests older than the longest quota window worth keeping (7 days by default). */
export async function purgePasswordResets(q: Queryable, olderThanMs = 7 * 24 * 60 * 60_000): Promise<number> {
  const r = await q.query(`DELETE FROM rest_passwordreset WHERE created < $1`, [ts(Date.now() - olderThanMs)]);
  return r.rowCount;
}
