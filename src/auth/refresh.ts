import { errors, type JWTPayload } from 'jose';
import type { Queryable } from '../db/types.js';
import { ApiError, badRequest } from '../errors.js';
import { tokenError } from './errors.js';
import type { LogoutBody, RefreshBody } from './schemas.js';
import type { AccessClaims, AuthService, LoginSelection, TokenPair } from './service.js';
import { endSessions } from './sessions.js';
import { sha256, ts, tsMillis } from './util.js';

export const INVALID_REFRESH = 'Invalid refresh token';

interface RefreshRow {
  rest_refreshtoken_id: number;
  rest_refreshtoken_uu: string;
  familyid: string | null;
  isactive: string;
  revokedat: unknown;
  expiresat: unknown;
  absoluteexpiresat: unknown;
  ad_session_id: number | null;
  ad_user_id: number | null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : null);
const absent = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

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

/** Revokes every token descended from the same login and ends its session. */
export async function revokeFamily(q: Queryable, familyId: string, sessionId: number | null, cause: 'B' | 'C' | 'M'): Promise<void> {
  const now = ts(Date.now());
  await q.query(`UPDATE rest_refreshtoken SET revokedat = $2, rest_revokecause = $3, updated = $2 WHERE familyid = $1 AND revokedat IS NULL`, [familyId, now, cause]);
  if (sessionId) await endSessions(q, [sessionId], cause, 'breach');
}

const refreshError = (detail: string): ApiError => tokenError(INVALID_REFRESH, detail);

/**
 * POST /auth/refresh: a refresh token works once. Its first use marks it used (IsActive = N)
 * and returns a new pair in the same family; a second use is a breach that revokes the family
 * and ends the session, so the stolen and the legitimate copies both stop working.
 */
export async function refreshTokens(auth: AuthService, body: RefreshBody): Promise<TokenPair> {
  const raw = body.refresh_token.trim();
  if (raw === '') throw badRequest('Bad Request', 'refresh_token is required');
  let payload: JWTPayload;
  try {
    payload = await auth.keys.verify(raw);
  } catch (e) {
    throw refreshError(e instanceof errors.JWTExpired ? 'The refresh token has expired' : 'The refresh token is not valid');
  }
  const sel = selectionFromClaims(payload);
  if (payload.token_use !== 'refresh' || typeof payload.jti !== 'string' || !sel) throw refreshError('The refresh token is not valid');

  const needClient = await auth.s.sysConfig.getBool('REST_MANDATORY_CLIENT_ID_ON_REFRESH', false, sel.clientId);
  const needUser = await auth.s.sysConfig.getBool('REST_MANDATORY_USER_ID_ON_REFRESH', false, sel.clientId);
  if (absent(body.clientId)) {
    if (needClient) throw refreshError('No clientId provided');
  } else if (num(body.clientId) !== sel.clientId) throw refreshError('The clientId does not match the refresh token');
  if (absent(body.userId)) {
    if (needUser) throw refreshError('No userId provided');
  } else if (num(body.userId) !== sel.userId) throw refreshError('The userId does not match the refresh token');

  const hash = sha256(payload.jti);
  const life = await auth.lifetimes(sel.clientId);
  await auth.keys.ready();
  const outcome = await auth.s.db.tx(async (tx): Promise<{ pair: TokenPair } | { error: ApiError; endedSession?: number }> => {
    const { rows } = await tx.query<RefreshRow>(
      `SELECT rest_refreshtoken_id, rest_refreshtoken_uu, familyid, isactive, revokedat, expiresat, absoluteexpiresat, ad_session_id, ad_user_id
         FROM rest_refreshtoken WHERE ad_client_id = $1 AND refreshtoken = $2 FOR UPDATE`,
      [sel.clientId, hash],
    );
    const row = rows[0];
    if (!row) return { error: refreshError('The refresh token is not valid') };
    if (row.revokedat !== null) return { error: refreshError('The refresh token has been revoked') };
    const sessionId = row.ad_session_id === null ? null : Number(row.ad_session_id);
    if (row.isactive !== 'Y') {
      await revokeFamily(tx, row.familyid ?? '', sessionId, 'B');
      return { error: refreshError('The refresh token was already used; all tokens of this login are revoked'), ...(sessionId ? { endedSession: sessionId } : {}) };
    }
    const now = Date.now();
    const exp = tsMillis(row.expiresat);
    const absolute = tsMillis(row.absoluteexpiresat) ?? exp ?? now;
    if ((exp !== null && exp <= now) || absolute <= now) return { error: refreshError('The refresh token has expired') };
    if (Number(row.ad_user_id) !== sel.userId || sessionId !== sel.sessionId) return { error: refreshError('The refresh token is not valid') };
    const { rows: ses } = await tx.query<{ processed: string }>('SELECT processed FROM ad_session WHERE ad_session_id = $1', [sel.sessionId]);
    if (!ses.length || ses[0]!.processed === 'Y') return { error: refreshError('The session has ended') };
    const { rows: users } = await tx.query<{ islocked: string | null }>(`SELECT islocked FROM ad_user WHERE ad_user_id = $1 AND isactive = 'Y'`, [sel.userId]);
    if (!users.length || users[0]!.islocked === 'Y') return { error: refreshError('The account is not active') };
    await tx.query(`UPDATE rest_refreshtoken SET isactive = 'N', updated = $2 WHERE rest_refreshtoken_id = $1`, [row.rest_refreshtoken_id, ts(now)]);
    const pair = await auth.issuePair(tx, sel, life, { familyId: row.familyid ?? crypto.randomUUID(), parentUu: row.rest_refreshtoken_uu, absoluteExpiresAt: absolute });
    return { pair };
  });
  if ('error' in outcome) {
    if (outcome.endedSession) auth.sessions.markEnded(outcome.endedSession);
    throw outcome.error;
  }
  return outcome.pair;
}

