import { assertWritableRow } from '../../access/access.js';
import { ts } from '../../auth/util.js';
import type { Queryable } from '../../db/types.js';
import { badRequest } from '../../errors.js';
import type { ProcessCall, ProcessOutcome } from '../runner.js';

interface RoleRow {
  ad_role_id: number;
  ad_client_id: number;
  ad_org_id: number;
  name: string;
  userlevel: string | null;
  ismanual: string;
  client: string | null;
}

/** The access levels (list 5) a role's user level reaches, and whether windows "(all)" stay closed. */
export function accessLevelsOf(userLevel: string | null, clientId: number): { levels: string[]; hideAllWindows: boolean } {
  const level = (userLevel ?? '').padEnd(3, ' ').slice(0, 3);
  let levels: string[];
  let hideAllWindows = false;
  if (level === 'S  ') levels = ['4', '7', '6'];
  else if (level === ' C ') levels = ['7', '6', '3', '2'];
  else if (level === ' CO') levels = ['7', '6', '3', '2', '1'];
  else {
    levels = ['3', '1', '7'];
    hideAllWindows = true;
  }
  // A tenant's role never reaches System-only objects, whatever its user level says.
  if (clientId !== 0) levels = levels.filter((l) => l !== '4');
  return { levels, hideAllWindows };
}

/** The access tables of a role, in the order the counts are reported. */
const ACCESS_TABLES = ['ad_window_access', 'ad_process_access', 'ad_form_access', 'ad_workflow_access', 'ad_document_action_access', 'ad_infowindow_access'] as const;

interface Grant {
  sql: string;
  /** Only the document actions: they belong to the client's document types, not to access levels. */
  documentActions?: boolean;
}

/**
 * The statements that give a role access to what its user level reaches and it lacks: windows
 * (by the table of their first tab), processes, forms, workflows and info windows of System and
 * of the role's own client, and every document action on the document types of its client.
 * $1 role, $2 its client, $3 the time, $4 the user; then $5 the organisation and $6 the access
 * levels, which the document actions do not take.
 */
function grants(hideAllWindows: boolean): Grant[] {
  const stamp = `$2, $5, 'Y', $3::timestamp, $4, $3::timestamp, $4`;
  const lacking = (table: string, key: string, alias: string) => `NOT EXISTS (SELECT 1 FROM ${table} x WHERE x.ad_role_id = $1 AND x.${key} = ${alias}.${key})`;
  const object = (table: string, key: string): Grant => ({
    sql: `INSERT INTO ${table}_access (${key}, ad_role_id, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, isreadwrite, ${table}_access_uu)
     SELECT o.${key}, $1, ${stamp}, 'Y', gen_random_uuid()::text FROM ${table} o
      WHERE o.isactive = 'Y' AND o.ad_client_id IN (0, $2) AND o.accesslevel = ANY($6::text[]) AND ${lacking(`${table}_access`, key, 'o')}`,
  });
  return [
    {
      sql: `INSERT INTO ad_window_access (ad_window_id, ad_role_id, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, isreadwrite, ad_window_access_uu)
     SELECT w.ad_window_id, $1, ${stamp}, 'Y', gen_random_uuid()::text FROM ad_window w
      WHERE w.isactive = 'Y' AND w.ad_client_id IN (0, $2) AND ${lacking('ad_window_access', 'ad_window_id', 'w')}
        ${hideAllWindows ? `AND w.name NOT LIKE '%(all)%'` : ''}
        AND (SELECT tt.accesslevel FROM ad_tab t JOIN ad_table tt ON tt.ad_table_id = t.ad_table_id
              WHERE t.ad_window_id = w.ad_window_id ORDER BY t.seqno, t.ad_tab_id LIMIT 1) = ANY($6::text[])`,
    },
    object('ad_process', 'ad_process_id'),
    object('ad_form', 'ad_form_id'),
    object('ad_workflow', 'ad_workflow_id'),
    {
      documentActions: true,
      sql: `INSERT INTO ad_document_action_access (ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, c_doctype_id, ad_ref_list_id, ad_role_id, ad_document_action_access_uu)
     SELECT $2, 0, 'Y', $3::timestamp, $4, $3::timestamp, $4, dt.c_doctype_id, l.ad_ref_list_id, $1, gen_random_uuid()::text
       FROM c_doctype dt JOIN ad_ref_list l ON l.ad_reference_id = 135
      WHERE dt.isactive = 'Y' AND dt.ad_client_id = $2
        AND NOT EXISTS (SELECT 1 FROM ad_document_action_access x WHERE x.ad_role_id = $1 AND x.c_doctype_id = dt.c_doctype_id AND x.ad_ref_list_id = l.ad_ref_list_id)`,
    },
    {
      sql: `INSERT INTO ad_infowindow_access (ad_infowindow_id, ad_role_id, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, ad_infowindow_access_uu)
     SELECT i.ad_infowindow_id, $1, ${stamp}, gen_random_uuid()::text FROM ad_infowindow i JOIN ad_table tt ON tt.ad_table_id = i.ad_table_id
      WHERE i.isactive = 'Y' AND i.ad_client_id IN (0, $2) AND tt.accesslevel = ANY($6::text[]) AND ${lacking('ad_infowindow_access', 'ad_infowindow_id', 'i')}`,
    },
  ];
}

