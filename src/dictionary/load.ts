import type { Queryable } from '../db/types.js';
import { buildDictionary, type Row } from './build.js';
import { decodeDelimitedRows, delimitedRowsSql } from './delimited-rows.js';
import type { Dictionary } from './model.js';

const COLUMN_FIELDS = [
  'ad_column_id', 'ad_table_id', 'columnname', 'name', 'ad_reference_id', 'ad_reference_value_id', 'ad_val_rule_id',
  'fieldlength', 'defaultvalue', 'iskey', 'isparent', 'ismandatory', 'isupdateable', 'isalwaysupdateable', 'isidentifier',
  'seqno', 'isselectioncolumn', 'istranslated', 'isencrypted', 'issecure', 'isactive', 'columnsql', 'fkconstrainttype',
];

/** AD_Column as JSON, for the rare dictionary whose texts hold a separator of the delimited form. */
async function columnsAsJson(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ c: string }>(`SELECT coalesce(json_agg(c), '[]')::text AS c FROM (SELECT ${COLUMN_FIELDS.join(', ')} FROM ad_column) c`);
  return rows[0]!.c;
}

/**
 * What the dictionary is built from, as the database sends it: each table as one JSON text
 * (json_agg) rather than thousands of rows, since decoding one text is far cheaper than decoding
 * rows one by one; AD_Column, by far the largest, as delimited text (see delimited-rows.ts),
 * cheaper again for the database to build, or as JSON in the rare dictionary whose texts hold a
 * separator.
 */
export interface DictionarySource {
  /** The dictionary stamp read in the same statement (see stamp.ts); null when not asked or absent. */
  stamp: string | null;
  tables: string;
  columns: { delimited: string | null } | { json: string };
  references: string;
  refLists: string;
  refTables: string;
  valRules: string;
  tableIndexes: string;
  indexColumns: string;
}

/**
 * Reads the dictionary tables in one statement. AD_IndexColumn comes as whole rows: migrations
 * before 5 load the dictionary of databases that lack its IsIncluded column. With `withStamp` the
 * stamp of the same snapshot comes along (the stamp table exists from migration 14 on).
 */
export async function readDictionarySource(db: Queryable, withStamp = false): Promise<DictionarySource> {
  const { rows } = await db.query<Record<string, string | null>>(
    `SELECT ${withStamp ? `(SELECT stamp::text FROM dictum.dictionary_stamp WHERE id = 1)` : 'NULL::text'} AS stamp,
            (SELECT coalesce(json_agg(t), '[]')::text FROM ad_table t) AS tables,
            (${delimitedRowsSql(COLUMN_FIELDS, 'ad_column')}) AS columns,
            (SELECT coalesce(json_agg(r), '[]')::text FROM ad_reference r) AS references,
            (SELECT coalesce(json_agg(l), '[]')::text FROM ad_ref_list l) AS reflists,
            (SELECT coalesce(json_agg(rt), '[]')::text FROM ad_ref_table rt) AS reftables,
            (SELECT coalesce(json_agg(v), '[]')::text FROM ad_val_rule v) AS valrules,
            (SELECT coalesce(json_agg(i), '[]')::text FROM (
               SELECT ad_tableindex_id, ad_table_id, name, isunique, isactive FROM ad_tableindex) i) AS tableindexes,
            (SELECT coalesce(json_agg(ic), '[]')::text FROM ad_indexcolumn ic) AS indexcolumns`,
  );
  const r = rows[0]!;
  const delimited = r.columns ?? null;
  const decoded = decodeDelimitedRows(delimited, COLUMN_FIELDS);
  const columns = decoded ? { delimited } : { json: await columnsAsJson(db) };
  const src: DictionarySource = {
    stamp: r.stamp ?? null,
    tables: r.tables!,
    columns,
    references: r.references!,
    refLists: r.reflists!,
    refTables: r.reftables!,
    valRules: r.valrules!,
    tableIndexes: r.tableindexes!,
    indexColumns: r.indexcolumns!,
  };
  if (decoded) decodedColumns.set(src, decoded);
  return src;
}

/** Columns already decoded while reading a source: building from it does not decode them again. */
const decodedColumns = new WeakMap<DictionarySource, Row[]>();

/** Builds the typed dictionary from its source. */
export function dictionaryFromSource(src: DictionarySource, version = 1): Dictionary {
  const parse = (v: string): Row[] => JSON.parse(v) as Row[];
  const columns = 'json' in src.columns ? parse(src.columns.json) : (decodedColumns.get(src) ?? decodeDelimitedRows(src.columns.delimited, COLUMN_FIELDS));
  if (!columns) throw new Error('The dictionary source holds columns that cannot be decoded');
  return buildDictionary(
    {
      tables: parse(src.tables),
      columns,
      references: parse(src.references),
      refLists: parse(src.refLists),
      refTables: parse(src.refTables),
      valRules: parse(src.valRules),
      tableIndexes: parse(src.tableIndexes),
      indexColumns: parse(src.indexColumns),
    },
    version,
  );
}

/** Reads the dictionary tables and builds the typed dictionary. */
export async function loadDictionary(db: Queryable, version = 1): Promise<Dictionary> {
  return dictionaryFromSource(await readDictionarySource(db), version);
}
