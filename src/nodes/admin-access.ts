import type { AuthContext } from '../auth/context.js';
import { forbidden } from '../errors.js';

/**
 * The original's administrator (a user holding the System Administrator role) is here a System-level
 * role logged into the System client: the nodes and their log files, GET /files, the tasks, the
 * instance's own services and the reload of every server act on every tenant at once or show data of
 * all of them (log lines, database URL), so a client administrator may not use them
 * (docs/administration.md, docs/compatibility.md).
 */
export function isSystemAdministrator(auth: AuthContext): boolean {
  return auth.clientId === 0 && auth.userLevel.startsWith('S');
}

export function requireSystemAdministrator(auth: AuthContext): void {
  if (!isSystemAdministrator(auth)) throw forbidden('Access denied', 'Administration of the cluster requires the System role');
}
