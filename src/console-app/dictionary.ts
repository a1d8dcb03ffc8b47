/**
 * What the console knows of a table, read from the dictionary as the API exposes it
 * (/models/ad_table, /models/ad_column, /references): its columns in order with their
 * references, the values of list references and the table a lookup points to. Cached per page.
 */
import type { TokenSession } from '../browser/token-session.js';

export interface TableInfo {
  id: number;
  tableName: string;
  name: string;
  /** The path segment of /models/{table}. */
  model: string;
  columns: ColumnInfo[];
}

export interface ColumnInfo {
  name: string;
  label: string;
  reference: number;
  referenceValue: number | null;
  mandatory: boolean;
  updateable: boolean;
  key: boolean;
  parent: boolean;
  identifier: boolean;
  selection: boolean;
  virtual: boolean;
}

export interface ListValue {
  value: string;
  name: string;
}

/** Dictionary references (AD_Reference_ID) the form treats alike. */
export const REF = {
  list: [17],
  button: [28],
  yesNo: [20],
  integer: [11, 13],
  number: [12, 22, 29, 37],
  date: [15],
  dateTime: [16],
  text: [14, 34, 36],
  lookup: [18, 19, 30, 21, 25, 31, 35],
} as const;

const is = (group: readonly number[], ref: number) => group.includes(ref);
export const isLookup = (c: ColumnInfo) => is(REF.lookup, c.reference);
export const isList = (c: ColumnInfo) => is(REF.list, c.reference) || (is(REF.button, c.reference) && c.referenceValue !== null);

const idOf = (v: unknown): number | null => (v && typeof v === 'object' && 'id' in v ? Number((v as { id: unknown }).id) : null);
const STANDARD = new Set(['AD_Client_ID', 'Created', 'CreatedBy', 'Updated', 'UpdatedBy']);
export const isStandard = (c: ColumnInfo) => STANDARD.has(c.name) || c.name.endsWith('_UU');

export class Dictionary {
  #tables = new Map<string, Promise<TableInfo>>();
  #lists = new Map<number, Promise<ListValue[]>>();
  #lookups = new Map<string, Promise<Record<string, unknown>[]>>();

  constructor(private readonly api: TokenSession) {}

  /** A table by its model name (any case), with its active columns ordered as the dictionary orders them. */
  table(model: string): Promise<TableInfo> {
    const key = model.toLowerCase();
    let t = this.#tables.get(key);
    if (!t) {
      t = this.#load(key);
      t.catch(() => this.#tables.delete(key));
      this.#tables.set(key, t);
    }
    return t;
  }

  async #load(model: string): Promise<TableInfo> {
    const q = `$filter=${encodeURIComponent(`tolower(TableName) eq '${model.replace(/'/g, "''")}'`)}&$select=TableName,Name`;
    const found = await this.api.call('GET', `/models/ad_table?${q}`);
    const row = found.records?.[0];
    if (!row) throw new Error(`No table ${model}`);
    const columns: ColumnInfo[] = [];
    const select = 'ColumnName,Name,AD_Reference_ID,AD_Reference_Value_ID,IsMandatory,IsUpdateable,IsAlwaysUpdateable,IsKey,IsParent,IsIdentifier,IsSelectionColumn,ColumnSQL,SeqNo';
    for (let skip = 0; ; skip += 100) {
      const page = await this.api.call('GET', `/models/ad_column?$filter=${encodeURIComponent(`AD_Table_ID eq ${row.id} and IsActive eq true`)}&$select=${select}&$orderby=SeqNo,ColumnName&$top=100&$skip=${skip}`);
      for (const c of page.records ?? []) {
        columns.push({
          name: c.ColumnName,
          label: c.Name ?? c.ColumnName,
          reference: idOf(c.AD_Reference_ID) ?? 10,
          referenceValue: idOf(c.AD_Reference_Value_ID),
          mandatory: c.IsMandatory === true,
          updateable: c.IsUpdateable === true || c.IsAlwaysUpdateable === true,
          key: c.IsKey === true,
          parent: c.IsParent === true,
          identifier: c.IsIdentifier === true,
          selection: c.IsSelectionColumn === true,
          virtual: Boolean(c.ColumnSQL),
        });
      }
      if ((page.records ?? []).length < 100) break;
    }
    return { id: row.id, tableName: row.TableName, name: row.Name ?? row.TableName, model, columns };
  }

  /** The values of a list reference (AD_Ref_List), active ones only, as /references gives them. */
  listValues(reference: number): Promise<ListValue[]> {
    let l = this.#lists.get(reference);
    if (!l) {
      l = this.api.call('GET', `/references/${reference}`).then((r) => (r.reflist ?? []) as ListValue[]);
      l.catch(() => this.#lists.delete(reference));
      this.#lists.set(reference, l);
    }
    return l;
  }

  /**
   * The records a lookup offers: those of its table reference (/references gives them, with the
   * reference's own restriction), else up to 100 of the table its value or its name points to.
   */
  lookupRecords(c: ColumnInfo, current?: unknown): Promise<Record<string, unknown>[]> {
    const named = current && typeof current === 'object' ? (current as Record<string, unknown>)['model-name'] : undefined;
    const key = c.referenceValue !== null && c.reference !== 19 ? `ref:${c.referenceValue}` : `table:${typeof named === 'string' ? named : tableOfColumn(c.name)}`;
    let t = this.#lookups.get(key);
    if (!t) {
      t = key.startsWith('ref:')
        ? this.api.call('GET', `/references/${c.referenceValue}`).then((r) => (r.reftable ?? []) as Record<string, unknown>[])
        : this.api.call('GET', `/models/${encodeURIComponent(key.slice(6))}?$top=100`).then((r) => (r.records ?? []) as Record<string, unknown>[]);
      t.catch(() => this.#lookups.delete(key));
      this.#lookups.set(key, t);
    }
    return t;
  }
}

/** The table a foreign key column names (C_BPartner_ID: c_bpartner). */
const tableOfColumn = (name: string) => name.replace(/_ID$/, '').toLowerCase();

/** The text a record shows as a choice: its document number, search key and name, else its id. */
export function recordLabel(r: Record<string, unknown>): string {
  const parts = [r.DocumentNo, r.Value, r.Name].filter((p) => typeof p === 'string' && p !== '');
  const unique = parts.filter((p, i) => parts.indexOf(p) === i);
  return unique.length ? unique.join(' - ') : String(r.id);
}
