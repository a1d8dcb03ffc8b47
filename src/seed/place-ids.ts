import { CACHE_RESET_CHANNEL } from '../cache/cache-registry.js';
import { ident } from '../db/sql.js';
import type { Tx } from '../db/types.js';
import type { Column, Dictionary, Table } from '../dictionary/model.js';
import { isStored } from '../dictionary/ddl.js';
import { loadDictionary } from '../dictionary/load.js';

type Row = Record<string, unknown>;

/** A seeded row that sits at an id the original gives another place: it belongs at `to`. */
interface PlaceMove {
  from: number;
  to: number;
  /** Whether a row is the place this move is about (and not whatever else sits at that id). */
  means(row: Row): boolean;
}

interface PlaceTable {
  name: string;
  moves: PlaceMove[];
}

const text = (v: unknown): string => String(v ?? '').trim().toLowerCase();

const country = (from: number, to: number, code: string): PlaceMove => ({ from, to, means: (row) => text(row.countrycode) === code.toLowerCase() });

/** A region is known by its country and its code or full name (the demo's first rows said ON and BC). */
const region = (from: number, to: number, countryId: number, ...names: string[]): PlaceMove => ({
  from,
  to,
  means: (row) => Number(row.c_country_id) === countryId && names.some((n) => [text(row.name), text(row.description)].includes(n.toLowerCase())),
});

const US = 100;
const CANADA = 109;

/**
 * The demo company's first countries and regions had ids that the original gives other places;
 * migration 77 then loaded the original's rows for those ids at the id plus 9000. Every one of
 * them goes to the id the original gives it.
 */
const COUNTRIES: PlaceTable = {
  name: 'C_Country',
  moves: [
    country(103, 333, 'GB'),
    country(104, 106, 'ES'),
    country(156, 122, 'AU'),
    country(9103, 103, 'BE'),
    country(9156, 156, 'CO'),
  ],
};

const REGIONS: PlaceTable = {
  name: 'C_Region',
  moves: [
    region(103, 104, US, 'MA', 'Massachusetts'),
    region(104, 108, US, 'NY', 'New York'),
    region(105, 109, US, 'NJ', 'New Jersey'),
    region(106, 103, US, 'CA', 'California'),
    region(107, 142, US, 'OR', 'Oregon'),
    region(108, 132, US, 'TX', 'Texas'),
    region(109, 127, US, 'IL', 'Illinois'),
    region(110, 113, US, 'FL', 'Florida'),
    region(111, 116, US, 'WA', 'Washington'),
    region(120, 164, CANADA, 'ON', 'Ontario'),
    region(121, 157, CANADA, 'BC', 'British Columbia'),
    region(9105, 105, US, 'ME', 'Maine'),
    region(9106, 106, US, 'NH', 'New Hampshire'),
    region(9107, 107, US, 'RI', 'Rhode Island'),
    region(9110, 110, US, 'PA', 'Pennsylvania'),
    region(9111, 111, US, 'VA', 'Virginia'),
    region(9120, 120, US, 'GA', 'Georgia'),
    region(9121, 121, US, 'ND', 'North Dakota'),
  ],
};

/** What to do with a row found at a move's `from`: give it the new id, or fold it into the same place already there. */
interface PlannedMove {
  from: number;
  to: number;
  merge: boolean;
}

/**
 * Gives the demo's countries and regions the original's ids, with every column that names them
 * (found through the dictionary), and folds the rows migration 77 loaded at id plus 9000 into
 * their own ids. Rows already at the original's ids, and ids a user created, are left alone; a
 * database built from the current seed has nothing to move and pays two small queries.
 */
export async function movePlacesToOriginalIds(tx: Tx): Promise<void> {
  let dict: Dictionary | undefined;
  for (const places of [COUNTRIES, REGIONS]) {
    // Regions are planned after the countries moved: a region is known by its country.
    const moves = await planMoves(tx, places);
    if (!moves.length) continue;
    dict ??= await loadDictionary(tx);
    await applyMoves(tx, dict, places.name, moves);
    // Instances already running drop the identifiers they keep of these places under the old ids.
    await tx.notify(CACHE_RESET_CHANNEL, places.name.toLowerCase());
  }
}

/**
 * The moves that apply to this database: a row that is the place at `from` goes to `to` when
 * `to` is free (or freed by another move); when the same place is at `to` already, the row is
 * folded into it; when another place stays at `to`, the row is left where it is.
 */
