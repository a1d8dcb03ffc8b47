import { DICTIONARY_CHANNEL, DICTIONARY_TABLES } from '../dictionary/cache.js';
import { SYSCONFIG_CHANNEL } from '../sysconfig/sysconfig.js';
import type { ModelEvent, ModelEvents } from './model-events.js';

export const ACCESS_CHANNEL = 'dictum_access';

/** Tables that decide what a role reaches: every instance drops its cached role access when they change. */
export const ACCESS_TABLES = new Set(['ad_role', 'ad_role_orgaccess', 'ad_user_orgaccess', 'ad_user_roles', 'ad_table_access']);

/**
 * Writes to dictionary tables, to AD_SysConfig and to role access tables tell every instance to
 * drop its cached copy.
 * pg_notify inside the write's transaction is delivered only if that transaction commits.
 */
export function registerCacheNotifications(events: ModelEvents): void {
  // Writes of other tables pass without waiting.
  const notify = (e: ModelEvent): Promise<void> | undefined => {
    if (DICTIONARY_TABLES.has(e.table.dbName)) return e.tx.notify(DICTIONARY_CHANNEL, e.table.dbName);
    if (e.table.dbName === 'ad_sysconfig') return e.tx.notify(SYSCONFIG_CHANNEL, String(e.row.name ?? ''));
    if (ACCESS_TABLES.has(e.table.dbName)) return e.tx.notify(ACCESS_CHANNEL, e.table.dbName);
    return undefined;
  };
  for (const type of ['after-new', 'after-change', 'after-delete'] as const) events.on(type, null, notify);
}
