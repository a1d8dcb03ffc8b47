/**
 * What a user may choose at login (roles, clients, organisations, warehouses, language) and the
 * resolver that checks a choice given by ids or by names and values.
 */
import type { LoginParameters } from './schemas.js';
import type { AuthService, LoginSelection } from './service.js';
import { authError, tokenError } from './errors.js';
import { tsMillis } from './util.js';

/** The active base language of the system (a scalar subquery). */
const BASE_LANGUAGE = `SELECT ad_language FROM ad_language WHERE isbaselanguage = 'Y' AND isactive = 'Y' ORDER BY ad_language LIMIT 1`;

export interface RoleChoice {
  id: number;
  name: string;
  clientId: number;
  clientName: string;
  clientValue: string | null;
}

export interface IdName {
  id: number;
  name: string;
}

/** The user behind a successful password check and the roles it may log in with. */
export interface LoginUser {
  userId: number;
  userName: string;
  roles: RoleChoice[];
}

/** Which response keys were resolved by name or inferred (and so are echoed in the response). */
export interface Resolved {
  clientId?: number;
  roleId?: number;
  organizationId?: number;
  warehouseId?: number;
}

const isBlank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const asId = (v: unknown): number | null => {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^\s*\d+\s*$/.test(v)) return Number(v);
  return null;
};

/** Roles a user may log in with: assigned, active, of an active client, RoleType WebService or blank. */
export async function eligibleRoles(auth: AuthService, userIds: number[]): Promise<RoleChoice[]> {
  const { rows } = await auth.s.db.query<{ ad_role_id: number; name: string; ad_client_id: number; client_name: string; client_value: string | null }>(
    `SELECT DISTINCT r.ad_role_id, r.name, r.ad_client_id, c.name AS client_name, c.value AS client_value
       FROM ad_user_roles ur
       JOIN ad_role r ON r.ad_role_id = ur.ad_role_id
       JOIN ad_client c ON c.ad_client_id = r.ad_client_id
      WHERE ur.ad_user_id = ANY($1::bigint[]) AND ur.isactive = 'Y' AND r.isactive = 'Y' AND c.isactive = 'Y'
        AND COALESCE(r.ismasterrole, 'N') <> 'Y'
        AND (r.roletype IS NULL OR btrim(r.roletype) = '' OR r.roletype = 'WS')
      ORDER BY c.name, r.name`,
    [userIds],
  );
  return rows.map((r) => ({ id: Number(r.ad_role_id), name: r.name, clientId: Number(r.ad_client_id), clientName: r.client_name, clientValue: r.client_value }));
}

export function clientsOf(roles: RoleChoice[]): IdName[] {
  const seen = new Map<number, string>();
  for (const r of roles) if (!seen.has(r.clientId)) seen.set(r.clientId, r.clientName);
  return [...seen].map(([id, name]) => ({ id, name }));
}
/** The login choices of a user, resolving ids or names/values and checking that they belong together. */
export class LoginResolver {
  constructor(
    private readonly auth: AuthService,
    readonly user: LoginUser,
  ) {}

  static async forUser(auth: AuthService, userId: number, notChangedSince?: number): Promise<LoginResolver> {
    const { rows } = await auth.s.db.query<{ ad_user_id: number; name: string; islocked: string | null; datepasswordchanged: unknown }>(
      `SELECT ad_user_id, name, islocked, datepasswordchanged FROM ad_user WHERE ad_user_id = $1 AND isactive = 'Y'`,
      [userId],
    );
    const u = rows[0];
    if (!u) throw tokenError('Invalid token', 'The user of this token is no longer active');
    if (u.islocked === 'Y') throw tokenError('Invalid token', 'The account is locked');
    const changed = tsMillis(u.datepasswordchanged);
    // A first-step token issued before a password change is no longer good. Its issue time has
    // whole seconds: one issued in the second of the change counts as issued before it.
    if (notChangedSince !== undefined && changed !== null && changed >= notChangedSince) {
      throw tokenError('Token revoked', 'The password was changed after this token was issued');
    }
    return new LoginResolver(auth, { userId, userName: u.name, roles: await eligibleRoles(auth, [userId]) });
  }

  clients(allowed?: number[]): IdName[] {
    const list = clientsOf(this.user.roles);
    return allowed ? list.filter((c) => allowed.includes(c.id)) : list;
  }

  client(v: unknown, allowed?: number[]): { id: number; byName: boolean } {
    const clients = this.clients(allowed);
    if (isBlank(v)) {
      if (clients.length === 1) return { id: clients[0]!.id, byName: true };
      throw authError('Missing clientId parameter');
    }
    const id = asId(v);
    if (id !== null) {
      if (!clients.some((c) => c.id === id)) throw authError('Invalid client');
      return { id, byName: false };
    }
    const name = String(v);
    const role = this.user.roles.find((r) => (r.clientValue === name || r.clientName === name) && clients.some((c) => c.id === r.clientId));
    if (!role) throw authError('Client name not found');
    return { id: role.clientId, byName: true };
  }

