import type { Queryable } from '../db/types.js';
import type { AccessClaims } from './service.js';

/**
 * The claims of work an instance does for a user who is not logged in (a scheduled run for its
 * supervisor, a workflow the Workflow Processor continues for its starter): the user in the client
 * and organisation of the work, with the first active role the user has in that client (role 0 in
 * the System client). Null when a tenant's user has no active role there: falling back to role 0
 * would give the work the System role's rights inside a tenant.
 */
export async function claimsOfUser(q: Queryable, userId: number, clientId: number, orgId: number): Promise<AccessClaims | null> {
  const { rows } = await q.query<{ ad_role_id: number }>(
    `SELECT ur.ad_role_id FROM ad_user_roles ur JOIN ad_role r ON r.ad_role_id = ur.ad_role_id
      WHERE ur.ad_user_id = $1 AND r.ad_client_id = $2 AND ur.isactive = 'Y' AND r.isactive = 'Y' ORDER BY ur.ad_role_id LIMIT 1`,
    [userId, clientId],
  );
  if (!rows[0] && clientId !== 0) return null;
  const role = rows[0] ? Number(rows[0].ad_role_id) : 0;
  return { AD_Client_ID: clientId, AD_User_ID: userId, AD_Role_ID: role, AD_Org_ID: orgId, AD_Language: 'en_US', AD_Session_ID: 0 };
}
