import type { Db, Queryable } from './types.js';
import { migrations as allMigrations, type Migration } from './migrations/index.js';

/**
 * Applies pending migrations in one transaction. On a shared server an advisory lock makes
 * concurrent starts of several instances wait for the first one instead of racing it.
 */
export async function migrate(db: Db, migrations: Migration[] = allMigrations): Promise<number[]> {
  if (await allApplied(db, migrations)) return [];
  return db.tx(async (tx) => {
    await lockSchemaChanges(tx);
    await tx.query('CREATE SCHEMA IF NOT EXISTS dictum');
    await tx.query(
      'CREATE TABLE IF NOT EXISTS dictum.migration (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const { rows } = await tx.query<{ version: number }>('SELECT version FROM dictum.migration');
    const done = new Set(rows.map((r) => Number(r.version)));
    const applied: number[] = [];
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(m.version)) continue;
      await m.up(tx);
      await tx.query('INSERT INTO dictum.migration (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}

/** A cheap look, without lock or transaction, that lets an up-to-date database start at once. */
async function allApplied(db: Db, migrations: Migration[]): Promise<boolean> {
  const exists = await db.query<{ t: string | null }>(`SELECT to_regclass('dictum.migration')::text AS t`);
  if (!exists.rows[0]?.t) return false;
  const { rows } = await db.query<{ version: number }>('SELECT version FROM dictum.migration');
  const done = new Set(rows.map((r) => Number(r.version)));
  return migrations.every((m) => done.has(m.version));
}

/**
 * Makes the transaction wait for, and then hold off, other changes of the physical schema
 * (migrations, schema synchronisation) until it ends.
 */
export async function lockSchemaChanges(tx: Queryable): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('dictum.migrate'))`);
}
