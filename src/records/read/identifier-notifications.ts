import { CACHE_RESET_CHANNEL } from '../../cache/cache-registry.js';
import type { ModelEvent, ModelEvents } from '../../events/model-events.js';
import type { IdentifierCache } from './identifier-cache.js';
import { identifierSources } from './identifier-targets.js';

/**
 * Keeps the kept identifiers true to committed data. A write to a table that identifiers show
 * marks its transaction (which then reads them from the database); a change of an identifier's
 * column, or a delete, empties them on every instance when it commits. A new record
 * needs neither: its key is not held, so its first read fetches it.
 */
export function watchIdentifierTables(events: ModelEvents, cache: IdentifierCache): void {
  // A promise only when a notification is sent: the lines of a statement pass without waiting.
  const on = (e: ModelEvent): Promise<void> | undefined => {
    const source = identifierSources(e.dict).get(e.table.dbName);
    if (!source) return undefined;
    cache.changedBy(e.tx, e.table.dbName);
    if (e.type === 'after-new') return undefined;
    if (e.type === 'after-change' && ![...e.changed].some((c) => source.columns.has(c))) return undefined;
    // Every instance empties the cache when the write commits, this one included (tx.notify):
    // until then the transaction reads these identifiers itself and others see the committed ones.
    return e.tx.notify(CACHE_RESET_CHANNEL, e.table.dbName);
  };
  for (const type of ['after-new', 'after-change', 'after-delete'] as const) events.on(type, null, on);
}
