import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors.js';
import { requireSystemAdministrator } from '../nodes/admin-access.js';
import type { Services } from '../services.js';
import { CACHE_RESET_CHANNEL } from './cache-registry.js';

export async function cacheRoutes(app: FastifyInstance, s: Services): Promise<void> {
  app.get('/api/v1/caches', async (req) => {
    requireSystemAdministrator(req.auth);
    return { nodeId: s.nodes.id, caches: s.caches.list() };
  });

  /**
   * Resets the caches on every instance: NOTIFY reaches all of them, this one included. With
   * table_name only the caches holding that table; record_id is accepted, and the caches drop the
   * whole table (they are reloaded as a whole).
   */
  app.delete('/api/v1/caches', { config: { queryParameters: ['table_name', 'record_id'] } }, async (req) => {
    requireSystemAdministrator(req.auth);
    const q = req.query as { table_name?: string; record_id?: string };
    let table: string | null = null;
    if (q.table_name !== undefined && q.table_name !== '') {
      const t = s.dictionary.current.tables.find((x) => x.dbName === q.table_name!.toLowerCase());
      if (!t) throw badRequest('Invalid table name', `No table is named ${q.table_name}`);
      table = t.dbName;
    }
    if (q.record_id !== undefined && !/^\d+$/.test(q.record_id)) throw badRequest('Invalid record_id', 'record_id must be a record id');
    const entriesReset = s.caches.matching(table).reduce((n, c) => n + c.stats().size, 0);
    await s.db.query('SELECT pg_notify($1, $2)', [CACHE_RESET_CHANNEL, table ?? '']);
    return { entriesReset };
  });
}
