import type { Queryable, Tx } from './types.js';

/**
 * Sends a NOTIFY through a transaction when there is one (this instance's listeners then hear it
 * as the commit returns), else as a statement of its own.
 */
export async function notify(q: Queryable, channel: string, payload: string): Promise<void> {
  const tx = q as Partial<Tx>;
  if (typeof tx.notify === 'function') await tx.notify(channel, payload);
  else await q.query('SELECT pg_notify($1, $2)', [channel, payload]);
}
