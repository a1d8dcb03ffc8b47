/**
 * The access rules of the original, written down as data for the isolation matrix: which table
 * access levels a user level reaches, the demo roles' facts, the tables only a client
 * administrator writes and the tables only documents write. The expected answer of every cell
 * of the matrix follows from these tables, not from the service's code.
 */

/** Table access levels (AD_Table.AccessLevel, list 5) each letter of a role's UserLevel reaches. */
export const LEVEL_REACH: Record<'S' | 'C' | 'O', readonly string[]> = {
  S: ['4', '6', '7'],
  C: ['2', '3', '6', '7'],
  O: ['1', '3', '7'],
};

export interface Actor {
  client: number;
  role: number;
  userLevel: string;
  clientAdministrator: boolean;
  /** Organisations the role writes; null for all of its client's. */
  writableOrgs: readonly number[] | null;
}

export const GARDEN_WORLD = 11;
/** The second client of the matrix, made by the test in its own database (ids of the proof range). */
export const OTHER_CLIENT = 1_113_000;
export const OTHER_ORG = 1_113_001;
export const OTHER_ROLE = 1_113_002;
export const OTHER_USER = 1_113_003;

/** The demo roles of GardenWorld (seed data) and the administrator of the second client. */
export const ACTORS: Record<string, Actor> = {
  'GardenWorld admin': { client: GARDEN_WORLD, role: 102, userLevel: ' CO', clientAdministrator: true, writableOrgs: [0, 11, 12, 50000, 50001, 50002, 50004, 50005, 50006, 50007] },
  'GardenWorld user': { client: GARDEN_WORLD, role: 103, userLevel: ' CO', clientAdministrator: false, writableOrgs: [11, 12] },
  'GardenWorld web service': { client: GARDEN_WORLD, role: 50004, userLevel: ' CO', clientAdministrator: false, writableOrgs: [11, 12] },
  'Other admin': { client: OTHER_CLIENT, role: OTHER_ROLE, userLevel: ' CO', clientAdministrator: true, writableOrgs: null },
};

/** Tables whose rows only a role administering the client writes (users, roles and their access, sign-ins, webhooks). */
export const ADMINISTRATOR_TABLES: ReadonlySet<string> = new Set([
  'ad_role', 'ad_user_roles', 'ad_role_orgaccess', 'ad_user_orgaccess', 'ad_window_access', 'ad_process_access', 'ad_form_access',
  'ad_workflow_access', 'ad_document_action_access', 'ad_infowindow_access', 'ad_table_access', 'ad_column_access', 'ad_record_access',
  'rest_signingkey', 'ad_session', 'rest_refreshtoken', 'rest_webhook_out', 'rest_webhook_out_event', 'rest_webhook_in',
]);

/** Tables only documents write as they post or move stock: the record API never writes them. */
export const DOCUMENT_WRITTEN_TABLES: ReadonlySet<string> = new Set(['fact_acct', 'm_storageonhand', 'm_storagereservation', 'm_transaction', 'm_costdetail', 'm_costhistory', 'm_matchpo', 'm_matchinv']);

export function levelReached(userLevel: string, accessLevel: string): boolean {
  const letters = (['S', 'C', 'O'] as const).filter((l, i) => userLevel[i] === l);
  return letters.some((l) => LEVEL_REACH[l].includes(accessLevel));
}

/** Whether the rules let the actor write (update or delete) a row of its own client in this organisation. */
export function mayWrite(actor: Actor, table: { dbName: string; accessLevel: string }, orgId: number | null): boolean {
  if (DOCUMENT_WRITTEN_TABLES.has(table.dbName)) return false;
  if (!levelReached(actor.userLevel, table.accessLevel)) return false;
  if (ADMINISTRATOR_TABLES.has(table.dbName) && !actor.clientAdministrator) return false;
  return orgId === null || actor.writableOrgs === null || actor.writableOrgs.includes(orgId);
}

/** Answers that keep a row of another client hidden: forbidden, or not found. */
export const HIDDEN = [403, 404];
/** Answers that refuse a write the rules do not allow. */
export const DENIED = [403];
/** Answers that refuse a write into another client (a reference there is not found: 400 is a refusal too). */
export const REFUSED = [400, 403, 404];