/** Parameters of the process "Expire Refresh Tokens" (AD_Process Value REST_ExpireRefreshTokens). */
export interface ExpireRefreshTokensParams {
  /** The client the process runs for; 0 is System. */
  clientId: number;
  /** Only the tokens of this user (AD_User_ID parameter); all users of the client when absent or 0. */
  userId?: number | null;
  /** REST_AllTokens: from System (client 0), the tokens of every client. */
  allTokens?: boolean;
}

export interface ExpireRefreshTokensResult {
  /** Refresh tokens that were still usable and are now revoked (cause M). */
  revoked: number;
  /** Rows removed because their refresh token had expired (it can no longer be presented). */
  deleted: number;
  /** The process summary. */
  summary: string;
}

/**
 * The work of the process "Expire Refresh Tokens": removes refresh token rows that can no
 * longer be used (absolutely expired), then revokes (cause M) every still usable refresh token
 * of the process's client, or of one user of it, or, run from System with allTokens, of every
 * client. Revoked rows are kept until they expire so that a later use is recognised and
 * refused. Access tokens already issued stay valid until their own expiry.
 */
export async function expireRefreshTokens(q: Queryable, p: ExpireRefreshTokensParams): Promise<ExpireRefreshTokensResult> {
  const now = ts(Date.now());
  const removed = await q.query(`DELETE FROM rest_refreshtoken WHERE expiresat < $1`, [now]);
  const everyClient = p.clientId === 0 && p.allTokens === true;
  const userId = p.userId && p.userId > 0 ? p.userId : null;
  const revoked = await q.query(
    `UPDATE rest_refreshtoken SET revokedat = $1, rest_revokecause = 'M', updated = $1
      WHERE revokedat IS NULL AND isactive = 'Y' AND ($2::boolean OR ad_client_id = $3) AND ($4::bigint IS NULL OR ad_user_id = $4)`,
    [now, everyClient, p.clientId, userId],
  );
  return {
    revoked: revoked.rowCount,
    deleted: removed.rowCount,
    summary: `Refresh tokens revoked: ${revoked.rowCount}; expired tokens removed: ${removed.rowCount}`,
  };
}

/** POST /auth/logout: ends the token's session; the token and its refresh family stop working. */
export async function logout(auth: AuthService, body: LogoutBody, bearer: string | null): Promise<{ summary: string }> {
  const token = body.token && body.token.trim() !== '' ? body.token.trim() : bearer;
  if (!token) throw badRequest('Bad Request', 'token is required');
  let payload: JWTPayload;
  try {
    payload = await auth.keys.verify(token);
  } catch (e) {
    // An expired token may still end its session: its signature was checked before the expiry.
    if (e instanceof errors.JWTExpired) payload = e.payload;
    else throw tokenError('Invalid token', 'The token is not valid');
  }
  if (payload.token_use === 'refresh') throw tokenError('Invalid token', 'A refresh token cannot be used here');
  const sessionId = num((payload as Partial<AccessClaims>).AD_Session_ID);
  if (!sessionId) throw new ApiError(404, 'AD_Session_ID not found');
  await auth.s.db.tx((tx) => endSessions(tx, [sessionId], 'L'));
  auth.sessions.markEnded(sessionId);
  return { summary: 'OK' };
}
