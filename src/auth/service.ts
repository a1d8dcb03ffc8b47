import { ACCESS_CHANNEL } from '../events/cache-notifications.js';
import { LruMap } from '../cache/lru-map.js';
import { NotifiedCache } from '../cache/notified-cache.js';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../db/types.js';
import type { Services } from '../services.js';
import type { AuthContext, LoginStep, TableRules } from './context.js';
import { SigningKeys } from './jwt-keys.js';
import { createMailer, type Mailer } from './mailer.js';
import { purgePasswordResets, RESET_QUOTA_WINDOW_MS } from './password-reset.js';
import { AttemptWindow } from './attempt-window.js';
import { SessionRegistry } from './sessions.js';
import { PeriodicTask } from '../servers/periodic-task.js';
import { insertRow, minutesToMs, sha256, ts } from './util.js';

/** Defaults of the SysConfig keys read by the authentication capability (see docs/auth.md). */
export const AUTH_DEFAULTS = {
  REST_TOKEN_EXPIRE_IN_MINUTES: 60,
  REST_REFRESH_TOKEN_EXPIRE_IN_MINUTES: 1440,
  REST_TOKEN_ABSOLUTE_EXPIRE_IN_MINUTES: 10080,
  REST_LOGIN_MAX_FAILED_ATTEMPTS: 5,
  REST_LOGIN_LOCK_MINUTES: 15,
  REST_LOGIN_MAX_FAILURES_PER_ADDRESS: 20,
  REST_LOGIN_FAILURE_WINDOW_MINUTES: 15,
  /** A failed credential check answers no earlier than this (ms), so a known user's failure takes an unknown one's time. */
  REST_LOGIN_FAILURE_MIN_RESPONSE_MS: 400,
} as const;

/** What a full login selected; the claims of an access token. */
export interface LoginSelection {
  clientId: number;
  userId: number;
  userName: string;
  roleId: number;
  orgId: number;
  warehouseId: number;
  language: string;
  sessionId: number;
}

/** Claim names of the access token, as in the original API. */
export interface AccessClaims {
  AD_Client_ID: number;
  AD_User_ID: number;
  AD_Role_ID: number;
  AD_Org_ID: number;
  M_Warehouse_ID?: number;
  AD_Language: string;
  AD_Session_ID: number;
}

export const claimsOf = (s: LoginSelection): AccessClaims => ({
  AD_Client_ID: s.clientId,
  AD_User_ID: s.userId,
  AD_Role_ID: s.roleId,
  AD_Org_ID: s.orgId,
  ...(s.orgId > 0 && s.warehouseId > 0 ? { M_Warehouse_ID: s.warehouseId } : {}),
  AD_Language: s.language,
  AD_Session_ID: s.sessionId,
});

interface RoleAccess {
  at: number;
  userLevel: string;
  isClientAdministrator: boolean;
  isAccessAdvanced: boolean;
  orgIds: number[] | null;
  writableOrgIds: number[] | null;
  tableRules: TableRules | null;
}

export interface TokenPair {
  token: string;
  refresh_token: string;
}

/** Token lifetimes in milliseconds (SysConfig REST_*_EXPIRE_IN_MINUTES). */
export interface Lifetimes {
  accessMs: number;
  refreshMs: number;
  absoluteMs: number;
}

/** Continuation of a refresh family on rotation. */
export interface FamilyLink {
  familyId: string;
  /** REST_RefreshToken_UU of the token that was used (kept as ParentToken; no hash is stored there). */
  parentUu: string;
  absoluteExpiresAt: number;
}

const ROLE_ACCESS_TTL_MS = 60_000;
const HOUSEKEEPING_MS = 5 * 60_000;

/** What the authentication capability needs from the service. */
export type AuthDeps = Pick<Services, 'db' | 'sysConfig' | 'log' | 'config'>;

