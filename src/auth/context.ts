/**
 * Who is calling: resolved from the bearer token on every authenticated request and used by
 * every capability for tenant, organisation and role checks.
 */
export interface AuthContext {
  clientId: number;
  userId: number;
  roleId: number;
  orgId: number;
  warehouseId: number;
  language: string;
  sessionId: number;
  /** The role's UserLevel code: 'S  ', ' C ', '  O', ' CO' (positions: System, Client, Org). */
  userLevel: string;
  /** Organisations the role may read (always includes 0); null when it may access all. */
  orgIds: number[] | null;
  /**
   * Organisations the role may write, org 0 (`*`) only through an access row; null when it may
   * write all of them.
   */
  writableOrgIds: number[] | null;
  isClientAdministrator: boolean;
  /** The role's IsAccessAdvanced: it may hand out roles with advanced access. */
  isAccessAdvanced: boolean;
  /** The role's table access rules (AD_Table_Access, type Accessing); null when it has none. */
  tableRules: TableRules | null;
}

/** Table access rules of a role, by AD_Table_ID. */
export interface TableRules {
  /** With any include rule, only the included tables are accessible. */
  hasInclude: boolean;
  byTable: ReadonlyMap<number, { exclude: boolean; readOnly: boolean }>;
}

/**
 * A first-step (intermediate) login token: the user and the clients it may choose from. It is
 * accepted only on /api/v1/auth/* routes, where it is found as req.loginStep instead of req.auth.
 */
export interface LoginStep {
  userId: number;
  userName: string;
  clientIds: number[];
  /** When the token was issued, in milliseconds since the epoch. */
  issuedAt: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authentication hook on every non-public route. */
    auth: AuthContext;
    /** Set instead of auth when the bearer token is a first-step login token (auth routes only). */
    loginStep?: LoginStep | undefined;
  }
}