  roles(clientId: number): IdName[] {
    return this.user.roles.filter((r) => r.clientId === clientId).map((r) => ({ id: r.id, name: r.name }));
  }

  async role(clientId: number, v: unknown): Promise<{ id: number; byName: boolean }> {
    const roles = this.roles(clientId);
    if (isBlank(v)) {
      if (roles.length === 1) return { id: roles[0]!.id, byName: true };
      throw authError('Missing roleId parameter');
    }
    const id = asId(v);
    const found = id !== null ? roles.find((r) => r.id === id) : roles.find((r) => r.name === String(v));
    if (found) return { id: found.id, byName: id === null };
    // Distinguish a role that exists for the user but may not log in through REST.
    const { rows } = await this.auth.s.db.query(
      `SELECT 1 FROM ad_user_roles ur JOIN ad_role r ON r.ad_role_id = ur.ad_role_id
        WHERE ur.ad_user_id = $1 AND ur.isactive = 'Y' AND r.ad_client_id = $2 AND (r.ad_role_id = $3 OR r.name = $4)`,
      [this.user.userId, clientId, id ?? -1, String(v)],
    );
    if (rows.length) throw authError('This role may not log in through the REST API: its Role Type must be WebService or blank');
    throw authError(id !== null ? 'Invalid roleId' : 'Role name not found');
  }

  /** Organisations the role (or the user, when the role uses user org access) may log in to. */
  async organizations(clientId: number, roleId: number): Promise<(IdName & { value: string | null })[]> {
    const db = this.auth.s.db;
    const { rows: rr } = await db.query<{ isaccessallorgs: string | null; isuseuserorgaccess: string | null }>(
      'SELECT isaccessallorgs, isuseuserorgaccess FROM ad_role WHERE ad_role_id = $1',
      [roleId],
    );
    const role = rr[0];
    if (!role) return [];
    let filter = '';
    const params: unknown[] = [clientId];
    if (role.isaccessallorgs !== 'Y') {
      const access = await this.auth.orgAccessRows(roleId, this.user.userId, role.isuseuserorgaccess === 'Y');
      params.push(access.map((a) => a.id));
      filter = 'AND o.ad_org_id = ANY($2::bigint[])';
    }
    const { rows } = await db.query<{ ad_org_id: number; name: string; value: string | null }>(
      `SELECT o.ad_org_id, o.name, o.value FROM ad_org o
        WHERE o.isactive = 'Y' AND COALESCE(o.issummary, 'N') = 'N' AND (o.ad_client_id = $1 OR o.ad_org_id = 0) ${filter}
        ORDER BY o.ad_org_id = 0 DESC, o.name`,
      params,
    );
    return rows.map((r) => ({ id: Number(r.ad_org_id), name: r.name, value: r.value }));
  }

  async organization(clientId: number, roleId: number, v: unknown): Promise<{ id: number; byName: boolean }> {
    const orgs = await this.organizations(clientId, roleId);
    if (isBlank(v)) {
      // Omitted: the only organisation, else the only real one, else * (0) when the role reaches
      // it, else the one with the lowest id.
      const real = orgs.filter((o) => o.id !== 0);
      if (orgs.length === 1) return { id: orgs[0]!.id, byName: true };
      if (real.length === 1) return { id: real[0]!.id, byName: true };
      if (orgs.some((o) => o.id === 0)) return { id: 0, byName: true };
      if (real.length) return { id: Math.min(...real.map((o) => o.id)), byName: true };
      throw authError('The role has no organization to log in to');
    }
    const id = asId(v);
    const found = id !== null ? orgs.find((o) => o.id === id) : orgs.find((o) => o.name === String(v) || o.value === String(v));
    if (!found) throw authError(id !== null ? 'Invalid organizationId' : 'Organization name not found');
    return { id: found.id, byName: id === null };
  }

  async warehouses(clientId: number, orgId: number): Promise<(IdName & { value: string | null })[]> {
    if (orgId <= 0) return [];
    const { rows } = await this.auth.s.db.query<{ m_warehouse_id: number; name: string; value: string | null }>(
      `SELECT m_warehouse_id, name, value FROM m_warehouse WHERE isactive = 'Y' AND ad_client_id = $1 AND ad_org_id = $2 ORDER BY name`,
      [clientId, orgId],
    );
    return rows.map((r) => ({ id: Number(r.m_warehouse_id), name: r.name, value: r.value }));
  }