/** State and helpers shared by the authentication routes and the authentication hook. */
export class AuthService {
  readonly keys: SigningKeys;
  readonly sessions: SessionRegistry;
  readonly mailer: Mailer;
  /** Verified access tokens until their expiry: the hot path does no crypto and no I/O. */
  readonly verified = new LruMap<string, { exp: number; claims: AccessClaims | null; step: LoginStep | null }>(20_000);
  /** Failed logins per user name and per remote address, counted in the database for all instances. */
  readonly failures: AttemptWindow;
  /** Password reset requests per remote address, counted in the database for all instances. */
  readonly resetRequests: AttemptWindow;
  #roleAccess = new NotifiedCache<string, RoleAccess>(10_000);
  #unlistenAccess: (() => Promise<void>) | null = null;
  #maxLifetimeMs: number = AUTH_DEFAULTS.REST_REFRESH_TOKEN_EXPIRE_IN_MINUTES * 60_000;
  /** Housekeeping of sessions and keys every five minutes: the session cleaner server of the instance. */
  readonly cleaner = new PeriodicTask({
    key: 'session-cleaner',
    name: 'Session cleaner',
    description: 'forgets old ended sessions, removes old password reset requests and reloads signing keys',
    intervalMs: HOUSEKEEPING_MS,
    pass: () => this.#housekeep(),
  });

