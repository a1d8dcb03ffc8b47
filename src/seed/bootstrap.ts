import { ident } from '../db/sql.js';
import type { Tx } from '../db/types.js';
import { buildDictionary } from '../dictionary/build.js';
import { createTableStatements, idSequenceName } from '../dictionary/ddl.js';
import type { Dictionary, Table } from '../dictionary/model.js';
import { readSeedData, readSeedDictionary, seedIndexRows, type SeedDictionary } from './dictionary-files.js';
import { insertSeedRows } from './insert-rows.js';
import { hashPassword, isPhc } from '../auth/passwords.js';

export const FIRST_USER_ID = 1_000_000;

/** The seed: its dictionary rows, its data files, and the dictionary they make (with the seed's indexes). */
export interface Seed {
  rows: SeedDictionary;
  data: Map<string, Record<string, unknown>[]>;
  dict: Dictionary;
}

export function readSeed(): Seed {
  const rows = readSeedDictionary();
  const data = readSeedData();
  return { rows, data, dict: buildDictionary({ ...rows, ...seedIndexRows(data) }) };
}

/** A table of the seed dictionary; the seed lacking it is a build error. */
export function seedTable(dict: Dictionary, name: string): Table {
  const table = dict.byName.get(name.toLowerCase());
  if (!table) throw new Error(`The seed dictionary lacks table ${name}`);
  return table;
}

/**
 * Creates the physical schema from the seed dictionary (the dictionary describes itself, so
 * its own tables come out of the same generator), stores the dictionary rows, loads the demo
 * company and aligns every id sequence.
 */
export async function bootstrap(tx: Tx, now = new Date().toISOString()): Promise<Dictionary> {
  const { rows: seed, data, dict } = readSeed();
  for (const table of dict.tables) {
    if (table.isView) continue;
    for (const stmt of createTableStatements(table, FIRST_USER_ID)) await tx.query(stmt);
  }
  const t = (name: string): Table => seedTable(dict, name);
  await insertSeedRows(tx, t('AD_Table'), seed.tables, now);
  await insertSeedRows(tx, t('AD_Column'), seed.columns, now);
  await insertSeedRows(tx, t('AD_Element'), seed.elements, now);
  await insertSeedRows(tx, t('AD_Reference'), seed.references, now);
  await insertSeedRows(tx, t('AD_Ref_List'), seed.refLists, now);
  await insertSeedRows(tx, t('AD_Ref_Table'), seed.refTables, now);
  await insertSeedRows(tx, t('AD_Val_Rule'), seed.valRules, now);

  for (const [tableName, rows] of data) {
    const stored = tableName.toLowerCase() === 'ad_user' ? await hashSeedPasswords(rows) : rows;
    await insertSeedRows(tx, t(tableName), stored, now);
  }
  await createTableSequenceRows(tx, dict, dict.tables, now);
  for (const table of dict.tables) await alignIdSequence(tx, table);
  return dict;
}

/** The seed files carry the documented demo passwords; the database only ever holds their argon2id hashes. */
async function hashSeedPasswords(rows: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  return Promise.all(
    rows.map(async (row) => {
      const key = Object.keys(row).find((k) => k.toLowerCase() === 'password');
      const plain = key ? row[key] : null;
      if (!key || typeof plain !== 'string' || plain === '' || isPhc(plain)) return row;
      return { ...row, [key]: await hashPassword(plain) };
    }),
  );
}

/** One AD_Sequence row (IsTableID=Y) per table with a key, as the dictionary's record of its ids; tables that have one keep it. */
export async function createTableSequenceRows(tx: Tx, dict: Dictionary, tables: Table[], now: string): Promise<void> {
  const seqTable = seedTable(dict, 'AD_Sequence');
  const existing = await tx.query<{ name: string }>(`SELECT name FROM ad_sequence WHERE istableid = 'Y' AND ad_client_id = 0`);
  const have = new Set(existing.rows.map((r) => r.name.toLowerCase()));
  // Seeded ids stay below the first user id: these rows follow the seeded ones.
  const top = await tx.query<{ id: number }>('SELECT COALESCE(MAX(ad_sequence_id), 0) AS id FROM ad_sequence WHERE ad_sequence_id < $1', [FIRST_USER_ID]);
  let nextId = Number(top.rows[0]!.id) + 1;
  const rows = tables
    .filter((table) => table.keyColumn && !table.isView && !have.has(table.name.toLowerCase()))
    .map((table) => ({
      AD_Sequence_ID: nextId++,
      AD_Client_ID: 0,
      AD_Org_ID: 0,
      Name: table.name,
      Description: `Record ids of ${table.name}`,
      IsTableID: 'Y',
      IsAutoSequence: 'Y',
      IncrementNo: 1,
      StartNo: FIRST_USER_ID,
      CurrentNext: FIRST_USER_ID,
      CurrentNextSys: 200000,
    }));
  const known = new Set(seqTable.columns.map((c) => c.dbName));
  const filtered = rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => known.has(k.toLowerCase()))));
  await insertSeedRows(tx, seqTable, filtered, now);
}

/** Moves a table's id sequence past the seeded ids and never below the first user id. */
export async function alignIdSequence(tx: Tx, table: Table): Promise<void> {
  if (!table.keyColumn || table.isView) return;
  await tx.query(
    `SELECT setval('${idSequenceName(table)}', GREATEST(${FIRST_USER_ID}, (SELECT COALESCE(MAX(${ident(table.keyColumn.dbName)}), 0) + 1 FROM ${ident(table.dbName)})), false)`,
  );
}
