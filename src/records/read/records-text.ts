import type { Table } from '../../dictionary/model.js';
import type { RecordWriter } from '../record-text.js';
import { expandsAsText, type DetailTexts } from './expand.js';
import { projectionWriter, type Projection } from './projection.js';
import type { ReadContext } from './read-context.js';
import type { ReadOptions } from './read-options.js';

const members = new WeakMap<Projection, Set<string>>();

/** The members a record of the projection has (made once per projection): a detail under one of these names would replace it. */
function memberNames(p: Projection): Set<string> {
  let names = members.get(p);
  if (!names) members.set(p, (names = new Set(['id', 'uid', 'model-name', ...p.output.map((c) => c.name)])));
  return names;
}

/**
 * The writer of a read's records as JSON text, or null when the read must build objects: with
 * showlabel, with an $expand that text cannot carry (see expandsAsText), or when the records'
 * members need an object.
 */
export function textWriterOf(rc: ReadContext, table: Table, p: Projection, o: Pick<ReadOptions, 'expand' | 'showLabel'>): RecordWriter | null {
  if (o.showLabel) return null;
  if (o.expand?.length && !expandsAsText(table, o.expand, memberNames(p))) return null;
  return projectionWriter(rc.dict, table, p);
}

/** Where a projection's packed rows hold the table's key (the last item of that name, as rows take it). */
export function keyIndex(table: Table, p: Projection): number {
  const key = table.keyColumn?.dbName;
  for (let i = p.items.length - 1; i >= 0; i--) if (p.items[i]!.name === key) return i;
  return -1;
}

/** The distinct keys of a page of packed rows, for reading their details. */
export function parentKeys(values: readonly unknown[][], keyAt: number): number[] {
  return [...new Set(values.map((v) => Number(v[keyAt])))];
}

/**
 * A page of records as pieces of `record,record,…`, each record followed by the lists of its
 * details in the order of the expand items; a detail without records is left out, as the object
 * path leaves it out.
 */
export function writeRecordTexts(writer: RecordWriter, values: readonly unknown[][], keyAt: number, details: DetailTexts | null): string[] {
  const pieces: string[] = [];
  values.forEach((row, i) => {
    if (i) pieces.push(',');
    writer(row, pieces);
    if (!details?.length) return;
    pieces.pop(); // the record's closing brace
    const id = Number(row[keyAt]);
    for (const d of details) {
      const list = d.byParent.get(id);
      if (!list) continue;
      pieces.push(d.key);
      for (const piece of list) pieces.push(piece);
      pieces.push(']');
    }
    pieces.push('}');
  });
  return pieces;
}
