import fs from 'node:fs';
import path from 'node:path';
import { seedDir } from '../paths.js';
import type { DictionaryRows, Row } from '../dictionary/build.js';

/** Shapes of the files in seed/dictionary, which scripts/dictionary/generate.mjs writes. */
interface SeedColumn extends Record<string, unknown> {
  AD_Column_ID: number;
  ColumnName: string;
  FKTable?: string | null;
}
interface SeedTable extends Record<string, unknown> {
  AD_Table_ID: number;
  TableName: string;
  columns: SeedColumn[];
}
interface SeedReference extends Record<string, unknown> {
  AD_Reference_ID: number;
  list?: Record<string, unknown>[];
  table?: { TableName: string; KeyColumn: string; DisplayColumn: string | null; WhereClause?: string | null; OrderByClause?: string | null; IsValueDisplayed?: string };
}

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(file, 'utf8')) as T;

/** Lower-cases keys (physical names) and drops nulls so that defaults apply. */
function lowerKeys(o: Record<string, unknown>): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k.toLowerCase()] = v;
  return out;
}

export interface SeedDictionary extends DictionaryRows {
  elements: Row[];
}

/** Reads the dictionary seed files into dictionary rows (physical column names as keys). */
export function readSeedDictionary(dir = path.join(seedDir, 'dictionary')): SeedDictionary {
  const tables = readJson<SeedTable[]>(path.join(dir, 'tables.json'));
  const references = readJson<SeedReference[]>(path.join(dir, 'references.json'));
  const elements = readJson<Record<string, unknown>[]>(path.join(dir, 'elements.json'));
  const valRules = readJson<Record<string, unknown>[]>(path.join(dir, 'valrules.json'));

  const out: SeedDictionary = { tables: [], columns: [], references: [], refLists: [], refTables: [], valRules: [], elements: [] };
  const tableIdByName = new Map<string, number>();
  const columnId = new Map<string, number>();
  for (const t of tables) {
    const { columns, ...tableRow } = t;
    out.tables.push(lowerKeys({ AD_Client_ID: 0, AD_Org_ID: 0, IsActive: 'Y', EntityType: 'D', ...tableRow }));
    tableIdByName.set(t.TableName.toLowerCase(), t.AD_Table_ID);
    for (const c of columns) {
      const { FKTable: _fk, ...colRow } = c;
      out.columns.push(lowerKeys({ AD_Client_ID: 0, AD_Org_ID: 0, IsActive: 'Y', EntityType: 'D', AD_Table_ID: t.AD_Table_ID, ...colRow }));
      columnId.set(`${t.TableName}.${c.ColumnName}`.toLowerCase(), c.AD_Column_ID);
    }
  }
  for (const r of references) {
    const { list, table, ...refRow } = r;
    out.references.push(lowerKeys({ AD_Client_ID: 0, AD_Org_ID: 0, IsActive: 'Y', EntityType: 'D', ...refRow }));
    for (const l of list ?? []) {
      out.refLists.push(lowerKeys({ AD_Client_ID: 0, AD_Org_ID: 0, IsActive: 'Y', EntityType: 'D', AD_Reference_ID: r.AD_Reference_ID, ...l }));
    }
    if (table) {
      const tableId = tableIdByName.get(table.TableName.toLowerCase());
      const key = columnId.get(`${table.TableName}.${table.KeyColumn}`.toLowerCase());
      const display = table.DisplayColumn ? columnId.get(`${table.TableName}.${table.DisplayColumn}`.toLowerCase()) : undefined;
      if (tableId === undefined || key === undefined) {
        throw new Error(`Seed reference ${r.AD_Reference_ID} names unknown table or key ${table.TableName}.${table.KeyColumn}`);
      }
      out.refTables.push(
        lowerKeys({
          AD_Client_ID: 0,
          AD_Org_ID: 0,
          IsActive: 'Y',
          EntityType: 'D',
          AD_Reference_ID: r.AD_Reference_ID,
          AD_Table_ID: tableId,
          AD_Key: key,
          AD_Display: display ?? null,
          WhereClause: table.WhereClause ?? null,
          OrderByClause: table.OrderByClause ?? null,
          IsValueDisplayed: table.IsValueDisplayed ?? 'N',
        }),
      );
    }
  }
  for (const v of valRules) out.valRules.push(lowerKeys({ AD_Client_ID: 0, AD_Org_ID: 0, IsActive: 'Y', EntityType: 'D', Type: 'S', ...v }));
  for (const e of elements) out.elements.push(lowerKeys({ AD_Client_ID: 0, AD_Org_ID: 0, IsActive: 'Y', EntityType: 'D', ...e }));
  return out;
}

/**
 * The seed's dictionary indexes (seed/data AD_TableIndex and AD_IndexColumn) as dictionary rows:
 * the schema built from the seed has them from the start.
 */
export function seedIndexRows(data: Map<string, Record<string, unknown>[]>): Required<Pick<DictionaryRows, 'tableIndexes' | 'indexColumns'>> {
  return { tableIndexes: (data.get('AD_TableIndex') ?? []).map(lowerKeys), indexColumns: (data.get('AD_IndexColumn') ?? []).map(lowerKeys) };
}

/** Reads seed/data/<TableName>.json files: table name -> rows keyed by column names. */
export function readSeedData(dir = path.join(seedDir, 'data')): Map<string, Record<string, unknown>[]> {
  const out = new Map<string, Record<string, unknown>[]>();
  if (!fs.existsSync(dir)) return out;
  for (const f of fs.readdirSync(dir).sort()) {
    if (!f.endsWith('.json')) continue;
    out.set(f.slice(0, -5), readJson<Record<string, unknown>[]>(path.join(dir, f)));
  }
  return out;
}
