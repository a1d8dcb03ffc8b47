import type { AuthContext } from '../auth/context.js';
import { forbidden } from '../errors.js';

/**
 * Administration of the cluster (nodes, their logs, servers, schedulers, caches, tasks) acts on every
 * tenant at once and shows data of all of them (log lines, database URL), so only a System-level role
 * logged into the System client may use it; a client administrator may not (docs/administration.md).
 */
export function isSystemAdministrator(auth: AuthContext): boolean {
  return auth.clientId === 0 && auth.userLevel.startsWith('S');
}

export function requireSystemAdministrator(auth: AuthContext): void {
  if (!isSystemAdministrator(auth)) throw forbidden('Access denied', 'Administration of the cluster requires the System role');
}
