import type { AuthContext, TableRules } from '../auth/context.js';
import { ident, type SqlBuilder } from '../db/sql.js';
import { forbidden } from '../errors.js';
import type { Table } from '../dictionary/model.js';
import { OWN_ROW_TABLES, SECURITY_TABLES, SERVICE_INTERNAL_TABLES } from './security-tables.js';

/**
 * Which table access levels (list 5) a role's UserLevel reaches:
 * S (position 0) -> System (4) and System+Client (6); C (position 1) -> Client (2), 6 and
 * Client+Org (3); O (position 2) -> Org (1) and Client+Org (3); All (7) is open to everyone.
 */
export function tableAccessAllowed(userLevel: string, accessLevel: string): boolean {
  const s = userLevel[0] === 'S';
  const c = userLevel[1] === 'C';
  const o = userLevel[2] === 'O';
  switch (accessLevel) {
    case '7':
      return true;
    case '4':
      return s;
    case '6':
      return s || c;
    case '2':
      return c;
    case '3':
      return c || o;
    case '1':
      return o;
    default:
      return false;
  }
}

/**
 * What the role's table access rules allow on a table: an excluded table is closed (readable
 * only when the rule is read-only); with any include rule, only included tables are open, and
 * an included read-only table is not writable.
 */
export function tableRuleAllows(rules: TableRules | null, tableId: number, write: boolean): boolean {
  if (!rules) return true;
  const rule = rules.byTable.get(tableId);
  if (rule) return rule.exclude ? !write && rule.readOnly : !(write && rule.readOnly);
  return !rules.hasInclude;
}

/**
 * Whether the role may read a table: no table access rule closes it. The access level does not
 * limit reading, as in the original, whose role access answers a read-only check before it looks
 * at the level ("role can always read"): every role reads the dictionary (AD_Table, AD_Column,
 * AD_Ref_List, ...) and every other table, and the row filter (readPredicate) keeps it to System
 * rows and its own client's. The service's internal tables keep the level's gate for reading too.
 */
export function tableReadable(auth: AuthContext, table: Table): boolean {
  if (!tableRuleAllows(auth.tableRules, table.id, false)) return false;
  return !SERVICE_INTERNAL_TABLES.has(table.dbName) || tableAccessAllowed(auth.userLevel, table.accessLevel);
}

export function assertTableAccess(auth: AuthContext, table: Table): void {
  if (!tableReadable(auth, table)) throw forbidden('Access denied', `Access denied for table: ${table.name}`);
}

/**
 * The row filter every read carries: the caller's client plus shared System rows, and only
 * organisations the role reaches (org 0 is always readable). Sign-in records (sessions,
 * refresh tokens) are further limited to the caller's own unless the role administers the client.
 */
export function readPredicate(auth: AuthContext, table: Table, alias: string, sql: SqlBuilder): string {
  const parts: string[] = [];
  const a = ident(alias);
  if (table.byName.has('ad_client_id')) {
    parts.push(auth.clientId === 0 ? `${a}."ad_client_id" = 0` : `${a}."ad_client_id" IN (0, ${sql.param(auth.clientId)})`);
  }
  if (auth.orgIds && table.byName.has('ad_org_id')) {
    parts.push(`${a}."ad_org_id" = ANY(${sql.param(auth.orgIds)}::bigint[])`);
  }
  const owner = OWN_ROW_TABLES.get(table.dbName);
  if (owner && !auth.isClientAdministrator) parts.push(`${a}.${ident(owner)} = ${sql.param(auth.userId)}`);
  return parts.length ? parts.join(' AND ') : 'TRUE';
}

/** Whether the role may write rows of this organisation; org 0 (`*`) needs an access row too. */
export function orgWritable(auth: AuthContext, orgId: number): boolean {
  return auth.writableOrgIds === null || auth.writableOrgIds.includes(orgId);
}

/**
 * A change of one's own password only (PUT ad_user/{self} {Password}): users may make it
 * whatever organisation their account record belongs to.
 */
export function isOwnPasswordChange(auth: AuthContext, table: Table, old: Record<string, unknown>, columns: Iterable<{ dbName: string }>): boolean {
  if (table.dbName !== 'ad_user' || Number(old.ad_user_id) !== auth.userId) return false;
  const names = [...columns].map((c) => c.dbName);
  return names.length > 0 && names.every((n) => n === 'password');
}

/**
 * A write may only touch the caller's own client and organisations it may write (org 0 too);
 * security tables only by a role that administers the client.
 */
export function assertWritableRow(
  auth: AuthContext,
  table: Table,
  clientId: number | null,
  orgId: number | null,
  action: 'create' | 'update' | 'delete',
  ownPassword = false,
): void {
  if (!tableAccessAllowed(auth.userLevel, table.accessLevel) || !tableRuleAllows(auth.tableRules, table.id, true)) {
    throw forbidden(action === 'delete' ? 'Delete error' : 'Update error', 'Role does not have access');
  }
  if (clientId !== null && clientId !== auth.clientId) {
    if (action === 'create') throw forbidden('Update error', 'You are not allowed to create a record for another tenant');
    throw forbidden('Access denied', clientId === 0 ? 'System records are read-only' : 'The record belongs to another tenant');
  }
  if (SECURITY_TABLES.has(table.dbName) && !auth.isClientAdministrator) {
    throw forbidden('Access denied', `Only a role that administers the client may change ${table.name} records`);
  }
  if (orgId !== null && !ownPassword && !orgWritable(auth, orgId)) {
    if (orgId === 0) throw forbidden('Access denied', 'Records of organization * are shared; this role has no write access to them');
    if (auth.orgIds && !auth.orgIds.includes(orgId)) throw forbidden('Access denied', `No access to organization ${orgId}`);
    throw forbidden('Access denied', `Organization ${orgId} is read-only for this role`);
  }
}
