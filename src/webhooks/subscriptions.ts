import { NotifiedCache } from '../cache/notified-cache.js';
import type { Db, Queryable } from '../db/types.js';
import type { ModelEvents } from '../events/model-events.js';

/** NOTIFY channel that tells every instance the outbound configuration changed. */
export const WEBHOOK_CONFIG_CHANNEL = 'dictum_webhooks';

/** One active subscription of an active endpoint. */
export interface Subscription {
  eventId: number;
  endpointId: number;
  clientId: number;
  orgId: number;
  tableId: number;
  code: string;
  template: string | null;
  include: string | null;
  exclude: string | null;
  isStandard: boolean;
}

type Index = Map<string, Subscription[]>;

export const subscriptionKey = (tableId: number, code: string): string => `${tableId}:${code}`;

/**
 * The subscriptions of all clients by table and event code, read once and dropped whenever the
 * configuration changes on any instance: every write of every table asks it, so it must not
 * cost a query.
 */
export class SubscriptionCache {
  readonly #cache = new NotifiedCache<'all', Index>();
  /** Transactions that changed the configuration: what they read must not be kept (it may roll back). */
  readonly #changedIn = new WeakSet<object>();
  #unlisten: (() => Promise<void>) | null = null;

  constructor(private readonly db: Queryable) {}

  async listen(db: Db, events: ModelEvents): Promise<void> {
    this.#unlisten = await db.listen(WEBHOOK_CONFIG_CHANNEL, () => this.#cache.clear());
    for (const type of ['after-new', 'after-change', 'after-delete'] as const) {
      for (const table of ['rest_webhook_out', 'rest_webhook_out_event']) {
        events.on(type, table, async (e) => {
          this.#changedIn.add(e.tx);
          this.#cache.clear();
          await e.tx.notify(WEBHOOK_CONFIG_CHANNEL, table);
        });
      }
    }
  }

  /**
   * Read in the caller's transaction (the embedded database has one connection, which it holds);
   * a promise only while the subscriptions are read, so that a write of a thousand rows does not wait a thousand times.
   */
  find(tableId: number, code: string, q: Queryable = this.db): Subscription[] | undefined | Promise<Subscription[] | undefined> {
    const index = this.#cache.get('all');
    return index ? index.get(subscriptionKey(tableId, code)) : this.#loadFind(tableId, code, q);
  }

  async #loadFind(tableId: number, code: string, q: Queryable): Promise<Subscription[] | undefined> {
    const started = this.#cache.readStarted();
    const index = await load(q);
    if (!this.#changedIn.has(q)) this.#cache.set('all', index, started);
    return index.get(subscriptionKey(tableId, code));
  }

  async close(): Promise<void> {
    await this.#unlisten?.();
  }
}

async function load(q: Queryable): Promise<Index> {
  const { rows } = await q.query<Record<string, unknown>>(
    `SELECT e.rest_webhook_out_event_id, e.rest_webhook_out_id, e.ad_client_id, e.ad_org_id, e.ad_table_id, e.eventmodelvalidator,
            e.payloadtemplate, e.includecolumns, e.excludecolumns, o.isstandardwebhook
       FROM rest_webhook_out_event e JOIN rest_webhook_out o ON o.rest_webhook_out_id = e.rest_webhook_out_id
      WHERE e.isactive = 'Y' AND o.isactive = 'Y'
      ORDER BY e.seqno, e.rest_webhook_out_event_id`,
  );
  const index: Index = new Map();
  for (const r of rows) {
    const s: Subscription = {
      eventId: Number(r.rest_webhook_out_event_id),
      endpointId: Number(r.rest_webhook_out_id),
      clientId: Number(r.ad_client_id),
      orgId: Number(r.ad_org_id),
      tableId: Number(r.ad_table_id),
      code: String(r.eventmodelvalidator),
      template: (r.payloadtemplate as string | null) || null,
      include: (r.includecolumns as string | null) || null,
      exclude: (r.excludecolumns as string | null) || null,
      isStandard: r.isstandardwebhook === 'Y',
    };
    const key = subscriptionKey(s.tableId, s.code);
    index.set(key, [...(index.get(key) ?? []), s]);
  }
  return index;
}
