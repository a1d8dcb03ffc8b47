import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { openDatabase } from '../../../src/db/open.js';
import { projectRoot } from '../../../src/paths.js';
import { cacheDir, freshDatabase, type FreshDatabase } from '../../helpers/database.js';

/** Runs the built service's command line on the test's database; returns exit status and output. */
function dictum(fresh: FreshDatabase, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, DICTUM_DATA_DIR: fresh.dataDir, DICTUM_CACHE_DIR: cacheDir, LOG_LEVEL: 'silent' };
  if (fresh.databaseUrl) env.DATABASE_URL = fresh.databaseUrl;
  else delete env.DATABASE_URL;
  const r = spawnSync(process.execPath, [path.join(projectRoot, 'dist', 'src', 'main.js'), ...args], { env, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs SQL on the test's database from this process (embedded PGlite allows one process at a time). */
async function onDatabase(fresh: FreshDatabase, sql: string): Promise<void> {
  const db = await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir, cacheDir });
  try {
    await db.exec(sql);
  } finally {
    await db.close();
  }
}

describe('the schema command', () => {
  let fresh: FreshDatabase;
  before(async () => {
    fresh = await freshDatabase();
  });
  after(async () => {
    await fresh.drop();
  });

  it('says that a seeded database matches its dictionary, and exits with 0', () => {
    const r = dictum(fresh, 'schema');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'the database matches the dictionary\n');
  });

  it('reports differences without changing anything, and exits with 1', async () => {
    await onDatabase(
      fresh,
      `DROP INDEX ad_user_bpartner; CREATE INDEX ad_user_bpartner ON ad_user (c_bpartner_id, email);
       ALTER TABLE ad_user DROP COLUMN phone2; ALTER TABLE ad_user ADD COLUMN legacy text`,
    );
    const expected = [
      'AD_User.Phone2: missing column (expected character varying(40))',
      'AD_User.legacy: extra column',
      'AD_User.ad_user_bpartner: index differs (expected (c_bpartner_id), found (c_bpartner_id, email))',
      '3 differences between the dictionary and the database',
    ];
    const first = dictum(fresh, 'schema');
    assert.equal(first.status, 1, first.stderr);
    assert.deepEqual(first.stdout.trim().split('\n'), expected);
    const again = dictum(fresh, 'schema');
    assert.deepEqual(again.stdout.trim().split('\n'), expected, 'a report changes nothing');
  });

  it('with --apply adds the column and rebuilds the index; an extra column is never dropped', () => {
    const r = dictum(fresh, 'schema', '--apply');
    assert.equal(r.status, 1, r.stderr);
    assert.deepEqual(r.stdout.trim().split('\n'), [
      'applied: AD_User.Phone2: missing column (expected character varying(40))',
      'applied: AD_User.ad_user_bpartner: index differs (expected (c_bpartner_id), found (c_bpartner_id, email))',
      'AD_User.legacy: extra column',
      '1 difference between the dictionary and the database',
    ]);
  });

  it('once the extra column is gone, the database matches', async () => {
    await onDatabase(fresh, 'ALTER TABLE ad_user DROP COLUMN legacy');
    const r = dictum(fresh, 'schema', '--apply');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'the database matches the dictionary\n');
  });

  it('refuses an unknown option before it opens the database', () => {
    const r = dictum(fresh, 'schema', '--drop');
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^dictum: Unknown option '--drop' of schema: use dictum schema \[--apply\] \[--distributed\] \[--json\] \[--strict\] \(--help lists the options\)\n$/);
  });
});