/** (Re)creates the access rows of one role from its settings; a manual role is left as it is. */
async function updateRole(q: Queryable, role: RoleRow, reset: boolean, userId: number): Promise<string> {
  if (role.ismanual === 'Y') return '-';
  const roleId = Number(role.ad_role_id);
  const clientId = Number(role.ad_client_id);
  if (reset) for (const table of ACCESS_TABLES) await q.query(`DELETE FROM ${table} WHERE ad_role_id = $1`, [roleId]);
  const { levels, hideAllWindows } = accessLevelsOf(role.userlevel, clientId);
  const common = [roleId, clientId, ts(Date.now()), userId];
  const counts: number[] = [];
  for (const g of grants(hideAllWindows)) {
    const r = await q.query(g.sql, g.documentActions ? common : [...common, Number(role.ad_org_id), levels]);
    counts.push(r.rowCount ?? 0);
  }
  const [win, proc, form, wf, docAction, info] = counts;
  return `Window #${win} - Process #${proc} - Form #${form} - Workflow #${wf} - Document Action #${docAction} - Info Window #${info}`;
}

const ROLE_SELECT = `SELECT r.ad_role_id, r.ad_client_id, r.ad_org_id, r.name, r.userlevel, r.ismanual, c.name AS client
  FROM ad_role r LEFT JOIN ad_client c ON c.ad_client_id = r.ad_client_id`;

/**
 * Role Access Update (AD_Role_AccessUpdate, the original's RoleAccessUpdate): gives a role access
 * to every window, process, form, workflow, info window and document action its user level
 * reaches, after removing the access rows it had (ResetAccess, default Yes). Without AD_Role_ID,
 * every active role of the caller's client (of every client, run from System). Roles marked
 * manual keep their rows. A tenant updates its own roles only, and only a role that administers
 * the client may do it, since the rows decide what each role opens.
 */
export async function roleAccessUpdate(c: ProcessCall): Promise<ProcessOutcome> {
  const roleTable = c.s.dictionary.current.byName.get('ad_role')!;
  const roleId = c.param('AD_Role_ID')?.value;
  const reset = c.param('ResetAccess')?.value !== false;
  let roles: RoleRow[];
  if (typeof roleId === 'number') {
    ({ rows: roles } = await c.tx.query<RoleRow>(`${ROLE_SELECT} WHERE r.ad_role_id = $1`, [roleId]));
    const role = roles[0];
    if (!role || (c.auth.clientId !== 0 && Number(role.ad_client_id) !== c.auth.clientId)) throw badRequest('Invalid parameter', `No role ${roleId} in this client`);
  } else {
    const where = c.auth.clientId === 0 ? `r.isactive = 'Y'` : `r.isactive = 'Y' AND r.ad_client_id = $1`;
    ({ rows: roles } = await c.tx.query<RoleRow>(`${ROLE_SELECT} WHERE ${where} ORDER BY r.ad_client_id, r.name`, c.auth.clientId === 0 ? [] : [c.auth.clientId]));
  }
  for (const role of roles) {
    // The System role may maintain every client's roles; a tenant's role only its own client's.
    assertWritableRow(c.auth, roleTable, c.auth.clientId === 0 ? 0 : Number(role.ad_client_id), null, 'update');
    const counts = await updateRole(c.tx, role, reset, c.auth.userId);
    c.log({ msg: `${role.client ?? ''} - ${role.name}: ${counts}`, tableId: roleTable.id, recordId: Number(role.ad_role_id) });
  }
  return { summary: roles.length === 1 ? `${roles[0]!.name}: role access updated` : `Role access updated: ${roles.length} roles` };
}
