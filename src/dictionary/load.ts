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
async function columnsAsJson(db: Queryable): Promise<Row[]> {
  const { rows } = await db.query<{ c: Row[] | string }>(`SELECT coalesce(json_agg(c), '[]') AS c FROM (SELECT ${COLUMN_FIELDS.join(', ')} FROM ad_column) c`);
  const v = rows[0]!.c;
  return typeof v === 'string' ? (JSON.parse(v) as Row[]) : v;
}

/**
 * Reads the dictionary tables and builds the typed dictionary. Each table arrives as one JSON
 * document (json_agg) rather than thousands of rows: decoding one text value is far cheaper than
 * decoding rows one by one, which keeps start-up and reloads fast; AD_Column, by far the largest,
arrives as delimited text (see delimited-rows.ts), cheaper again for the database to build. AD_IndexColumn comes as whole
 * rows: migrations before 5 load the dictionary of databases that lack its IsIncluded column.
 */
export async function loadDictionary(db: Queryable, version = 1): Promise<Dictionary> {
  const { rows } = await db.query<{
    tables: Row[];
    columns: string | null;
    references: Row[];
    reflists: Row[];
    reftables: Row[];
    valrules: Row[];
    tableindexes: Row[];
    indexcolumns: Row[];
  }>(
    `SELECT (SELECT coalesce(json_agg(t), '[]') FROM ad_table t) AS tables,
            (${delimitedRowsSql(COLUMN_FIELDS, 'ad_column')}) AS columns,
            (SELECT coalesce(json_agg(r), '[]') FROM ad_reference r) AS references,
            (SELECT coalesce(json_agg(l), '[]') FROM ad_ref_list l) AS reflists,
            (SELECT coalesce(json_agg(rt), '[]') FROM ad_ref_table rt) AS reftables,
            (SELECT coalesce(json_agg(v), '[]') FROM ad_val_rule v) AS valrules,
            (SELECT coalesce(json_agg(i), '[]') FROM (
               SELECT ad_tableindex_id, ad_table_id, name, isunique, isactive FROM ad_tableindex) i) AS tableindexes,
            (SELECT coalesce(json_agg(ic), '[]') FROM ad_indexcolumn ic) AS indexcolumns`,
  );
  const r = rows[0]!;
  const parse = (v: unknown): Row[] => (typeof v === 'string' ? (JSON.parse(v) as Row[]) : (v as Row[]));
  return buildDictionary(
    {
      tables: parse(r.tables),
      columns: decodeDelimitedRows(r.columns, COLUMN_FIELDS) ?? (await columnsAsJson(db)),
      references: parse(r.references),
      refLists: parse(r.reflists),
      refTables: parse(r.reftables),
      valRules: parse(r.valrules),
      tableIndexes: parse(r.tableindexes),
      indexColumns: parse(r.indexcolumns),
    },
    version,
  );
}
