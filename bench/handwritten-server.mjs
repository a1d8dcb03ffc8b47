// The hand-written server the benchmark compares Dictum with: what a careful engineer writes for the
// same two reads with Fastify and pg, without a dictionary. The same table, filter and order as
// Dictum's list read (the prefix as a range, so that the name index serves it; the client's and
// System's rows; active customers), the exact count, the same pool size; named prepared statements.
// It answers the same JSON as Dictum: the list's envelope and headers, and each partner with the
// identifiers of its foreign keys and list values (lib/handwritten-partner.mjs). It checks no token.
// Usage: DATABASE_URL=... PORT=... node bench/handwritten-server.mjs
import Fastify from 'fastify';
import pg from 'pg';
import { loadListNames, partnerRecord } from './lib/handwritten-partner.mjs';
import { BY_ID, COUNT, PAGE, upper } from './lib/handwritten-sql.mjs';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_SIZE ?? 5) });
const lists = await loadListNames(pool);
const app = Fastify({ logger: false });

app.get('/partners', async (req, reply) => {
  // lo <= name < hi; a prefix alone stands for the names that start with it.
  const lo = String(req.query.lo ?? req.query.prefix ?? '');
  const hi = req.query.hi === undefined ? upper(lo) : String(req.query.hi);
  const top = Math.min(Number(req.query.top ?? 50) || 50, 100);
  const skip = Math.max(Number(req.query.skip ?? 0) || 0, 0);
  const range = [lo, hi];
  const page = await pool.query({ ...PAGE, values: [...range, top, skip] });
  // A page that is not full tells the total; otherwise count, as Dictum does.
  const rowCount = page.rows.length < top && (page.rows.length > 0 || skip === 0) ? skip + page.rows.length : (await pool.query({ ...COUNT, values: range })).rows[0].n;
  const pageCount = Math.ceil(rowCount / top);
  reply.headers({ 'x-page-count': pageCount, 'x-records-size': top, 'x-skip-records': skip, 'x-row-count': rowCount, 'x-row-count-kind': 'exact', 'x-array-count': page.rows.length });
  const records = page.rows.map((r) => partnerRecord(r, lists));
  return { 'page-count': pageCount, 'records-size': top, 'skip-records': skip, 'row-count': rowCount, records, 'array-count': records.length };
});

app.get('/partners/:id', async (req, reply) => {
  const { rows } = await pool.query({ ...BY_ID, values: [Number(req.params.id)] });
  if (!rows.length) return reply.code(404).send({ title: 'Not found' });
  return partnerRecord(rows[0], lists);
});

await app.listen({ port: Number(process.env.PORT ?? 8090), host: '127.0.0.1' });
process.on('SIGTERM', () => app.close().then(() => pool.end()).then(() => process.exit(0)));
