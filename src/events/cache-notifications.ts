import { DICTIONARY_CHANNEL, DICTIONARY_TABLES } from '../dictionary/cache.js';
import { SYSCONFIG_CHANNEL } from '../sysconfig/sysconfig.js';
import type { ModelEvent, ModelEvents } from './model-events.js';

/**
 * Writes to dictionary tables and to AD_SysConfig tell every instance to drop its cached copy.
 * pg_notify inside the write's transaction is delivered only if that transaction commits.
 */
export function registerCacheNotifications(events: ModelEvents): void {
  const notify = async (e: ModelEvent) => {
    if (DICTIONARY_TABLES.has(e.table.dbName)) await e.tx.query('SELECT pg_notify($1, $2)', [DICTIONARY_CHANNEL, e.table.dbName]);
    else if (e.table.dbName === 'ad_sysconfig') await e.tx.query('SELECT pg_notify($1, $2)', [SYSCONFIG_CHANNEL, String(e.row.name ?? '')]);
  };
  for (const type of ['after-new', 'after-change', 'after-delete'] as const) events.on(type, null, notify);
}