async function planMoves(tx: Tx, places: PlaceTable): Promise<PlannedMove[]> {
  const table = places.name.toLowerCase();
  const key = `${table}_id`;
  const ids = places.moves.flatMap((m) => [m.from, m.to]);
  const { rows } = await tx.query<Row>(`SELECT * FROM ${ident(table)} WHERE ${ident(key)} = ANY($1::bigint[])`, [ids]);
  const byId = new Map(rows.map((r) => [Number(r[key]), r]));
  let active = places.moves.filter((m) => byId.has(m.from) && m.means(byId.get(m.from)!));
  for (;;) {
    const leaving = new Set(active.map((m) => m.from));
    const kept = active.filter((m) => !byId.has(m.to) || leaving.has(m.to) || m.means(byId.get(m.to)!));
    if (kept.length === active.length) break;
    active = kept;
  }
  const leaving = new Set(active.map((m) => m.from));
  return active.map((m) => ({ from: m.from, to: m.to, merge: byId.has(m.to) && !leaving.has(m.to) }));
}

/** A column naming rows of the moved table; `recordOf` when it is a Record_ID read with AD_Table_ID. */
interface Reference {
  table: string;
  column: string;
  recordOf?: number;
}

async function applyMoves(tx: Tx, dict: Dictionary, tableName: string, moves: PlannedMove[]): Promise<void> {
  const table = dict.byName.get(tableName.toLowerCase());
  if (!table?.keyColumn) throw new Error(`${tableName} is missing from the dictionary`);
  const from = moves.map((m) => m.from);
  const to = moves.map((m) => m.to);
  for (const ref of await references(tx, dict, table)) {
    const recordOf = ref.recordOf === undefined ? '' : ` AND x.ad_table_id = ${Number(ref.recordOf)}`;
    await restage(tx, ref.table, ref.column, from, to, recordOf);
  }
  const key = table.keyColumn.dbName;
  const merged = moves.filter((m) => m.merge).map((m) => m.from);
  if (merged.length) await tx.query(`DELETE FROM ${ident(table.dbName)} WHERE ${ident(key)} = ANY($1::bigint[])`, [merged]);
  const moved = moves.filter((m) => !m.merge);
  await restage(tx, table.dbName, key, moved.map((m) => m.from), moved.map((m) => m.to), '');
}

/**
 * Sets `column` to the new id wherever it holds an old one. The values first go to the negative
 * of their new id and then turn positive, so that a chain of moves (103 to 104 while 104 goes to
 * 108) never holds two rows at one id on the way, whatever order the rows are visited in.
 */
async function restage(tx: Tx, table: string, column: string, from: number[], to: number[], condition: string): Promise<void> {
  if (!from.length) return;
  const c = ident(column);
  await tx.query(
    `UPDATE ${ident(table)} x SET ${c} = -m.to FROM unnest($1::bigint[], $2::bigint[]) AS m(old, "to") WHERE x.${c} = m.old${condition}`,
    [from, to],
  );
  await tx.query(`UPDATE ${ident(table)} x SET ${c} = -x.${c} WHERE x.${c} = ANY($1::bigint[])${condition}`, [to.map((id) => -id)]);
}

/**
 * Every stored column of a physical table that names a row of `target`: lookups (Table, Table
 * Direct, Search, parent links such as C_Country_Trl's) whose key is the target's key, the
 * address columns of C_Location, and Record_ID where AD_Table_ID says the record is the target's.
 */
async function references(tx: Tx, dict: Dictionary, target: Table): Promise<Reference[]> {
  const key = target.keyColumn!.dbName;
  const names = (c: Column) => c.lookup !== null && c.lookup.tableName.toLowerCase() === target.dbName && c.lookup.keyColumn.toLowerCase() === key;
  const out: Reference[] = [{ table: 'c_location', column: key }];
  for (const t of dict.tables) {
    if (t.isView) continue;
    for (const c of t.columns) {
      if (!isStored(c) || (t === target && c === t.keyColumn)) continue;
      if (names(c)) out.push({ table: t.dbName, column: c.dbName });
    }
    const recordId = t.byName.get('record_id');
    const tableId = t.byName.get('ad_table_id');
    if (recordId && tableId && isStored(recordId) && isStored(tableId)) out.push({ table: t.dbName, column: 'record_id', recordOf: target.id });
  }
  // Only columns the database has (a dictionary may describe a table it does not create), each once.
  const { rows } = await tx.query<{ t: string; c: string }>(
    `SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = ANY($1::text[])`,
    [[...new Set(out.map((r) => r.column))]],
  );
  const present = new Set(rows.map((r) => `${r.t}.${r.c}`));
  const seen = new Set<string>();
  return out.filter((r) => {
    const id = `${r.table}.${r.column}.${r.recordOf ?? ''}`;
    if (!present.has(`${r.table}.${r.column}`) || seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
