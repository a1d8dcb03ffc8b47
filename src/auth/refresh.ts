import { errors, type JWTPayload } from 'jose';
import type { Queryable } from '../db/types.js';
import { ApiError, badRequest, unauthorized } from '../errors.js';
import type { AccessClaims, AuthService, LoginSelection, TokenPair } from './service.js';
import { endSessions } from './sessions.js';
import { sha256, ts, tsMillis } from './util.js';

const INVALID_REFRESH = 'Invalid refresh token';

interface RefreshRow {
  rest_refreshtoken_id: number;
  refreshtoken: string;
  familyid: string | null;
  isactive: string;
  revokedat: unknown;
  expiresat: unknown;
  absoluteexpiresat: unknown;
  ad_session_id: number | null;
  ad_user_id: number | null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null);

/** Reads the selection claims carried by a verified token. */
export function selectionFromClaims(p: JWTPayload): LoginSelection | null {
  const c = p as JWTPayload & Partial<AccessClaims>;
  const clientId = num(c.AD_Client_ID);
  const userId = num(c.AD_User_ID);
  const roleId = num(c.AD_Role_ID);
  const orgId = num(c.AD_Org_ID);
  const sessionId = num(c.AD_Session_ID);
  if (clientId === null || userId === null || roleId === null || orgId === null || sessionId === null || typeof c.AD_Language !== 'string') return null;
  return { clientId, userId, roleId, orgId, sessionId, warehouseId: num(c.M_Warehouse_ID) ?? 0, language: c.AD_Language, userName: typeof p.sub === 'string' ? p.sub : '' };
}

/** Revokes every token descended from the same login (breach: cause B) and ends its session. */
export async function revokeFamily(q: Queryable, familyId: string, sessionId: number | null, cause: 'B' | 'C' | 'M'): Promise<void> {
  const now = ts(Date.now());
  await q.query(`UPDATE rest_refreshtoken SET revokedat = $2, rest_revokecause = $3, updated = $2 WHERE familyid = $1 AND revokedat IS NULL`, [familyId, now, cause]);
  if (sessionId) await endSessions(q, [sessionId], cause, 'breach');
}

/**
 * POST /auth/refresh: a refresh token works once. Its first use marks it used (IsActive = N)
 * and returns a new pair in the same family; a second use is a breach that revokes the family
 * and ends the session, so the stolen and the legitimate copies both stop working.
 */
