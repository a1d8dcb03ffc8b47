// The order scenario measures a database in use: one that already holds KEPT_ORDERS orders.
//
// A new benchmark database holds only the demo's five orders. Once such tables are analyzed,
// PostgreSQL plans the order path's statements for tiny tables (sequential scans), each pooled
// connection keeps those plans once they are generic, and the tables then grow by thousands of
// rows a second until autovacuum analyzes them again, up to a minute later. Measured that way on
// a new database, order creation fell from about 300/s to 170-200/s. So before the first
// measurement the orders that a database in use would hold are created through the service
// itself, and then the order tables are analyzed, which makes every connection plan its
// statements again for tables of their real size.
import { KEPT_ORDERS, ORDER_MARK } from './dataset.mjs';
import { sendOne } from './requests.mjs';

export const ORDER_TABLES = ['c_order', 'c_orderline', 'c_ordertax'];

/** Orders of earlier runs (Description ORDER_MARK) in the database. */
export async function keptOrders(client) {
  const r = await client.query('SELECT count(*)::int AS n FROM c_order WHERE description = $1', [ORDER_MARK]);
  return r.rows[0].n;
}

/**
 * Creates orders through the service (the order scenario's request, `concurrency` at a time)
 * until the database holds `kept` of them, then VACUUM ANALYZEs the order tables.
 * Returns the number created; 0 when there were enough already (nothing else is done then).
 * Stops at the first failed request, with its status and body.
 */
export async function ensureOrdersInUse({ client, baseUrl, token, desc, kept = KEPT_ORDERS, concurrency = 8, send = sendOne }) {
  const missing = kept - (await keptOrders(client));
  if (missing <= 0) return 0;
  let next = 0;
  let failure = null;
  const worker = async () => {
    while (!failure && next < missing) {
      next++;
      const r = await send(baseUrl, desc, token, 'prime');
      if (r.status !== 201 && !failure) failure = new Error(`creating the orders of a database in use: ${desc.method} ${r.path} answered ${r.status}: ${r.body.slice(0, 400)}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, missing) }, worker));
  if (failure) throw failure;
  for (const t of ORDER_TABLES) await client.query(`VACUUM ANALYZE ${t}`);
  return missing;
}
