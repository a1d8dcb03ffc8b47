import type { Queryable } from '../db/types.js';
import { buildDictionary, type Row } from './build.js';
import type { Dictionary } from './model.js';

/** Reads the dictionary tables and builds the typed dictionary. */
export async function loadDictionary(db: Queryable, version = 1): Promise<Dictionary> {
  const all = async (table: string): Promise<Row[]> => (await db.query<Row>(`SELECT * FROM ${table}`)).rows;
  const [tables, columns, references, refLists, refTables, valRules] = await Promise.all([
    all('ad_table'),
    all('ad_column'),
    all('ad_reference'),
    all('ad_ref_list'),
    all('ad_ref_table'),
    all('ad_val_rule'),
  ]);
  return buildDictionary({ tables, columns, references, refLists, refTables, valRules }, version);
}
