import type { Tx } from '../db/types.js';
import { createTableStatements } from '../dictionary/ddl.js';
import { loadDictionary } from '../dictionary/load.js';
import { createTableSequenceRows, FIRST_USER_ID, readSeed, seedTable } from './bootstrap.js';
import { insertSeedRows } from './insert-rows.js';

/** AD_Reference ids of the column types table specs use. */
export const STRING = 10;
export const TEXT = 14;
export const INTEGER = 11;
export const AMOUNT = 12;
export const DATE = 15;
export const DATE_TIME = 16;
export const LIST = 17;
export const TABLE = 18;
export const TABLE_DIRECT = 19;
export const YES_NO = 20;
export const NUMBER = 22;
export const QUANTITY = 29;
export const SEARCH = 30;
export const PRICE = 37;

export interface ColumnSpec {
  name: string;
  reference: number;
  length?: number;
  mandatory?: boolean;
  /** The link to the parent table (not updateable). */
  parent?: boolean;
  identifier?: boolean;
  updateable?: boolean;
  defaultValue?: string;
  referenceValue?: number;
}

/** A table a migration adds: its AD_Table_ID, name, title, access level and columns beyond the standard ones, key and UUID. */
export interface TableSpec {
  id: number;
  name: string;
  title: string;
  accessLevel: string;
  columns: ColumnSpec[];
}

/** Where a migration's new dictionary rows take their ids, and the elements the data model lacked ([column, name]). */
export interface SpecIds {
  firstColumnId: number;
  firstElementId: number;
  newElements: readonly [column: string, name: string][];
}

const SYSTEM = { AD_Client_ID: 0, AD_Org_ID: 0, EntityType: 'D' };

/** The standard columns of every table: [column, reference, extra]; their elements are the seed's. */
export const STANDARD: readonly [string, number, Record<string, unknown>][] = [
  ['AD_Client_ID', 19, { AD_Val_Rule_ID: 129, DefaultValue: '@#AD_Client_ID@', IsUpdateable: 'N', IsMandatory: 'Y' }],
  ['AD_Org_ID', 19, { AD_Val_Rule_ID: 104, DefaultValue: '@#AD_Org_ID@', IsMandatory: 'Y' }],
  ['IsActive', 20, { FieldLength: 1, DefaultValue: 'Y', IsMandatory: 'Y' }],
  ['Created', 16, { FieldLength: 7, DefaultValue: 'SYSDATE', IsUpdateable: 'N', IsMandatory: 'Y' }],
  ['CreatedBy', 18, { AD_Reference_Value_ID: 110, IsUpdateable: 'N', IsMandatory: 'Y' }],
  ['Updated', 16, { FieldLength: 7, DefaultValue: 'SYSDATE', IsUpdateable: 'N', IsMandatory: 'Y' }],
  ['UpdatedBy', 18, { AD_Reference_Value_ID: 110, IsUpdateable: 'N', IsMandatory: 'Y' }],
];

/** The element of each column name: an existing one, else one of the new elements. */
export async function elementIds(tx: Tx, names: string[], ids: Pick<SpecIds, 'firstElementId' | 'newElements'>, now: string): Promise<Map<string, { id: number; name: string }>> {
  const { dict } = readSeed();
  const { rows } = await tx.query<{ id: number; c: string; name: string }>(
    `SELECT ad_element_id AS id, lower(columnname) AS c, name FROM ad_element WHERE lower(columnname) = ANY($1::text[])`,
    [names.map((n) => n.toLowerCase())],
  );
  const out = new Map(rows.map((r) => [r.c, { id: Number(r.id), name: r.name }]));
  const missing = ids.newElements.map(([column, name], n) => ({ column, name, id: ids.firstElementId + n })).filter((e) => !out.has(e.column.toLowerCase()));
  await insertSeedRows(tx, seedTable(dict, 'AD_Element'), missing.map((e) => ({ AD_Element_ID: e.id, ColumnName: e.column, Name: e.name, PrintName: e.name, ...SYSTEM })), now, { skipExisting: true });
  for (const e of missing) out.set(e.column.toLowerCase(), { id: e.id, name: e.name });
  return out;
}

