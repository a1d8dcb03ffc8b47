import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkDistribution } from '../../../src/distribution/check.js';
import type { CatalogTable } from '../../../src/distribution/catalog.js';
import { formatDistributionReport } from '../../../src/distribution/report.js';
import { dictionaryTableDistribution } from '../../../src/dictionary/distribution.js';

const table = (schema: string, name: string, columns: string[], extra: Partial<CatalogTable> = {}): CatalogTable => ({ schema, name, columns, uniqueIndexes: [], foreignKeys: [], ...extra });

describe('the distribution check', () => {
  it('places dictionary tables by access level, with the client data of shared levels distributed', () => {
    assert.equal(dictionaryTableDistribution({ dbName: 'c_order', accessLevel: '1' }), 'distributed');
    assert.equal(dictionaryTableDistribution({ dbName: 'c_bpartner', accessLevel: '3' }), 'distributed');
    assert.equal(dictionaryTableDistribution({ dbName: 'ad_table', accessLevel: '4' }), 'reference');
    assert.equal(dictionaryTableDistribution({ dbName: 'c_currency', accessLevel: '6' }), 'reference');
    assert.equal(dictionaryTableDistribution({ dbName: 'ad_changelog', accessLevel: '6' }), 'distributed');
    assert.equal(dictionaryTableDistribution({ dbName: 'c_location', accessLevel: '7' }), 'distributed');
  });

  it('lists each kind of blocker, and tables it has no rule for', () => {
    const catalog = [
      table('public', 'c_order', ['c_order_id', 'ad_client_id', 'c_order_uu'], {
        uniqueIndexes: [
          { name: 'c_order_pkey', primary: true, partial: false, columns: ['c_order_id'] },
          { name: 'c_order_uu_idx', primary: false, partial: false, columns: ['c_order_uu', 'ad_client_id'] },
          { name: 'c_order_doc', primary: false, partial: true, columns: ['documentno'] },
        ],
      }),
      table('public', 'c_orderline', ['c_orderline_id', 'ad_client_id', 'c_order_id'], {
        foreignKeys: [
          { name: 'ok_fk', columns: ['c_order_id', 'ad_client_id'], refSchema: 'public', refTable: 'c_order', refColumns: ['c_order_id', 'ad_client_id'] },
          { name: 'bad_fk', columns: ['c_order_id'], refSchema: 'public', refTable: 'c_order', refColumns: ['c_order_id'] },
        ],
      }),
      table('public', 'c_noclient', ['c_noclient_id']),
      table('public', 'ad_table', ['ad_table_id', 'ad_client_id'], { foreignKeys: [{ name: 'ref_fk', columns: ['c_order_id'], refSchema: 'public', refTable: 'c_order', refColumns: ['c_order_id'] }] }),
      table('public', 'stray', ['x']),
      table('dictum', 'queue_item', ['id']),
      table('dictum', 'something_new', ['id']),
    ];
    const dictionary = [
      { dbName: 'c_order', accessLevel: '1', lookups: [{ column: 'c_currency_id', target: 'ad_table' }] },
      { dbName: 'c_orderline', accessLevel: '1', lookups: [{ column: 'c_order_id', target: 'c_order' }] },
      { dbName: 'c_noclient', accessLevel: '3', lookups: [] },
      { dbName: 'ad_table', accessLevel: '4', lookups: [] },
    ];
    const report = checkDistribution(catalog, dictionary);
    const by = Object.fromEntries(report.tables.map((t) => [`${t.schema}.${t.table}`, t]));
    assert.deepEqual(by['public.c_order']!.blockers, [
      { kind: 'primary-key', detail: 'c_order_pkey (c_order_id)' },
      { kind: 'unique-index', detail: 'c_order_doc (documentno) partial' },
    ]);
    assert.deepEqual(by['public.c_orderline']!.blockers, [
      { kind: 'foreign-key', detail: 'bad_fk (c_order_id) -> c_order (c_order_id)' },
      { kind: 'lookup-join', detail: 'c_order_id -> c_order' },
    ]);
    assert.deepEqual(by['public.c_noclient']!.blockers, [{ kind: 'no-distribution-column', detail: 'no ad_client_id column' }]);
    assert.deepEqual(by['public.ad_table']!.blockers, [{ kind: 'foreign-key-to-distributed', detail: 'ref_fk (c_order_id) -> c_order' }]);
    assert.equal(by['public.stray']!.distribution, 'local');
    assert.deepEqual(by['public.stray']!.blockers.map((b) => b.kind), ['unclassified']);
    assert.deepEqual(by['dictum.queue_item']!.blockers, []);
    assert.deepEqual(by['dictum.something_new']!.blockers.map((b) => b.kind), ['unclassified']);
    assert.deepEqual(report.summary, {
      tables: 7,
      distributed: 3,
      reference: 1,
      local: 3,
      ready: 1,
      blockers: { 'primary-key': 1, 'unique-index': 1, 'foreign-key': 1, 'lookup-join': 1, 'no-distribution-column': 1, 'foreign-key-to-distributed': 1, unclassified: 2 },
    });
    const text = formatDistributionReport(report);
    assert.equal(text[0], '7 tables on a distributed PostgreSQL (Citus) by ad_client_id: 3 distributed, 1 reference, 3 local; 1 without blockers');
    assert.ok(text.includes("  c_order: access level 1 (Organization): each client's own rows"));
    assert.ok(text.includes('    primary-key: c_order_pkey (c_order_id)'));
    assert.ok(text.includes('    unique-index: c_order_doc (documentno) partial'));
    assert.ok(text.includes('  dictum.queue_item: the job queue, polled with FOR UPDATE SKIP LOCKED across all clients; a distributed table would poll every shard; ready'));
    assert.ok(text.includes('Local tables, kept on the coordinator: 3'));
  });
});