export async function refreshTokens(auth: AuthService, body: unknown): Promise<TokenPair> {
  const b = (body ?? {}) as Record<string, unknown>;
  const raw = b.refresh_token;
  if (typeof raw !== 'string' || raw.trim() === '') throw badRequest('Bad Request', 'refresh_token is required');
  let payload: JWTPayload;
  try {
    payload = await auth.keys.verify(raw.trim());
  } catch (e) {
    throw unauthorized(INVALID_REFRESH, e instanceof errors.JWTExpired ? 'The refresh token has expired' : 'The refresh token is not valid');
  }
  const sel = selectionFromClaims(payload);
  if (payload.token_use !== 'refresh' || typeof payload.jti !== 'string' || !sel) throw unauthorized(INVALID_REFRESH, 'The refresh token is not valid');

  const needClient = await auth.s.sysConfig.getBool('REST_MANDATORY_CLIENT_ID_ON_REFRESH', false, sel.clientId);
  const needUser = await auth.s.sysConfig.getBool('REST_MANDATORY_USER_ID_ON_REFRESH', false, sel.clientId);
  if (b.clientId === undefined || b.clientId === null || b.clientId === '') {
    if (needClient) throw unauthorized(INVALID_REFRESH, 'No clientId provided');
  } else if (num(b.clientId) !== sel.clientId) throw unauthorized(INVALID_REFRESH, 'The clientId does not match the refresh token');
  if (b.userId === undefined || b.userId === null || b.userId === '') {
    if (needUser) throw unauthorized(INVALID_REFRESH, 'No userId provided');
  } else if (num(b.userId) !== sel.userId) throw unauthorized(INVALID_REFRESH, 'The userId does not match the refresh token');

  const hash = sha256(payload.jti);
  const outcome = await auth.s.db.tx(async (tx): Promise<{ pair: TokenPair } | { error: ApiError; endedSession?: number }> => {
    const { rows } = await tx.query<RefreshRow>(
      `SELECT rest_refreshtoken_id, refreshtoken, familyid, isactive, revokedat, expiresat, absoluteexpiresat, ad_session_id, ad_user_id
         FROM rest_refreshtoken WHERE refreshtoken = $1 FOR UPDATE`,
      [hash],
    );
    const row = rows[0];
    if (!row) return { error: unauthorized(INVALID_REFRESH, 'The refresh token is not valid') };
    if (row.revokedat !== null) return { error: unauthorized(INVALID_REFRESH, 'The refresh token has been revoked') };
    if (row.isactive !== 'Y') {
      await revokeFamily(tx, row.familyid ?? '', row.ad_session_id === null ? null : Number(row.ad_session_id), 'B');
      return { error: unauthorized(INVALID_REFRESH, 'The refresh token was already used; all tokens of this login are revoked'), endedSession: Number(row.ad_session_id) };
    }
    const now = Date.now();
    const exp = tsMillis(row.expiresat);
    const absolute = tsMillis(row.absoluteexpiresat) ?? exp ?? now;
    if ((exp !== null && exp <= now) || absolute <= now) return { error: unauthorized(INVALID_REFRESH, 'The refresh token has expired') };
    if (Number(row.ad_user_id) !== sel.userId || Number(row.ad_session_id) !== sel.sessionId) return { error: unauthorized(INVALID_REFRESH, 'The refresh token is not valid') };
    const { rows: ses } = await tx.query<{ processed: string }>('SELECT processed FROM ad_session WHERE ad_session_id = $1', [sel.sessionId]);
    if (!ses.length || ses[0]!.processed === 'Y') return { error: unauthorized(INVALID_REFRESH, 'The session has ended') };
    const { rows: users } = await tx.query<{ islocked: string | null }>(`SELECT islocked FROM ad_user WHERE ad_user_id = $1 AND isactive = 'Y'`, [sel.userId]);
    if (!users.length || users[0]!.islocked === 'Y') return { error: unauthorized(INVALID_REFRESH, 'The account is not active') };
    await tx.query(`UPDATE rest_refreshtoken SET isactive = 'N', updated = $2 WHERE rest_refreshtoken_id = $1`, [row.rest_refreshtoken_id, ts(now)]);
    const pair = await auth.issuePair(tx, sel, { familyId: row.familyid ?? globalThis.crypto.randomUUID(), parentHash: row.refreshtoken, absoluteExpiresAt: absolute });
    return { pair };
  });
  if ('error' in outcome) {
    if (outcome.endedSession) auth.sessions.markEnded(outcome.endedSession);
    throw outcome.error;
  }
  return outcome.pair;
}

/**
 * The process "Expire Refresh Tokens": revokes every refresh token still usable (cause M), of
 * one client or of all. Access tokens already issued run out at their expiry. Returns how many
 * tokens were revoked.
 */
export async function expireRefreshTokens(db: Queryable, clientId?: number | null): Promise<number> {
  const now = ts(Date.now());
  const { rowCount } = await db.query(
    `UPDATE rest_refreshtoken SET revokedat = $1, rest_revokecause = 'M', updated = $1
      WHERE revokedat IS NULL AND isactive = 'Y' AND ($2::bigint IS NULL OR ad_client_id = $2)`,
    [now, clientId ?? null],
  );
  return rowCount;
}

/** POST /auth/logout: ends the token's session; the token and its refresh family stop working. */
export async function logout(auth: AuthService, body: unknown, bearer: string | null): Promise<{ summary: string }> {
  const b = (body ?? {}) as Record<string, unknown>;
  const token = typeof b.token === 'string' && b.token.trim() !== '' ? b.token.trim() : bearer;
  if (!token) throw badRequest('Bad Request', 'token is required');
  let payload: JWTPayload;
  try {
    payload = await auth.keys.verify(token);
  } catch (e) {
    // An expired token may still end its session: the signature was checked before the expiry.
    if (e instanceof errors.JWTExpired) payload = e.payload;
    else throw unauthorized('Invalid token', 'The token is not valid');
  }
  if (payload.token_use === 'refresh') throw unauthorized('Invalid token', 'A refresh token cannot be used here');
  const sessionId = num((payload as Partial<AccessClaims>).AD_Session_ID);
  if (!sessionId) throw new ApiError(404, 'AD_Session_ID not found');
  await auth.s.db.tx((tx) => endSessions(tx, [sessionId], 'L'));
  auth.sessions.markEnded(sessionId);
  return { summary: 'OK' };
}
