import type { Queryable } from '../db/types.js';
import { forbidden } from '../errors.js';
import type { ModelEvent, ModelEvents } from '../events/model-events.js';

/**
 * The original's rules for writing roles and their assignments, on top of the client
 * administrator gate (assertWritableRow): a role hands out nothing it does not have itself,
 * so no role can give itself, its user or anyone else more than it has.
 */

/** Yes-No columns of AD_Role that grant something; a role may only set them if it has them. */
const GRANTING_FLAGS = ['isaccessallorgs', 'isaccessadvanced', 'isclientadministrator', 'iscanexport', 'iscanreport', 'isshowacct', 'iscanapproveowndoc'] as const;

type RoleRow = Record<string, unknown>;

const yes = (v: unknown): boolean => v === 'Y' || v === true;
const levelLetters = (v: unknown): Set<string> => new Set(String(v ?? '').replace(/\s/g, '').split(''));

async function roleRow(q: Queryable, roleId: number): Promise<RoleRow | null> {
  const { rows } = await q.query<RoleRow>(`SELECT * FROM ad_role WHERE ad_role_id = $1`, [roleId]);
  return rows[0] ?? null;
}

/**
 * What `target` grants that `caller` lacks, as column names; `only` limits the comparison to
 * the columns a change touches.
 */
export function grantsBeyond(target: RoleRow, caller: RoleRow, only?: Set<string>): string[] {
  const out: string[] = [];
  for (const flag of GRANTING_FLAGS) {
    if (only && !only.has(flag)) continue;
    if (yes(target[flag]) && !yes(caller[flag])) out.push(flag);
  }
  if (!only || only.has('userlevel')) {
    const mine = levelLetters(caller.userlevel);
    if ([...levelLetters(target.userlevel)].some((l) => !mine.has(l))) out.push('userlevel');
  }
  return out;
}

const COLUMN_NAMES: Record<string, string> = {
  isaccessallorgs: 'IsAccessAllOrgs',
  isaccessadvanced: 'IsAccessAdvanced',
  isclientadministrator: 'IsClientAdministrator',
  iscanexport: 'IsCanExport',
  iscanreport: 'IsCanReport',
  isshowacct: 'IsShowAcct',
  iscanapproveowndoc: 'IsCanApproveOwnDoc',
  userlevel: 'UserLevel',
};
const named = (cols: string[]): string => cols.map((c) => COLUMN_NAMES[c] ?? c).join(', ');

async function callerRole(e: ModelEvent): Promise<RoleRow> {
  const row = await roleRow(e.tx, e.auth.roleId);
  if (!row) throw forbidden('Access denied', 'The role of this session no longer exists');
  return row;
}

/** AD_Role: the values a write sets may not grant more than the writing role has. */
async function checkRoleWrite(e: ModelEvent): Promise<void> {
  const only = e.type === 'before-new' ? undefined : e.changed;
  const beyond = grantsBeyond(e.row, await callerRole(e), only);
  if (beyond.length) throw forbidden('Access denied', `A role cannot grant what it does not have itself: ${named(beyond)}`);
}

/** AD_User_Roles: the role assigned may not grant more than the assigning role has. */
async function checkRoleAssignment(e: ModelEvent): Promise<void> {
  if (e.type === 'before-change' && !e.changed.has('ad_role_id') && !e.changed.has('ad_user_id') && !(e.changed.has('isactive') && yes(e.row.isactive))) return;
  const assigned = await roleRow(e.tx, Number(e.row.ad_role_id));
  if (!assigned) return; // the reference check reports it
  const caller = await callerRole(e);
  if (yes(assigned.isaccessadvanced) && !yes(caller.isaccessadvanced)) {
    throw forbidden('Access denied', `A role without advanced access cannot assign the role ${String(assigned.name)}, which has it`);
  }
  const beyond = grantsBeyond(assigned, caller);
  if (beyond.length) throw forbidden('Access denied', `The role ${String(assigned.name)} grants more than this role has: ${named(beyond)}`);
}

/**
 * Access rows (window, process, form, ...) that would widen the writing role's own access. A role
 * that is not manual (IsManual = N) is exempt: the original grants such a role access to its
 * client's new windows and processes by itself.
 */
async function checkOwnAccessRow(e: ModelEvent): Promise<void> {
  if (Number(e.row.ad_role_id) !== e.auth.roleId || e.auth.roleId === 0) return;
  if (!yes((await callerRole(e)).ismanual)) return;
  const widens =
    e.type === 'before-new'
      ? yes(e.row.isactive ?? 'Y')
      : (e.changed.has('isactive') && yes(e.row.isactive)) || (e.changed.has('isreadwrite') && yes(e.row.isreadwrite)) || e.changed.has('ad_role_id');
  if (widens) throw forbidden('Access denied', `A role cannot widen its own access (${e.table.name})`);
}

const ACCESS_ROW_TABLES = ['AD_Window_Access', 'AD_Process_Access', 'AD_Form_Access', 'AD_Workflow_Access', 'AD_Document_Action_Access', 'AD_InfoWindow_Access'];

/** A role's own table access rules: any change of them could widen its access (an include rule does). */
function checkOwnTableRule(e: ModelEvent): void {
  const roleId = Number(e.row.ad_role_id ?? e.old?.ad_role_id);
  if (roleId === e.auth.roleId && e.auth.roleId !== 0) throw forbidden('Access denied', 'A role cannot change its own table access rules');
}

/**
 * Records of process runs are written by the process runner only: a client that could write them
 * could fake a running instance (and make a process answer 409) or a result.
 */
const RUNNER_TABLES = ['AD_PInstance', 'AD_PInstance_Para', 'AD_PInstance_Log'];
const refuseRunnerTable = (e: ModelEvent): never => {
  throw forbidden('Access denied', `${e.table.name} records are written by the process runner only`);
};

/** Upload sessions and their chunks are written through /uploads only. */
const UPLOAD_TABLES = ['REST_Upload', 'REST_UploadChunk'];
const refuseUploadTable = (e: ModelEvent): never => {
  throw forbidden('Access denied', `${e.table.name} records are written through /api/v1/uploads only`);
};

export function registerSecurityRules(events: ModelEvents): void {
  for (const t of UPLOAD_TABLES) for (const type of ['before-new', 'before-change', 'before-delete'] as const) events.on(type, t, refuseUploadTable);
  for (const t of RUNNER_TABLES) for (const type of ['before-new', 'before-change', 'before-delete'] as const) events.on(type, t, refuseRunnerTable);
  for (const type of ['before-new', 'before-change', 'before-delete'] as const) events.on(type, 'AD_Table_Access', checkOwnTableRule);
  for (const type of ['before-new', 'before-change'] as const) {
    events.on(type, 'AD_Role', checkRoleWrite);
    events.on(type, 'AD_User_Roles', checkRoleAssignment);
    for (const t of ACCESS_ROW_TABLES) events.on(type, t, checkOwnAccessRow);
  }
}