  constructor(
    readonly s: AuthDeps,
    mailer?: Mailer,
  ) {
    this.keys = new SigningKeys(s.db, () => this.#maxLifetimeMs);
    this.failures = new AttemptWindow(s.db, 'login');
    this.resetRequests = new AttemptWindow(s.db, 'reset');
    this.sessions = new SessionRegistry(s.db, () => this.#maxLifetimeMs);
    this.mailer = mailer ?? createMailer(process.env, s.log);
  }

  async start(): Promise<void> {
    await this.#computeMaxLifetime();
    await this.keys.start();
    await this.sessions.start();
    // A change of a role's level or organizations applies to the next request, on every instance.
    this.#unlistenAccess = await this.s.db.listen(ACCESS_CHANNEL, () => this.#roleAccess.clear());
    await this.cleaner.start();
  }

  /**
   * The session cleaner's pass: forgets old ended sessions, re-reads the token lifetimes, removes
   * old password reset requests and picks up keys rotated without a notification (by SQL on another
   * instance). Each step runs even when another fails; a failure fails the pass.
   */
  async #housekeep(): Promise<string> {
    const forgotten = this.sessions.prune();
    const steps = await Promise.allSettled([this.#computeMaxLifetime(), purgePasswordResets(this.s.db), this.keys.load(), this.#purgeAttempts()]);
    const failed = steps.flatMap((r, i) => (r.status === 'rejected' ? [`${['token lifetimes', 'password reset requests', 'signing keys', 'login and reset attempts'][i]}: ${String(r.reason)}`] : []));
    for (const f of failed) this.s.log.warn(`session cleaner: ${f}`);
    if (failed.length) throw new Error(failed.join('; '));
    const resets = steps[1].status === 'fulfilled' ? (steps[1].value as number) : 0;
    return forgotten || resets ? `forgot ${forgotten} ended sessions, removed ${resets} old password reset requests` : '';
  }

  async stop(): Promise<void> {
    await this.cleaner.stop();
    if (this.#unlistenAccess) await this.#unlistenAccess();
    this.#unlistenAccess = null;
    await this.keys.stop();
    await this.sessions.stop();
  }

  /** Forgets attempts older than the longest window that counts them (failed logins, reset requests per hour). */
  async #purgeAttempts(): Promise<number> {
    const keepMs = Math.max(await this.minutes('REST_LOGIN_FAILURE_WINDOW_MINUTES'), RESET_QUOTA_WINDOW_MS);
    return this.failures.purge(keepMs);
  }

  /** The longest token lifetime configured anywhere: how long retired keys and ended sessions are remembered. */
  async #computeMaxLifetime(): Promise<void> {
    const { rows } = await this.s.db.query<{ value: string | null }>(
      `SELECT value FROM ad_sysconfig WHERE isactive = 'Y' AND name IN ('REST_TOKEN_EXPIRE_IN_MINUTES', 'REST_REFRESH_TOKEN_EXPIRE_IN_MINUTES')`,
    );
    let max: number = AUTH_DEFAULTS.REST_REFRESH_TOKEN_EXPIRE_IN_MINUTES;
    for (const r of rows) {
      const n = Number(r.value);
      if (Number.isFinite(n) && n > max) max = n;
    }
    this.#maxLifetimeMs = max * 60_000;
  }

  /** A SysConfig duration in minutes (fractions allowed), as milliseconds; zero or less means the default. */
  async minutes(name: keyof typeof AUTH_DEFAULTS, clientId = 0, orgId = 0): Promise<number> {
    return minutesToMs(await this.s.sysConfig.getInt(name, AUTH_DEFAULTS[name], clientId, orgId), AUTH_DEFAULTS[name]);
  }

  /** A SysConfig count; zero or less switches the limit off where the caller says so. */
  async int(name: keyof typeof AUTH_DEFAULTS, clientId = 0): Promise<number> {
    const n = await this.s.sysConfig.getInt(name, AUTH_DEFAULTS[name], clientId);
    return Number.isFinite(n) ? Math.floor(n) : AUTH_DEFAULTS[name];
  }

  /** The first-step token: user and allowed clients only, usable on /api/v1/auth/* routes. */
  async issueStepToken(userId: number, userName: string, clientIds: number[]): Promise<string> {
    const exp = Date.now() + (await this.minutes('REST_TOKEN_EXPIRE_IN_MINUTES'));
    return this.keys.sign({ Clients: clientIds.join(','), AD_User_ID: userId }, exp, userName);
  }

  /**
   * The token lifetimes of a client, read before a transaction opens (on PGlite a read outside
   * the open transaction would wait for it).
   */
  async lifetimes(clientId: number): Promise<Lifetimes> {
    return {
      accessMs: await this.minutes('REST_TOKEN_EXPIRE_IN_MINUTES', clientId),
      refreshMs: await this.minutes('REST_REFRESH_TOKEN_EXPIRE_IN_MINUTES', clientId),
      absoluteMs: await this.minutes('REST_TOKEN_ABSOLUTE_EXPIRE_IN_MINUTES', clientId),
    };
  }

  /**
   * Signs an access token and a refresh token and stores the refresh token (hashed) in the
   * caller's transaction. A new login starts a family; a rotation continues one.
   */
  async issuePair(q: Queryable, sel: LoginSelection, life: Lifetimes, link?: FamilyLink): Promise<TokenPair> {
    const now = Date.now();
    const accessExp = now + life.accessMs;
    const absolute = link?.absoluteExpiresAt ?? now + life.absoluteMs;
    const refreshExp = Math.min(now + life.refreshMs, absolute);
    const token = await this.keys.sign({ ...claimsOf(sel) }, accessExp, sel.userName);
    const jti = randomBytes(32).toString('hex');
    const refresh = await this.keys.sign({ jti, token_use: 'refresh', ...claimsOf(sel) }, refreshExp, sel.userName);
    await insertRow(
      q,
      'REST_RefreshToken',
      {
        token: sha256(token),
        refreshtoken: sha256(jti),
        parenttoken: link?.parentUu ?? null,
        expiresat: ts(refreshExp),
        absoluteexpiresat: ts(absolute),
        revokedat: null,
        rest_revokecause: null,
        ad_user_id: sel.userId,
        ad_session_id: sel.sessionId,
        familyid: link?.familyId ?? randomUUID(),
      },
      { clientId: sel.clientId, orgId: sel.orgId, userId: sel.userId },
    );
    return { token, refresh_token: refresh };
  }

  /** The request context of an access token; role and organisation access are cached per role and user. */
  async contextOf(c: AccessClaims): Promise<AuthContext> {
    const access = await this.roleAccess(c.AD_Role_ID, c.AD_User_ID);
    return {
      clientId: c.AD_Client_ID,
      userId: c.AD_User_ID,
      roleId: c.AD_Role_ID,
      orgId: c.AD_Org_ID,
      warehouseId: c.M_Warehouse_ID ?? 0,
      language: c.AD_Language,
      sessionId: c.AD_Session_ID,
      userLevel: access.userLevel,
      orgIds: access.orgIds,
      writableOrgIds: access.writableOrgIds,
      isClientAdministrator: access.isClientAdministrator,
      isAccessAdvanced: access.isAccessAdvanced,
      tableRules: access.tableRules,
    };
  }

  roleAccessStats(): { size: number; maxSize: number; hits: number; misses: number } {
    return this.#roleAccess.stats();
  }

  clearRoleAccess(): void {
    this.#roleAccess.clear();
  }

  roleAccessCached(roleId: number, userId: number): RoleAccess | null {
    const hit = this.#roleAccess.get(`${roleId}:${userId}`);
    return hit && Date.now() - hit.at < ROLE_ACCESS_TTL_MS ? hit : null;
  }

  async roleAccess(roleId: number, userId: number): Promise<RoleAccess> {
    const hit = this.roleAccessCached(roleId, userId);
    if (hit) return hit;
    const started = this.#roleAccess.readStarted();
    const { rows } = await this.s.db.query<{
      userlevel: string | null;
      isclientadministrator: string | null;
      isaccessallorgs: string | null;
      isuseuserorgaccess: string | null;
      isaccessadvanced: string | null;
    }>(
      'SELECT userlevel, isclientadministrator, isaccessallorgs, isuseuserorgaccess, isaccessadvanced FROM ad_role WHERE ad_role_id = $1',
      [roleId],
    );
    const r = rows[0];
    let orgIds: number[] | null = null;
    let writableOrgIds: number[] | null = null;
    if (!r || r.isaccessallorgs !== 'Y') {
      const orgs = r ? await this.orgAccessRows(roleId, userId, r.isuseuserorgaccess === 'Y') : [];
      // Shared rows (org 0) are always readable; writing them takes an access row of their own.
      const readable = new Set<number>([0]);
      const writable = new Set<number>();
      for (const o of orgs) {
        readable.add(o.id);
        if (!o.readOnly) writable.add(o.id);
      }
      orgIds = [...readable].sort((a, b) => a - b);
      writableOrgIds = [...writable].sort((a, b) => a - b);
    }
    const access: RoleAccess = {
      at: Date.now(),
      userLevel: (r?.userlevel ?? '  O').padEnd(3, ' '),
      isClientAdministrator: r?.isclientadministrator === 'Y',
      isAccessAdvanced: r?.isaccessadvanced === 'Y',
      orgIds,
      writableOrgIds,
      tableRules: await this.tableRules(roleId),
    };
    this.#roleAccess.set(`${roleId}:${userId}`, access, started);
    return access;
  }

  /** The role's active table access rules of type Accessing; null when it has none. */
  async tableRules(roleId: number): Promise<TableRules | null> {
    const { rows } = await this.s.db.query<{ ad_table_id: number; isexclude: string; isreadonly: string }>(
      `SELECT ad_table_id, isexclude, isreadonly FROM ad_table_access WHERE ad_role_id = $1 AND isactive = 'Y' AND accesstyperule = 'A'`,
      [roleId],
    );
    if (!rows.length) return null;
    const byTable = new Map(rows.map((r) => [Number(r.ad_table_id), { exclude: r.isexclude === 'Y', readOnly: r.isreadonly === 'Y' }]));
    return { hasInclude: rows.some((r) => r.isexclude !== 'Y'), byTable };
  }

  /** Active organisation access rows of a role, or of the user when the role says so. */
  async orgAccessRows(roleId: number, userId: number, useUserOrgAccess: boolean): Promise<{ id: number; readOnly: boolean }[]> {
    const { rows } = useUserOrgAccess
      ? await this.s.db.query<{ ad_org_id: number; isreadonly: string | null }>(
          `SELECT ad_org_id, isreadonly FROM ad_user_orgaccess WHERE ad_user_id = $1 AND isactive = 'Y'`,
          [userId],
        )
      : await this.s.db.query<{ ad_org_id: number; isreadonly: string | null }>(
          `SELECT ad_org_id, isreadonly FROM ad_role_orgaccess WHERE ad_role_id = $1 AND isactive = 'Y'`,
          [roleId],
        );
    return rows.map((o) => ({ id: Number(o.ad_org_id), readOnly: o.isreadonly === 'Y' }));
  }
}

