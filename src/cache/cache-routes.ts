import type { FastifyInstance } from 'fastify';
import { tableAccessAllowed } from '../access/access.js';
import type { AuthContext } from '../auth/context.js';
import type { Queryable } from '../db/types.js';
import { badRequest, forbidden } from '../errors.js';
import type { Services } from '../services.js';
import { CACHE_RESET_CHANNEL } from './cache-registry.js';
import { Type } from '@sinclair/typebox';
import { listOf, Open } from '../openapi/answer-schemas.js';

/** The Cache Reset process: the original lets a role reset the caches when it may run it. */
const CACHE_RESET_PROCESS_ID = 205;

async function mayResetCaches(q: Queryable, auth: AuthContext): Promise<boolean> {
  const { rows } = await q.query<{ accesslevel: string }>(
    `SELECT p.accesslevel FROM ad_process p JOIN ad_process_access a ON a.ad_process_id = p.ad_process_id AND a.ad_role_id = $2 AND a.isactive = 'Y'
      WHERE p.ad_process_id = $1 AND p.isactive = 'Y'`,
    [CACHE_RESET_PROCESS_ID, auth.roleId],
  );
  return rows.some((r) => tableAccessAllowed(auth.userLevel, String(r.accesslevel)));
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export async function cacheRoutes(app: FastifyInstance, s: Services): Promise<void> {
  /**
   * The caches of the instance that answers, to any role, as the original lists them: names, sizes
   * and figures, no cached data. table_name keeps the caches holding that table, name one cache.
   */
  app.get('/api/v1/caches', { schema: { summary: 'Caches with their sizes, hits and misses', answer: listOf('caches', Open({ name: Type.String(), size: Type.Optional(Type.Integer()), hits: Type.Optional(Type.Integer()), misses: Type.Optional(Type.Integer()) })), example: { caches: [{ name: 'AD_Table', tableName: 'AD_Table', size: 203, expireMinutes: 0, maxSize: 0, distributed: false, nodeId: 'node-1', hits: 10, misses: 1 }] } }, config: { queryParameters: ['table_name', 'name', 'locale'] } }, async (req) => {
    const q = req.query as { table_name?: unknown; name?: unknown };
    const table = text(q.table_name)?.toLowerCase() ?? null;
    const name = text(q.name);
    const label = (dbName: string) => s.dictionary.current.byName.get(dbName)?.name ?? dbName;
    const held = table === null ? null : new Set(s.caches.matching(table).map((c) => c.name));
    const caches = s.caches.list(s.nodes.id, label).filter((c) => (held === null || held.has(c.name)) && (name === null || c.name === name));
    return { caches };
  });

  /**
   * Resets the caches on every instance: NOTIFY reaches all of them, this one included. A role
   * may when it may run the Cache Reset process (the same reset), as the original decides; a
   * tenant's reset empties the shared caches too, which costs every instance a reload and changes
   * no data. With table_name only the caches holding that table; record_id is accepted, and the
   * caches drop the whole table (they are reloaded as a whole).
   */
  app.delete('/api/v1/caches', { schema: { summary: 'Reset caches (all, of a table, or of a record)', answer: Type.Object({ entriesReset: Type.Integer() }), example: { entriesReset: 12 } }, config: { queryParameters: ['table_name', 'record_id', 'locale'] } }, async (req) => {
    if (!(await mayResetCaches(s.db, req.auth))) throw forbidden('Access denied', 'Access denied for cache reset request');
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
