import { ident } from '../../db/sql.js';
import type { Column, Dictionary, Table } from '../../dictionary/model.js';
import { fetchedColumns, outputColumns } from './output-columns.js';
import { decodeOf, selectItems } from './select-list.js';
import { keptIdentifiersSettled } from './identifier-cache.js';
import { packedSelect, type SelectItem } from './packed-row.js';
import { recordWriter, type RecordWriter } from '../record-text.js';

/** What a read of one table with one $select returns and the SELECT list that fetches it. */
export interface Projection {
  output: Column[];
  /** What the statement fetches, in the order of the packed row. */
  items: SelectItem[];
  list: string;
  /** Whole statement texts by their variable tail (FROM/WHERE/ORDER): one string per shape. */
  texts: Map<string, string>;
  /** For the records of an expanded detail: the column linking them to their parent (fetched last, as LINK). */
  link?: Column;
  /** Writes a record's JSON text from its packed values (made on first use; null: build objects). */
  writer?: RecordWriter | null;
}

/** Name of the item that carries a detail row's parent key. */
export const LINK = '$link';

const MAX_PROJECTIONS = 2000;
const MAX_TEXTS = 64;
const byDictionary = new WeakMap<Dictionary, Map<string, Projection>>();

/**
 * The projection of a read, built once per dictionary version, table, $select and, for an
 * expanded detail, its link column. Building the SELECT list (identifier subqueries of every
 * lookup) is the costliest part of planning a read, and reusing one statement text also keeps
 * its prepared-statement name lookup cheap.
 */
export function projection(dict: Dictionary, table: Table, select: string[] | undefined, alias: string, link?: Column): Projection {
  let cache = byDictionary.get(dict);
  if (!cache) byDictionary.set(dict, (cache = new Map()));
  // Statements read the identifiers of small tables themselves until those are counted.
  const key = `${keptIdentifiersSettled(dict) ? 'k' : ''}|${table.dbName}|${alias}|${select ? select.join(',').toLowerCase() : '*'}${link ? `|${link.dbName}` : ''}`;
  let p = cache.get(key);
  if (!p) {
    const output = outputColumns(table, select);
    const items = selectItems(dict, table, fetchedColumns(table, output), alias);
    if (link) items.push({ expr: `${ident(alias)}.${ident(link.dbName)}`, name: LINK, decode: decodeOf(link) });
    p = { output, items, list: packedSelect(items), texts: new Map(), ...(link ? { link } : {}) };
    if (cache.size < MAX_PROJECTIONS) cache.set(key, p);
  }
  return p;
}

/** `SELECT <list> <tail>`, the same string instance for the same tail. */
export function statementText(p: Projection, tail: string): string {
  let text = p.texts.get(tail);
  if (!text) {
    text = `SELECT ${p.list} ${tail}`;
    if (p.texts.size < MAX_TEXTS) p.texts.set(tail, text);
  }
  return text;
}

/** The writer of a projection's records as JSON text (null when they must be built as objects). */
export function projectionWriter(dict: Dictionary, table: Table, p: Projection): RecordWriter | null {
  if (p.writer === undefined) p.writer = recordWriter(dict, table, p.items, p.link ? { columns: p.output, omit: p.link, modelName: false } : { columns: p.output });
  return p.writer;
}
