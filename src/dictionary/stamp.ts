import type { Queryable } from '../db/types.js';

/**
 * A stamp of the dictionary's content: a new random value in the same transaction as every write
 * to a dictionary table, by triggers, so that SQL run outside the service renews it too. Equal
 * stamps mean the same dictionary rows, whatever database or copy of one holds them: a loaded
 * dictionary can be kept in a file under its stamp and read back at the next start.
 */
export const STAMP_TABLE = 'dictum.dictionary_stamp';

/** The stamp's table, function and a trigger on each of `tables` (the dictionary tables). */
export function stampSchema(tables: Iterable<string>): string[] {
  const statements = [
    `CREATE SCHEMA IF NOT EXISTS dictum`,
    `CREATE TABLE IF NOT EXISTS ${STAMP_TABLE} (id int PRIMARY KEY CHECK (id = 1), stamp uuid NOT NULL)`,
    `INSERT INTO ${STAMP_TABLE} (id, stamp) VALUES (1, gen_random_uuid()) ON CONFLICT (id) DO NOTHING`,
    `CREATE OR REPLACE FUNCTION dictum.renew_dictionary_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN UPDATE ${STAMP_TABLE} SET stamp = gen_random_uuid() WHERE id = 1; RETURN NULL; END $$`,
  ];
  for (const table of tables) {
    const trigger = `${table}_dictionary_stamp`;
    statements.push(`DROP TRIGGER IF EXISTS ${trigger} ON ${table}`);
    statements.push(`CREATE TRIGGER ${trigger} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION dictum.renew_dictionary_stamp()`);
  }
  return statements;
}

/**
 * The stamp, or null where the database has none (before the migration that adds it). Outside a
 * transaction only: a missing table fails the statement.
 */
export async function readStamp(q: Queryable): Promise<string | null> {
  try {
    const { rows } = await q.query<{ stamp: string | null }>(`SELECT stamp::text AS stamp FROM ${STAMP_TABLE} WHERE id = 1`);
    return rows[0]?.stamp ?? null;
  } catch {
    return null;
  }
}
