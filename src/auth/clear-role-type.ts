import type { Queryable } from '../db/types.js';

/**
 * Clears a role's Role Type so that it may log in over REST (only WebService or blank may).
 * The System role ships with Role Type WebUI: an administrator opens it to REST on purpose.
 * Returns the Role Type it had, or undefined when there is no such role.
 */
export async function clearRoleType(db: Queryable, roleId: number): Promise<string | null | undefined> {
  const { rows } = await db.query<{ roletype: string | null }>(
    `UPDATE ad_role r SET roletype = NULL, updated = now()
       FROM (SELECT ad_role_id, roletype FROM ad_role WHERE ad_role_id = $1 FOR UPDATE) old
      WHERE r.ad_role_id = old.ad_role_id
      RETURNING old.roletype`,
    [roleId],
  );
  return rows.length ? rows[0]!.roletype : undefined;
}
