import { orgWritable, tableAccessAllowed, tableRuleAllows } from '../access/access.js';
import type { AuthContext } from '../auth/context.js';
import type { Queryable } from '../db/types.js';
import type { Table } from '../dictionary/model.js';
import { ApiError, forbidden } from '../errors.js';
import { isSystemAdministrator } from '../nodes/admin-access.js';

/** The original's refusal of a server request: 403 `Access denied for <request> request: <id>`. */
export const serverAccessDenied = (request: string, id: string): ApiError => forbidden('Access denied', `Access denied for ${request} request: ${id}`);

/** Whether the role may change records through some active window that shows the table in an active tab. */
export async function hasWindowWriteAccess(q: Queryable, roleId: number, tableId: number): Promise<boolean> {
  const { rows } = await q.query(
    `SELECT 1 FROM ad_tab t JOIN ad_window w ON w.ad_window_id = t.ad_window_id
       JOIN ad_window_access a ON a.ad_window_id = w.ad_window_id AND a.ad_role_id = $2 AND a.isactive = 'Y' AND a.isreadwrite = 'Y'
      WHERE t.ad_table_id = $1 AND t.isactive = 'Y' AND w.isactive = 'Y' LIMIT 1`,
    [tableId, roleId],
  );
  return rows.length > 0;
}

/**
 * Who may start, stop, run, add or remove the server of a processor record (a scheduler), as the
 * original decides: an administrator (here the System role), or a role with read-write access to a
 * window of the record's table, in the record's own client and an organisation it may write. The
 * table's own write access and access rules apply too, as for any write.
 */
export async function assertMayControlProcessor(
  q: Queryable,
  auth: AuthContext,
  table: Table,
  record: { clientId: number; orgId: number },
  request: string,
  serverId: string,
): Promise<void> {
  if (isSystemAdministrator(auth)) return;
  const writable = tableAccessAllowed(auth.userLevel, table.accessLevel) && tableRuleAllows(auth.tableRules, table.id, true);
  if (!writable || !(await hasWindowWriteAccess(q, auth.roleId, table.id))) throw serverAccessDenied(request, serverId);
  if (record.clientId !== auth.clientId || !orgWritable(auth, record.orgId)) throw serverAccessDenied(request, serverId);
}