  async warehouse(clientId: number, orgId: number, v: unknown): Promise<{ id: number; byName: boolean }> {
    if (isBlank(v)) return this.defaultWarehouse(clientId, orgId);
    const id = asId(v);
    if (id === 0) return { id: 0, byName: false };
    const list = await this.warehouses(clientId, orgId);
    const found = id !== null ? list.find((w) => w.id === id) : list.find((w) => w.name === String(v) || w.value === String(v));
    if (!found) throw authError(id !== null ? 'Invalid warehouseId' : 'Warehouse name not found');
    return { id: found.id, byName: id === null };
  }

  /**
   * An omitted warehouse: the organisation's default (AD_OrgInfo.M_Warehouse_ID), as the original
   * takes it, when it is one of the organisation's active warehouses; else none. Echoed like an
   * inferred value.
   */
  async defaultWarehouse(clientId: number, orgId: number): Promise<{ id: number; byName: boolean }> {
    if (orgId <= 0) return { id: 0, byName: false };
    const { rows } = await this.auth.s.db.query<{ m_warehouse_id: number | null }>(
      `SELECT oi.m_warehouse_id FROM ad_orginfo oi
         JOIN m_warehouse w ON w.m_warehouse_id = oi.m_warehouse_id AND w.isactive = 'Y' AND w.ad_client_id = $1 AND w.ad_org_id = $2
        WHERE oi.ad_org_id = $2`,
      [clientId, orgId],
    );
    const id = Number(rows[0]?.m_warehouse_id ?? 0);
    return id > 0 ? { id, byName: true } : { id: 0, byName: false };
  }

  /** The client's language (AD_Client.AD_Language), else the base language, else en_US. */
  async clientLanguage(clientId: number): Promise<string> {
    const { rows } = await this.auth.s.db.query<{ ad_language: string | null }>(
      `SELECT COALESCE((SELECT ad_language FROM ad_client WHERE ad_client_id = $1), (${BASE_LANGUAGE})) AS ad_language`,
      [clientId],
    );
    return rows[0]?.ad_language || 'en_US';
  }

  /**
   * The language of a login that names none, or one the system does not have: the user's
   * Language preference (AD_Preference for the user, a window-level preference as the original
   * reads it), else the client's language. A preference naming no known language gives the base
   * language, as the original's language lookup does.
   */
  async defaultLanguage(clientId: number): Promise<string> {
    const { rows } = await this.auth.s.db.query<{ value: string | null; found: string | null; base: string | null }>(
      `SELECT p.value,
              (SELECT l.ad_language FROM ad_language l
                WHERE l.isactive = 'Y' AND (lower(l.ad_language) = lower(replace(btrim(p.value), '-', '_')) OR l.name = btrim(p.value))
                ORDER BY l.ad_language LIMIT 1) AS found,
              (${BASE_LANGUAGE}) AS base
         FROM ad_preference p
        WHERE p.attribute = 'Language' AND p.ad_user_id = $1 AND p.preferencefor = 'W' AND p.isactive = 'Y'
        ORDER BY p.ad_preference_id LIMIT 1`,
      [this.user.userId],
    );
    const pref = rows[0];
    if (!pref) return this.clientLanguage(clientId);
    return pref.found ?? pref.base ?? 'en_US';
  }

  /**
   * The login language: the requested one when the system has it (a system or the base language;
   * `en_US` or the locale form `en-US`, any case), else the default. A language the system does not
   * have is ignored, as the original ignores it.
   */
  async language(clientId: number, v: unknown): Promise<string> {
    if (typeof v === 'string' && v.trim() !== '' && v.trim().length <= 10) {
      const { rows } = await this.auth.s.db.query<{ ad_language: string }>(
        `SELECT ad_language FROM ad_language WHERE lower(ad_language) = lower($1) AND isactive = 'Y' AND (issystemlanguage = 'Y' OR isbaselanguage = 'Y')`,
        [v.trim().replace('-', '_')],
      );
      if (rows.length) return rows[0]!.ad_language;
    }
    return this.defaultLanguage(clientId);
  }

  /** Resolves all parameters to one consistent selection (without a session yet). */
  async resolve(p: LoginParameters, allowedClients?: number[]): Promise<{ sel: Omit<LoginSelection, 'sessionId'>; shown: Resolved }> {
    const shown: Resolved = {};
    const c = this.client(p.clientId, allowedClients);
    if (c.byName) shown.clientId = c.id;
    const r = await this.role(c.id, p.roleId);
    if (r.byName) shown.roleId = r.id;
    const o = await this.organization(c.id, r.id, p.organizationId);
    if (o.byName) shown.organizationId = o.id;
    const w = await this.warehouse(c.id, o.id, p.warehouseId);
    if (w.byName) shown.warehouseId = w.id;
    const language = await this.language(c.id, p.language);
    return {
      sel: { clientId: c.id, userId: this.user.userId, userName: this.user.userName, roleId: r.id, orgId: o.id, warehouseId: w.id, language },
      shown,
    };
  }
}
