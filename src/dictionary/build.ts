import { columnKind, DisplayType, IMPLICIT_LOOKUP_TABLE } from './display-type.js';
import type { Column, Dictionary, IndexColumn, LookupTarget, Reference, Table, ValRule, ListValue } from './model.js';

export type Row = Record<string, unknown>;

/** The rows of the dictionary tables, keyed by physical (lower-case) column names. */
export interface DictionaryRows {
  tables: Row[];
  columns: Row[];
  references: Row[];
  refLists: Row[];
  refTables: Row[];
  valRules: Row[];
  /** AD_TableIndex and AD_IndexColumn rows; absent, tables have only the indexes every table gets. */
  tableIndexes?: Row[];
  indexColumns?: Row[];
}

/** A Yes-No value of a dictionary row: 'Y' as stored, true as a write may give it. */
export const yes = (v: unknown): boolean => v === 'Y' || v === true;
const num = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));
const str = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));
/** Rows read from seed files may leave IsActive out; they are active. */
const active = (r: Row): boolean => r.isactive === undefined || yes(r.isactive);

/**
 * Builds the typed, indexed dictionary from its own rows. Pure: the same function serves the
 * running service (rows read from the database) and the first start (rows from seed files).
 */
export function buildDictionary(rows: DictionaryRows, version = 1): Dictionary {
  const columnsById = new Map<number, Row>();
  for (const c of rows.columns) columnsById.set(Number(c.ad_column_id), c);
  const tableNameById = new Map<number, string>();
  for (const t of rows.tables) tableNameById.set(Number(t.ad_table_id), String(t.tablename));

  const references = new Map<number, Reference>();
  for (const r of rows.references) {
    references.set(Number(r.ad_reference_id), {
      id: Number(r.ad_reference_id),
      name: String(r.name),
      validationType: String(r.validationtype) as Reference['validationType'],
      uu: str(r.ad_reference_uu),
      description: str(r.description),
      isActive: yes(r.isactive),
      list: [],
      listByValue: new Map(),
      table: null,
      isValueDisplayed: false,
      orderByClause: null,
    });
  }
  for (const l of rows.refLists) {
    const ref = references.get(Number(l.ad_reference_id));
    if (!ref) continue;
    const value: ListValue = {
      id: Number(l.ad_ref_list_id),
      value: String(l.value),
      name: String(l.name),
      description: str(l.description),
      isActive: yes(l.isactive),
      uu: str(l.ad_ref_list_uu),
    };
    ref.list.push(value);
    ref.listByValue.set(value.value, value);
  }
  for (const ref of references.values()) ref.list.sort((a, b) => a.value.localeCompare(b.value));
  for (const rt of rows.refTables) {
    const ref = references.get(Number(rt.ad_reference_id));
    const tableName = tableNameById.get(Number(rt.ad_table_id));
    const key = columnsById.get(Number(rt.ad_key));
    if (!ref || !tableName || !key) continue;
    const display = columnsById.get(Number(rt.ad_display));
    ref.table = {
      tableName,
      keyColumn: String(key.columnname),
      displayColumn: display ? String(display.columnname) : null,
      whereClause: str(rt.whereclause),
    };
    ref.isValueDisplayed = yes(rt.isvaluedisplayed);
    ref.orderByClause = str(rt.orderbyclause);
  }

  const valRules = new Map<number, ValRule>();
  for (const v of rows.valRules) {
    valRules.set(Number(v.ad_val_rule_id), {
      id: Number(v.ad_val_rule_id),
      uu: str(v.ad_val_rule_uu),
      name: String(v.name),
      type: String(v.type ?? 'S'),
      code: str(v.code),
      isActive: yes(v.isactive),
    });
  }

  const tables: Table[] = [];
  const byName = new Map<string, Table>();
  const byId = new Map<number, Table>();
  for (const t of rows.tables) {
    const name = String(t.tablename);
    const table: Table = {
      id: Number(t.ad_table_id),
      name,
      dbName: name.toLowerCase(),
      modelName: name.toLowerCase(),
      label: String(t.name ?? name),
      description: str(t.description),
      accessLevel: String(t.accesslevel ?? '3').trim(),
      isView: yes(t.isview),
      isDeleteable: t.isdeleteable === undefined ? true : yes(t.isdeleteable),
      isHighVolume: yes(t.ishighvolume),
      isChangeLog: yes(t.ischangelog),
      isActive: t.isactive === undefined ? true : yes(t.isactive),
      columns: [],
      byName: new Map(),
      keyColumn: null,
      uuColumn: null,
      identifiers: [],
      parentColumns: [],
      indexes: [],
    };
    tables.push(table);
    byName.set(table.dbName, table);
    byId.set(table.id, table);
  }

  const sortedColumns = [...rows.columns].sort((a, b) => Number(a.ad_column_id) - Number(b.ad_column_id));
  for (const c of sortedColumns) {
    const table = byId.get(Number(c.ad_table_id));
    if (!table) continue;
    const name = String(c.columnname);
    const referenceId = Number(c.ad_reference_id);
    const referenceValueId = num(c.ad_reference_value_id);
    let kind = columnKind(referenceId, name);
    let lookup: LookupTarget | null = null;
    let listReferenceId: number | null = null;
    if (kind === 'list') {
      listReferenceId = referenceValueId;
    } else if (kind === 'foreign-key') {
      lookup = resolveLookup(referenceId, referenceValueId, name, references, byName);
      if (!lookup) kind = 'integer';
    } else if (kind === 'string' && referenceId !== DisplayType.SchedulerState && referenceValueId !== null && references.get(referenceValueId)?.validationType === 'L') {
      // A String column validated by a list (e.g. EntityType-like codes) reads as a list; the
      // scheduler state keeps its code as text, as the original shows it (see display-type.ts).
      kind = 'list';
      listReferenceId = referenceValueId;
    }
    const column: Column = {
      id: Number(c.ad_column_id),
      tableId: table.id,
      name,
      dbName: name.toLowerCase(),
      label: String(c.name ?? name),
      kind,
      referenceId,
      referenceValueId,
      valRuleId: num(c.ad_val_rule_id),
      fieldLength: Number(c.fieldlength ?? 0),
      defaultValue: str(c.defaultvalue),
      isKey: yes(c.iskey),
      isParent: yes(c.isparent),
      isMandatory: yes(c.ismandatory),
      isUpdateable: c.isupdateable === undefined ? true : yes(c.isupdateable),
      isAlwaysUpdateable: yes(c.isalwaysupdateable),
      isIdentifier: yes(c.isidentifier),
      seqNo: Number(c.seqno ?? 0),
      isSelectionColumn: yes(c.isselectioncolumn),
      isTranslated: yes(c.istranslated),
      isEncrypted: yes(c.isencrypted),
      isSecure: yes(c.issecure),
      isActive: c.isactive === undefined ? true : yes(c.isactive),
      columnSql: str(c.columnsql),
      fkConstraintType: str(c.fkconstrainttype),
      lookup,
      listReferenceId,
    };
    if (!column.isActive) continue;
    table.columns.push(column);
    table.byName.set(column.dbName, column);
  }

  for (const table of tables) {
    table.keyColumn = table.columns.find((c) => c.isKey && c.kind === 'integer') ?? null;
    const uuName = (table.name.length > 27 ? table.name.slice(0, 27) : table.name) + '_UU';
    table.uuColumn = table.byName.get(uuName.toLowerCase()) ?? null;
    table.identifiers = table.columns.filter((c) => c.isIdentifier && !c.columnSql).sort((a, b) => a.seqNo - b.seqNo);
    table.parentColumns = table.columns.filter((c) => c.isParent);
  }
  attachIndexes(rows, byId, columnsById);

  return { tables, byName, byId, references, valRules, version };
}

