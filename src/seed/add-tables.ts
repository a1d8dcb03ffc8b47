import type { Tx } from '../db/types.js';
import { createTableStatements } from '../dictionary/ddl.js';
import type { Row } from '../dictionary/build.js';
import { alignIdSequence, createTableSequenceRows, FIRST_USER_ID, readSeed, seedTable } from './bootstrap.js';
import { insertSeedRows } from './insert-rows.js';

const inSet = (ids: Set<number>, column: string) => (r: Row): boolean => ids.has(Number(r[column]));

/**
 * Brings tables that a later version adds to the seed into an existing database: the physical
 * tables, their dictionary rows (AD_Table, AD_Column, AD_Element), their AD_Sequence rows and
 * their seed data, then aligns their id sequences. What is already there stays as it is, so it
 * also runs on a database that migration 1 has just built from the same seed. The references
 * the new columns use must already exist (the seed generator numbers such tables last so that
 * no existing id moves).
 */
export async function addSeedTables(tx: Tx, names: string[], now = new Date().toISOString()): Promise<void> {
  const { rows: seed, data, dict } = readSeed();
  const tables = names.map((name) => seedTable(dict, name));
  for (const table of tables) for (const stmt of createTableStatements(table, FIRST_USER_ID)) await tx.query(stmt);

  const tableIds = new Set(tables.map((t) => t.id));
  const columns = seed.columns.filter(inSet(tableIds, 'ad_table_id'));
  const elementIds = new Set(columns.map((c) => Number(c.ad_element_id)));
  const skipExisting = { skipExisting: true };
  await insertSeedRows(tx, seedTable(dict, 'AD_Table'), seed.tables.filter(inSet(tableIds, 'ad_table_id')), now, skipExisting);
  await insertSeedRows(tx, seedTable(dict, 'AD_Column'), columns, now, skipExisting);
  await insertSeedRows(tx, seedTable(dict, 'AD_Element'), seed.elements.filter(inSet(elementIds, 'ad_element_id')), now, skipExisting);
  await createTableSequenceRows(tx, dict, tables, now);
  for (const table of tables) {
    await insertSeedRows(tx, table, data.get(table.name) ?? [], now, skipExisting);
    await alignIdSequence(tx, table);
  }
}
