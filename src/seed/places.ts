import { ident } from '../db/sql.js';
import type { Tx } from '../db/types.js';
import type { Table } from '../dictionary/model.js';
import { isStored } from '../dictionary/ddl.js';
import { alignIdSequence, readSeed, seedTable } from './bootstrap.js';
import { readSeedData } from './dictionary-files.js';
import { insertSeedRows, seedDefault } from './insert-rows.js';
import { movePlacesToOriginalIds } from './place-ids.js';

type SeedRow = Record<string, unknown>;

const field = (row: SeedRow, column: string): unknown => {
  const key = Object.keys(row).find((k) => k.toLowerCase() === column);
  return key === undefined ? undefined : row[key];
};
const text = (v: unknown): string => String(v ?? '').trim().toLowerCase();

/** How a row is known apart from its id: an SQL expression over the table, and the same for a seed row. */
interface NaturalKey {
  sql: string;
  of(row: SeedRow): string;
}

/**
 * Brings the seed's currencies, countries and regions into a database built before the seed had
 * the full lists. A seed row is added unless the database has it: by id, or as a System row under
 * another id with the same natural key (ISO code of a currency, code of a country, country and
 * name of a region), which an administrator may have entered before; rows that name such a row
 * are given its id. Seeded rows nobody has changed since (Updated equal to Created) take the
 * seed's current values (the formats, region flags and ISO codes of the demo's first countries).
 */
export async function addSeedPlaces(tx: Tx, now = new Date().toISOString()): Promise<void> {
  // The demo's first countries and regions go to the original's ids first: the seed has other
  // places at their old ids, which the refresh below would otherwise write over them.
  await movePlacesToOriginalIds(tx);
  // A database that has every seeded id was built from these lists: nothing to bring, and no need
  // to build the seed's dictionary (the costly part) on every new database.
  if (await hasEverySeedRow(tx, readSeedData())) return;
  const { data, dict } = readSeed();
  const currencyIds = await addRows(tx, seedTable(dict, 'C_Currency'), data.get('C_Currency') ?? [], {
    sql: 'lower(trim(iso_code))',
    of: (r) => text(field(r, 'iso_code')),
  }, now);
  const countries = (data.get('C_Country') ?? []).map((r) => withId(r, 'c_currency_id', currencyIds));
  const countryIds = await addRows(tx, seedTable(dict, 'C_Country'), countries, {
    sql: 'lower(trim(countrycode))',
    of: (r) => text(field(r, 'countrycode')),
  }, now);
  const regions = (data.get('C_Region') ?? []).map((r) => withId(r, 'c_country_id', countryIds));
  await addRows(tx, seedTable(dict, 'C_Region'), regions, {
    sql: `c_country_id || ':' || lower(trim(name))`,
    of: (r) => `${String(field(r, 'c_country_id'))}:${text(field(r, 'name'))}`,
  }, now);
}

async function hasEverySeedRow(tx: Tx, data: Map<string, SeedRow[]>): Promise<boolean> {
  for (const table of ['C_Currency', 'C_Country', 'C_Region']) {
    const key = `${table}_ID`;
    const ids = (data.get(table) ?? []).map((r) => Number(field(r, key.toLowerCase())));
    const { rows } = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${ident(table.toLowerCase())} WHERE ${ident(key.toLowerCase())} = ANY($1::bigint[])`, [ids]);
    if (Number(rows[0]!.n) !== ids.length) return false;
  }
  return true;
}

/** The row naming, in `column`, the id the database has for the seed's row. */
function withId(row: SeedRow, column: string, ids: Map<number, number>): SeedRow {
  const key = Object.keys(row).find((k) => k.toLowerCase() === column);
  const id = key === undefined ? undefined : ids.get(Number(row[key]));
  return key === undefined || id === undefined || id === row[key] ? row : { ...row, [key]: id };
}

/**
 * Refreshes the untouched seeded rows, inserts the missing ones, aligns the id sequence, and
 * returns for each seed id the id the database has the row under.
 */
async function addRows(tx: Tx, table: Table, rows: SeedRow[], natural: NaturalKey, now: string): Promise<Map<number, number>> {
  const key = table.keyColumn!.dbName;
  const present = await refreshUntouched(tx, table, rows, now);
  const { rows: known } = await tx.query<{ id: number; k: string }>(`SELECT ${ident(key)} AS id, ${natural.sql} AS k FROM ${ident(table.dbName)} WHERE ad_client_id = 0`);
  const byNaturalKey = new Map(known.map((r) => [String(r.k), Number(r.id)]));
  const ids = new Map<number, number>();
  const missing: SeedRow[] = [];
  for (const row of rows) {
    const id = Number(field(row, key));
    const other = present.has(id) ? id : byNaturalKey.get(natural.of(row));
    ids.set(id, other ?? id);
    if (other === undefined) missing.push(row);
  }
  await insertSeedRows(tx, table, missing, now, { skipExisting: true });
  await alignIdSequence(tx, table);
  return ids;
}

/**
 * Gives the seeded rows still as seeded (Updated equal to Created) the values the seed has now, in
 * one statement that compares with the database's own types; Updated stays equal to Created, so
 * such a row still reads as seeded. Returns the ids present.
 */
async function refreshUntouched(tx: Tx, table: Table, rows: SeedRow[], now: string): Promise<Set<number>> {
  const key = ident(table.keyColumn!.dbName);
  const kept = new Set([table.keyColumn!.dbName, 'created', 'updated', 'createdby', 'updatedby', table.uuColumn?.dbName]);
  const columns = table.columns.filter((c) => isStored(c) && !kept.has(c.dbName));
  const values = rows.map((raw) => {
    const row = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k.toLowerCase(), v]));
    return Object.fromEntries([
      [table.keyColumn!.dbName, row[table.keyColumn!.dbName]],
      ...columns.map((c) => [c.dbName, c.dbName in row ? row[c.dbName] : seedDefault(c, row, now)]),
    ]);
  });
  const names = columns.map((c) => ident(c.dbName));
  await tx.query(
    `UPDATE ${ident(table.dbName)} t SET ${names.map((n) => `${n} = s.${n}`).join(', ')}
       FROM jsonb_populate_recordset(NULL::${ident(table.dbName)}, $1::jsonb) s
      WHERE t.${key} = s.${key} AND t.created = t.updated
        AND (${names.map((n) => `t.${n}`).join(', ')}) IS DISTINCT FROM (${names.map((n) => `s.${n}`).join(', ')})`,
    [JSON.stringify(values)],
  );
  const { rows: present } = await tx.query<{ id: number }>(`SELECT ${key} AS id FROM ${ident(table.dbName)} WHERE ${key} = ANY($1::bigint[])`, [
    rows.map((r) => Number(field(r, table.keyColumn!.dbName))),
  ]);
  return new Set(present.map((r) => Number(r.id)));
}
