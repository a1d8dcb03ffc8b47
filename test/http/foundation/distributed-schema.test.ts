import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { openDatabase } from '../../../src/db/open.js';
import type { Db } from '../../../src/db/types.js';
import { projectRoot } from '../../../src/paths.js';
import { distributionReport } from '../../../src/distribution/command.js';
import { keyDistributedTablesByClient } from '../../../src/distribution/client-keys.js';
import type { DistributionReport, TableVerdict } from '../../../src/distribution/check.js';
import { loadDictionary } from '../../../src/dictionary/load.js';
import { compareSchema } from '../../../src/dictionary/sync.js';
import { cacheDir, freshDatabase, type FreshDatabase } from '../../helpers/database.js';

/** Runs the built service's command line on the test's database. */
function dictum(fresh: FreshDatabase, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, DICTUM_DATA_DIR: fresh.dataDir, DICTUM_CACHE_DIR: cacheDir, LOG_LEVEL: 'silent' };
  if (fresh.databaseUrl) env.DATABASE_URL = fresh.databaseUrl;
  else delete env.DATABASE_URL;
  const r = spawnSync(process.execPath, [path.join(projectRoot, 'dist', 'src', 'main.js'), ...args], { env, encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Opens the test's database in this process (embedded PGlite allows one process at a time), runs fn, closes it. */
async function withDatabase<T>(fresh: FreshDatabase, fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir, cacheDir });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

const verdict = (report: DistributionReport, table: string, schema = 'public'): TableVerdict => {
  const v = report.tables.find((t) => t.table === table && (schema === 'dictum' ? t.schema === 'dictum' : t.schema !== 'dictum'));
  assert.ok(v, `${schema}.${table} is in the report`);
  return v;
};
const kinds = (v: TableVerdict): string[] => [...new Set(v.blockers.map((b) => b.kind))].sort();
const details = (v: TableVerdict, kind: string): string[] => v.blockers.filter((b) => b.kind === kind).map((b) => b.detail);

describe('schema --distributed', () => {
  let fresh: FreshDatabase;
  before(async () => {
    fresh = await freshDatabase();
  });
  after(async () => {
    await fresh.drop();
  });

  it('classifies every table: documents and partners distributed, the dictionary and shared configuration reference, the queue local', () => {
    const r = dictum(fresh, 'schema', '--distributed', '--json');
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout) as DistributionReport;
    for (const t of ['c_order', 'c_orderline', 'c_invoice', 'c_bpartner', 'm_product', 'fact_acct', 'c_location', 'ad_changelog']) assert.equal(verdict(report, t).distribution, 'distributed', t);
    for (const t of ['ad_table', 'ad_column', 'c_currency', 'c_country', 'c_uom', 'ad_role', 'ad_org']) assert.equal(verdict(report, t).distribution, 'reference', t);
    assert.equal(verdict(report, 'queue_item', 'dictum').distribution, 'local');
    assert.equal(verdict(report, 'migration', 'dictum').distribution, 'local');
    assert.equal(verdict(report, 'idempotent_request', 'dictum').distribution, 'distributed');
    assert.deepEqual(kinds(verdict(report, 'idempotent_request', 'dictum')), []);
    assert.equal(verdict(report, 'idempotent_answer', 'dictum').distribution, 'distributed');
    assert.deepEqual(kinds(verdict(report, 'idempotent_answer', 'dictum')), []);
    const s = report.summary;
    assert.equal(s.tables, report.tables.length);
    assert.equal(s.distributed + s.reference + s.local, s.tables);
  });

  it('finds the primary keys and UUID indexes keyed by AD_Client_ID, and lists what still blocks', () => {
    const report = JSON.parse(dictum(fresh, 'schema', '--distributed', '--json').stdout) as DistributionReport;
    const order = verdict(report, 'c_order');
    // Keys include ad_client_id: only the joins of its lookups to other distributed tables remain.
    assert.deepEqual(kinds(order), ['lookup-join']);
    assert.ok(details(order, 'lookup-join').includes('c_bpartner_id -> c_bpartner'));
    assert.ok(!details(order, 'lookup-join').some((d) => d.endsWith('-> c_currency') || d.endsWith('-> ad_org')), 'lookups to reference tables are no blockers');
    // The storage's key is an ON CONFLICT target of the inventory code: reported, not changed.
    assert.deepEqual(details(verdict(report, 'm_storageonhand'), 'unique-index'), ['m_storageonhand_key (m_product_id, m_locator_id, m_attributesetinstance_id, datematerialpolicy)']);
    // The product price's unique index ends with ad_client_id (migration 293).
    assert.deepEqual(details(verdict(report, 'm_productprice'), 'unique-index'), []);
    assert.deepEqual(verdict(report, 'ad_table').blockers, []);
    assert.equal(report.summary.blockers['primary-key'], undefined);
    assert.equal(report.summary.blockers['unique-index'], 2);
  });

  it('prints the report as text, exits with 0 while blockers remain, and with 1 under --strict', () => {
    const r = dictum(fresh, 'schema', '--distributed');
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.match(lines[0]!, /^\d+ tables on a distributed PostgreSQL \(Citus\) by ad_client_id: \d+ distributed, \d+ reference, \d+ local; \d+ without blockers$/);
    assert.match(lines[1]!, /^blockers: .*lookup-join \d+/);
    assert.ok(lines.includes("  c_order: access level 1 (Organization): each client's own rows"));
    assert.ok(lines.includes('  ad_table: access level 4 (System only): System rows every client reads; ready'));
    assert.ok(lines.some((l) => l.startsWith('  dictum.queue_item: the job queue')));
    assert.equal(dictum(fresh, 'schema', '--distributed', '--strict').status, 1);
  });

  it('refuses --json and --strict without --distributed, and --apply with it', () => {
    for (const args of [['--json'], ['--strict'], ['--apply', '--distributed']]) {
      const r = dictum(fresh, 'schema', ...args);
      assert.equal(r.status, 2, args.join(' '));
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^dictum: (--json and --strict go with schema --distributed|schema takes --apply or --distributed, not both)\n$/);
    }
  });

  it('reports an older database\'s single-column keys and foreign keys, and the migration re-keys the table', async () => {
    await withDatabase(fresh, async (db) => {
      await db.exec(
        `ALTER TABLE c_order DROP CONSTRAINT c_order_pkey; ALTER TABLE c_order ADD PRIMARY KEY (c_order_id);
         DROP INDEX c_order_uu_idx; CREATE UNIQUE INDEX c_order_uu_idx ON c_order (c_order_uu);
         ALTER TABLE c_orderline ADD CONSTRAINT orderline_order_fk FOREIGN KEY (c_order_id) REFERENCES c_order (c_order_id) NOT VALID;
         ALTER TABLE ad_user ADD CONSTRAINT user_order_fk FOREIGN KEY (c_bpartner_id) REFERENCES c_order (c_order_id) NOT VALID;
         ALTER TABLE c_orderline ADD CONSTRAINT orderline_currency_fk FOREIGN KEY (c_currency_id) REFERENCES c_currency (c_currency_id) NOT VALID`,
      );
      const before = await distributionReport(db);
      const order = verdict(before, 'c_order');
      assert.deepEqual(details(order, 'primary-key'), ['c_order_pkey (c_order_id)']);
      assert.deepEqual(details(order, 'unique-index'), ['c_order_uu_idx (c_order_uu)']);
      // Between distributed tables without ad_client_id: a blocker; to a reference table: none.
      assert.deepEqual(details(verdict(before, 'c_orderline'), 'foreign-key'), ['orderline_order_fk (c_order_id) -> c_order (c_order_id)']);
      assert.deepEqual(details(verdict(before, 'ad_user'), 'foreign-key-to-distributed'), ['user_order_fk (c_bpartner_id) -> c_order']);
      await db.exec('ALTER TABLE c_orderline DROP CONSTRAINT orderline_order_fk; ALTER TABLE ad_user DROP CONSTRAINT user_order_fk');
      const changed = await db.tx((tx) => keyDistributedTablesByClient(tx));
      assert.deepEqual(changed, ['c_order']);
      const after = await distributionReport(db);
      assert.deepEqual(kinds(verdict(after, 'c_order')), ['lookup-join']);
      assert.deepEqual(await compareSchema(db, await loadDictionary(db, 2)), []);
      const again = await db.tx((tx) => keyDistributedTablesByClient(tx));
      assert.deepEqual(again, [], 'a second run changes nothing');
    });
  });

  it('reads and writes by id and by UUID still work on the re-keyed table', async () => {
    await withDatabase(fresh, async (db) => {
      const price = await db.query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE indexname = 'm_productprice_plv_product'");
      assert.match(price.rows[0]!.indexdef, /UNIQUE INDEX .*\(m_pricelist_version_id, m_product_id, ad_client_id\)/);
      const { rows } = await db.query<{ c_order_id: string; c_order_uu: string }>('SELECT c_order_id, c_order_uu FROM c_order ORDER BY c_order_id LIMIT 1');
      const first = rows[0]!;
      const byId = await db.query('SELECT c_order_uu FROM c_order WHERE c_order_id = $1', [first.c_order_id]);
      assert.equal(byId.rows.length, 1);
      const byUu = await db.query('SELECT c_order_id FROM c_order WHERE c_order_uu = $1', [first.c_order_uu]);
      assert.equal(String(byUu.rows[0]!.c_order_id), String(first.c_order_id));
      await assert.rejects(
        db.query('INSERT INTO c_order (c_order_id, c_order_uu, ad_client_id) SELECT c_order_id, c_order_uu, ad_client_id FROM c_order WHERE c_order_id = $1', [first.c_order_id]),
        (e: { code?: string }) => e.code === '23505',
        'the same id in the same client is still refused',
      );
    });
  });
});