export function columnRow(spec: ColumnSpec, id: number, tableId: number, element: { id: number; name: string }): Record<string, unknown> {
  const isFlag = spec.reference === YES_NO;
  return {
    AD_Column_ID: id, AD_Table_ID: tableId, ColumnName: spec.name, Name: element.name, AD_Element_ID: element.id, AD_Reference_ID: spec.reference,
    AD_Reference_Value_ID: spec.referenceValue ?? null, FieldLength: spec.length ?? (isFlag ? 1 : spec.reference === SEARCH ? 10 : 22), DefaultValue: spec.defaultValue ?? null,
    IsKey: 'N', IsParent: spec.parent ? 'Y' : 'N', IsMandatory: spec.mandatory ? 'Y' : 'N', IsUpdateable: spec.parent || spec.updateable === false ? 'N' : 'Y',
    IsIdentifier: spec.identifier ? 'Y' : 'N', SeqNo: spec.identifier ? 1 : 0, IsSelectionColumn: 'N', IsTranslated: 'N', IsEncrypted: 'N', IsSecure: 'N', IsAlwaysUpdateable: 'N', ...SYSTEM,
  };
}

/**
 * Tables in the dictionary (AD_Table, AD_Column, new AD_Element rows) and in the database, with
 * their id sequences: each gets the standard columns, its key and UUID, then its own columns.
 */
export async function addSpecTables(tx: Tx, specs: readonly TableSpec[], ids: SpecIds, now: string): Promise<void> {
  const { dict } = readSeed();
  const skip = { skipExisting: true };
  const names = [...STANDARD.map(([column]) => column), ...specs.flatMap((t) => [`${t.name}_ID`, `${t.name}_UU`, ...t.columns.map((c) => c.name)])];
  const elements = await elementIds(tx, names, ids, now);
  const element = (column: string) => elements.get(column.toLowerCase())!;
  let nextColumn = ids.firstColumnId;
  const columns: Record<string, unknown>[] = [];
  for (const t of specs) {
    for (const [column, reference, extra] of STANDARD) {
      columns.push({ ...columnRow({ name: column, reference }, nextColumn++, t.id, element(column)), FieldLength: 10, ...extra });
    }
    const key = element(`${t.name}_ID`);
    columns.push({ ...columnRow({ name: `${t.name}_ID`, reference: 13, mandatory: true, updateable: false }, nextColumn++, t.id, key), IsKey: 'Y', FieldLength: 10 });
    columns.push({ ...columnRow({ name: `${t.name}_UU`, reference: 10, length: 36, updateable: false }, nextColumn++, t.id, element(`${t.name}_UU`)) });
    for (const c of t.columns) columns.push(columnRow(c, nextColumn++, t.id, element(c.name)));
  }
  await insertSeedRows(
    tx,
    seedTable(dict, 'AD_Table'),
    specs.map((t) => ({
      AD_Table_ID: t.id, TableName: t.name, Name: t.title, AccessLevel: t.accessLevel, IsView: 'N', IsDeleteable: 'Y', IsHighVolume: 'N', IsChangeLog: 'N',
      IsSecurityEnabled: 'N', ReplicationType: 'L', ...SYSTEM,
    })),
    now,
    skip,
  );
  await insertSeedRows(tx, seedTable(dict, 'AD_Column'), columns, now, skip);
  const loaded = await loadDictionary(tx);
  const tables = specs.map((t) => loaded.byName.get(t.name.toLowerCase())!);
  for (const table of tables) for (const stmt of createTableStatements(table, FIRST_USER_ID)) await tx.query(stmt);
  await createTableSequenceRows(tx, loaded, tables, now);
}

/** A list reference (AD_Reference of validation type L) and its values ([value, name]), the values at ids from `firstListId` on. */
export async function addListReference(tx: Tx, reference: { id: number; name: string }, values: readonly [value: string, name: string][], firstListId: number, now: string): Promise<void> {
  const { dict } = readSeed();
  const skip = { skipExisting: true };
  await insertSeedRows(tx, seedTable(dict, 'AD_Reference'), [{ AD_Reference_ID: reference.id, Name: reference.name, ValidationType: 'L', ...SYSTEM }], now, skip);
  const rows = values.map(([value, name], n) => ({ AD_Ref_List_ID: firstListId + n, AD_Reference_ID: reference.id, Value: value, Name: name, ...SYSTEM }));
  await insertSeedRows(tx, seedTable(dict, 'AD_Ref_List'), rows, now, skip);
}