/**
 * Gives each table its active dictionary indexes, columns in SeqNo order. An index with a column
 * that is not a stored column of its table is left out whole: created with fewer columns it would
 * mean something else (a unique index over fewer columns refuses more rows). So is an index that
 * includes an expression (INCLUDE takes stored columns only) or that has no key column.
 */
function attachIndexes(rows: DictionaryRows, tables: Map<number, Table>, columnsById: Map<number, Row>): void {
  const columnsOf = new Map<number, Row[]>();
  for (const ic of rows.indexColumns ?? []) {
    if (!active(ic)) continue;
    const id = Number(ic.ad_tableindex_id);
    const list = columnsOf.get(id);
    if (list) list.push(ic);
    else columnsOf.set(id, [ic]);
  }
  const order = (a: Row, b: Row): number => Number(a.seqno ?? 0) - Number(b.seqno ?? 0) || Number(a.ad_indexcolumn_id) - Number(b.ad_indexcolumn_id);
  const byId = (a: Row, b: Row): number => Number(a.ad_tableindex_id) - Number(b.ad_tableindex_id);
  for (const ti of [...(rows.tableIndexes ?? [])].sort(byId)) {
    const table = tables.get(Number(ti.ad_table_id));
    if (!table || !active(ti)) continue;
    const rowsOfIndex = (columnsOf.get(Number(ti.ad_tableindex_id)) ?? []).sort(order);
    const keys = rowsOfIndex.filter((ic) => !yes(ic.isincluded)).map((ic) => indexColumn(ic, table, columnsById));
    const included = rowsOfIndex.filter((ic) => yes(ic.isincluded)).map((ic) => indexColumn(ic, table, columnsById));
    if (keys.length === 0 || !keys.every((p): p is IndexColumn => p !== null)) continue;
    if (!included.every((p): p is { column: string } => p !== null && 'column' in p)) continue;
    table.indexes.push({ name: String(ti.name).toLowerCase().slice(0, 63), unique: yes(ti.isunique), columns: keys, include: included.map((p) => p.column) });
  }
}

/** An index column as its SQL expression when it has one, else as the stored column it names. */
function indexColumn(ic: Row, table: Table, columnsById: Map<number, Row>): IndexColumn | null {
  const expression = str(ic.columnsql);
  if (expression) return { expression };
  const row = columnsById.get(Number(ic.ad_column_id));
  if (!row || Number(row.ad_table_id) !== table.id) return null;
  const column = table.byName.get(String(row.columnname).toLowerCase());
  return column && !column.columnSql ? { column: column.dbName } : null;
}

function resolveLookup(
  referenceId: number,
  referenceValueId: number | null,
  columnName: string,
  references: Map<number, Reference>,
  tables: Map<string, Table>,
): LookupTarget | null {
  if (referenceValueId !== null) {
    const ref = references.get(referenceValueId);
    if (ref?.table && tables.has(ref.table.tableName.toLowerCase())) return ref.table;
  }
  const implicit = IMPLICIT_LOOKUP_TABLE[referenceId];
  const tableName = implicit ?? columnName.replace(/_ID$/i, '');
  const target = tables.get(tableName.toLowerCase());
  if (!target) return null;
  const keyColumn = implicit ? `${target.name}_ID` : referenceId === DisplayType.Button || referenceId === DisplayType.TableDir || referenceId === DisplayType.Search ? `${target.name}_ID` : columnName;
  return { tableName: target.name, keyColumn, displayColumn: null, whereClause: null };
}
