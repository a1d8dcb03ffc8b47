import { hostname } from 'node:os';
import type { ApiError } from '../errors.js';
import { BAD_CREDENTIALS, authError, tooMany } from './errors.js';
import { eligibleRoles, LoginResolver, type LoginUser, type Resolved } from './login-choices.js';
import { MAX_PASSWORD_LENGTH, hashPassword, isPhc, needsRehash, verifyPassword } from './passwords.js';
import type { LoginBody, LoginParameters } from './schemas.js';
import { AUTH_DEFAULTS, type AuthService, type LoginSelection, type TokenPair } from './service.js';
import { openSession } from './sessions.js';
import { loginFailureKey, sleep, ts, tsMillis } from './util.js';

const tooManyLogins = (retryAfterSeconds: number): ApiError => tooMany('Too many failed login attempts; try again later', retryAfterSeconds);

interface UserRow {
  ad_user_id: number;
  name: string;
  password: string | null;
  islocked: string | null;
  dateaccountlocked: unknown;
  failedlogincount: number | null;
  isexpired: string | null;
}

/**
 * Checks user name and password. Unknown users cost the same hashing work as known ones and
 * get the same answer. Failures are counted per user name and per remote address in the database (shared by all instances)
 * (429 beyond the limits) and per account in AD_User.FailedLoginCount, which locks the account
 * (429 while locked, whatever password is given, so a lock does not confirm a guess).
 */
export async function checkCredentials(auth: AuthService, body: LoginBody, remoteAddr: string): Promise<LoginUser> {
  const start = performance.now();
  try {
    return await checkCredentialsNow(auth, body, remoteAddr);
  } catch (e) {
    // A known user's failure writes its failure count, an unknown one's writes nothing: every
    // failure is padded to the same floor, so the time tells nothing about the account.
    const rest = (await auth.int('REST_LOGIN_FAILURE_MIN_RESPONSE_MS')) - (performance.now() - start);
    if (rest > 0) await sleep(rest);
    throw e;
  }
}

async function checkCredentialsNow(auth: AuthService, body: LoginBody, remoteAddr: string): Promise<LoginUser> {
  const { userName, password } = body;
  if (userName.trim() === '') throw authError(BAD_CREDENTIALS);

  const windowMs = await auth.minutes('REST_LOGIN_FAILURE_WINDOW_MINUTES');
  const maxAttempts = await auth.int('REST_LOGIN_MAX_FAILED_ATTEMPTS');
  const maxPerAddress = await auth.int('REST_LOGIN_MAX_FAILURES_PER_ADDRESS');
  const nameKey = loginFailureKey(userName);
  const addrKey = `addr:${remoteAddr}`;
  if ((maxPerAddress > 0 && (await auth.failures.count(addrKey, windowMs)) >= maxPerAddress) || (maxAttempts > 0 && (await auth.failures.count(nameKey, windowMs)) >= maxAttempts)) {
    throw tooManyLogins(windowMs / 1000);
  }
  const now = Date.now();
  if (userName.length > 256 || password.length > MAX_PASSWORD_LENGTH) {
    await auth.failures.add([nameKey, addrKey], now);
    await verifyPassword(null, password.slice(0, MAX_PASSWORD_LENGTH));
    throw authError(BAD_CREDENTIALS);
  }

  const byEmail = await auth.s.sysConfig.getBool('USE_EMAIL_FOR_LOGIN', false);
  const { rows: candidates } = await auth.s.db.query<UserRow>(
    `SELECT ad_user_id, name, password, islocked, dateaccountlocked, failedlogincount, isexpired
       FROM ad_user WHERE isactive = 'Y' AND (name = $1 OR ($2 AND lower(btrim(email)) = lower(btrim($1))))
      ORDER BY ad_user_id`,
    [userName, byEmail],
  );

  let matched: UserRow | null = null;
  if (!candidates.length) await verifyPassword(null, password);
  for (const c of candidates) {
    if (await verifyPassword(c.password, password)) {
      matched = c;
      break;
    }
  }

  // A lock ends by itself after REST_LOGIN_LOCK_MINUTES (> 0); with 0 only an administrator or a password reset ends it.
  const lockMinutes = Number((await auth.s.sysConfig.get('REST_LOGIN_LOCK_MINUTES')) ?? AUTH_DEFAULTS.REST_LOGIN_LOCK_MINUTES);
  const lockMs = Number.isFinite(lockMinutes) && lockMinutes >= 0 ? lockMinutes * 60_000 : AUTH_DEFAULTS.REST_LOGIN_LOCK_MINUTES * 60_000;
  const lockedUntil = (c: UserRow): number | null => {
    if (c.islocked !== 'Y') return null;
    if (lockMs <= 0) return Number.POSITIVE_INFINITY;
    const until = (tsMillis(c.dateaccountlocked) ?? now) + lockMs;
    return until > now ? until : null;
  };

  if (!matched) {
    const locked = candidates.map(lockedUntil);
    if (candidates.length && locked.every((u) => u !== null)) {
      const until = Math.min(...(locked as number[]));
      throw tooManyLogins(Number.isFinite(until) ? (until - now) / 1000 : windowMs / 1000);
    }
    await auth.failures.add([nameKey, addrKey], now);
    // Runs for unknown names too (on no rows), so both cases cost the same round trip. An
    // expired lock starts a new count.
    const open = candidates.filter((_, i) => locked[i] === null).map((c) => Number(c.ad_user_id));
    await auth.s.db.query(
      `UPDATE ad_user SET failedlogincount = n.count,
              islocked = CASE WHEN $2 > 0 AND n.count >= $2 THEN 'Y' ELSE 'N' END,
              dateaccountlocked = CASE WHEN $2 > 0 AND n.count >= $2 THEN $3::timestamp ELSE NULL END
         FROM (SELECT ad_user_id AS id, CASE WHEN islocked = 'Y' THEN 1 ELSE COALESCE(failedlogincount, 0) + 1 END AS count
                 FROM ad_user WHERE ad_user_id = ANY($1::bigint[])) n
        WHERE ad_user.ad_user_id = n.id`,
      [open, maxAttempts, ts(now)],
    );
    throw authError(BAD_CREDENTIALS);
  }

  const userId = Number(matched.ad_user_id);
  const until = lockedUntil(matched);
  if (until !== null) throw tooManyLogins(Number.isFinite(until) ? (until - now) / 1000 : windowMs / 1000);
  if (matched.isexpired === 'Y') throw authError('The password has expired; reset it before logging in');

  await auth.failures.reset(nameKey);
  // A clear-text password, or a hash made with older settings, is re-hashed with the current ones.
  const newHash = matched.password && (!isPhc(matched.password) || needsRehash(matched.password)) ? await hashPassword(password) : null;
  await auth.s.db.query(
    `UPDATE ad_user SET failedlogincount = 0, islocked = 'N', dateaccountlocked = NULL, datelastlogin = $2, password = COALESCE($3, password) WHERE ad_user_id = $1`,
    [userId, ts(now), newHash],
  );
  const roles = await eligibleRoles(auth, [userId]);
  if (!roles.length) throw authError('The user has no role that may log in through the REST API (Role Type WebService or blank)');
  return { userId, userName: matched.name, roles };
}

