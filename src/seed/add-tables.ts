import { ident } from '../db/sql.js';
import type { Tx } from '../db/types.js';
import { addColumnStatement, createTableStatements, isStored } from '../dictionary/ddl.js';
import { physicalColumns } from '../dictionary/sync.js';
import type { Row } from '../dictionary/build.js';
import type { Table } from '../dictionary/model.js';
import { alignIdSequence, createTableSequenceRows, FIRST_USER_ID, readSeed, seedTable } from './bootstrap.js';
import { insertSeedRows, seedDefault } from './insert-rows.js';

const inSet = (ids: Set<number>, column: string) => (r: Row): boolean => ids.has(Number(r[column]));

/**
 * Brings tables that a later version adds to the seed into an existing database: the physical
 * tables, their dictionary rows (AD_Table, AD_Column, AD_Element), their AD_Sequence rows and
 * their seed data, then aligns their id sequences. A table that is already there gains the
 * columns a later seed adds to it, and the seed rows it lacks. What is already there stays as it
 * is, so it also runs on a database that migration 1 has just built from the same seed. The
 * references the new columns use must already exist (the seed generator numbers such tables and
 * columns last so that no existing id moves).
 */
export async function addSeedTables(tx: Tx, names: string[], now = new Date().toISOString()): Promise<void> {
  const { rows: seed, data, dict } = readSeed();
  const tables = names.map((name) => seedTable(dict, name));
  const physical = await physicalColumns(tx);
  for (const table of tables) {
    // Before the table's indexes, which may name the new columns.
    await addMissingColumns(tx, table, physical.get(table.dbName), now);
    for (const stmt of createTableStatements(table, FIRST_USER_ID)) await tx.query(stmt);
  }

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

/**
 * Adds the stored columns a table that exists lacks. Its rows get the value a seed row would get
 * for a column it leaves out, so that a Yes-No column with default 'N' reads 'N', not null.
 */
async function addMissingColumns(tx: Tx, table: Table, present: Map<string, string> | undefined, now: string): Promise<void> {
  // No columns: the table does not exist yet and is created with all of them.
  if (!present) return;
  for (const column of table.columns.filter(isStored)) {
    if (present.has(column.dbName)) continue;
    await tx.query(addColumnStatement(table, column));
    const value = seedDefault(column, {}, now);
    if (value !== null) await tx.query(`UPDATE ${ident(table.dbName)} SET ${ident(column.dbName)} = $1`, [value]);
  }
}

/**
 * Brings references (and their list values) that a later seed adds into an existing database,
 * before the columns that use them; references already there stay as they are.
 */
export async function addSeedReferences(tx: Tx, referenceIds: number[], now = new Date().toISOString()): Promise<void> {
  const { rows: seed, dict } = readSeed();
  const ids = new Set(referenceIds);
  await insertSeedRows(tx, seedTable(dict, 'AD_Reference'), seed.references.filter(inSet(ids, 'ad_reference_id')), now, { skipExisting: true });
  await insertSeedRows(tx, seedTable(dict, 'AD_Ref_List'), seed.refLists.filter(inSet(ids, 'ad_reference_id')), now, { skipExisting: true });
}