/** Opens the session and issues the token pair; returns the final login response in the original key order. */
export async function completeLogin(
  auth: AuthService,
  sel: Omit<LoginSelection, 'sessionId'>,
  shown: Resolved,
  remoteAddr: string,
  extra: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const { rows } = await auth.s.db.query<{ ad_tree_menu_id: number | null }>('SELECT ad_tree_menu_id FROM ad_role WHERE ad_role_id = $1', [sel.roleId]);
  const menuTreeId = Number(rows[0]?.ad_tree_menu_id ?? 0) || 10;
  const serverName = auth.s.config.nodeId || hostname();
  const life = await auth.lifetimes(sel.clientId);
  await auth.keys.ready();
  const pair: TokenPair = await auth.s.db.tx(async (tx) => {
    const sessionId = await openSession(tx, { clientId: sel.clientId, orgId: sel.orgId, roleId: sel.roleId, userId: sel.userId, remoteAddr, serverName });
    return auth.issuePair(tx, { ...sel, sessionId }, life);
  });
  const out: Record<string, unknown> = { ...extra };
  if (shown.clientId !== undefined) out.clientId = shown.clientId;
  out.userId = sel.userId;
  if (shown.roleId !== undefined) out.roleId = shown.roleId;
  if (shown.organizationId !== undefined) out.organizationId = shown.organizationId;
  if (shown.warehouseId !== undefined) out.warehouseId = shown.warehouseId;
  out.language = sel.language;
  out.menuTreeId = menuTreeId;
  out.token = pair.token;
  out.refresh_token = pair.refresh_token;
  return out;
}

/**
 * POST /auth/tokens. With parameters: a one-step login. Without: the first step, {clients, token}
 * and, when there is exactly one client, role and organisation, the full login as well (its
 * token and refresh_token then replace the first-step token).
 */
export async function postTokens(auth: AuthService, body: LoginBody, remoteAddr: string): Promise<Record<string, unknown>> {
  const user = await checkCredentials(auth, body, remoteAddr);
  const resolver = new LoginResolver(auth, user);
  if (body.parameters) {
    const { sel, shown } = await resolver.resolve(body.parameters);
    return completeLogin(auth, sel, shown, remoteAddr);
  }
  const clients = resolver.clients();
  if (clients.length === 1) {
    const roles = resolver.roles(clients[0]!.id);
    if (roles.length === 1) {
      const orgs = await resolver.organizations(clients[0]!.id, roles[0]!.id);
      if (orgs.length === 1) {
        const { sel, shown } = await resolver.resolve({});
        return completeLogin(auth, sel, shown, remoteAddr, { clients });
      }
    }
  }
  const token = await auth.issueStepToken(user.userId, user.userName, clients.map((c) => c.id));
  return { clients, token };
}

/**
 * PUT /auth/tokens: finishes a stepwise login with the first-step token (its clients only), or
 * logs in again with other choices using a full token (a new session; the old one stays open).
 */
export async function putTokens(auth: AuthService, who: { userId: number; clientIds?: number[]; issuedAt?: number }, params: LoginParameters, remoteAddr: string): Promise<Record<string, unknown>> {
  const resolver = await LoginResolver.forUser(auth, who.userId, who.issuedAt);
  const { sel, shown } = await resolver.resolve(params, who.clientIds);
  return completeLogin(auth, sel, shown, remoteAddr);
}
