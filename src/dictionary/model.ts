import type { ColumnKind } from './display-type.js';

/** A lookup's target: the referenced table, its key column and the column shown as its identifier. */
export interface LookupTarget {
  tableName: string;
  keyColumn: string;
  displayColumn: string | null;
  whereClause: string | null;
}

export interface Column {
  id: number;
  tableId: number;
  name: string;
  /** Physical (lower-case) column name. */
  dbName: string;
  label: string;
  kind: ColumnKind;
  referenceId: number;
  referenceValueId: number | null;
  valRuleId: number | null;
  fieldLength: number;
  defaultValue: string | null;
  isKey: boolean;
  isParent: boolean;
  isMandatory: boolean;
  isUpdateable: boolean;
  isAlwaysUpdateable: boolean;
  isIdentifier: boolean;
  seqNo: number;
  isSelectionColumn: boolean;
  isTranslated: boolean;
  isEncrypted: boolean;
  isSecure: boolean;
  isActive: boolean;
  /** A non-empty value makes the column virtual (computed, never stored). */
  columnSql: string | null;
  /**
   * What deleting a referenced record does to records pointing at it through this column
   * (list 200075): C/M cascade, S/T set null, D no check, N/O or unset refuse the delete.
   */
  fkConstraintType: string | null;
  /** Set for foreign keys (including lists' absence: lists use listReferenceId). */
  lookup: LookupTarget | null;
  /** Set for list columns: the AD_Reference holding the values. */
  listReferenceId: number | null;
}

/** One column of an index: a stored column (physical name) or an SQL expression such as lower(email). */
export type IndexColumn = { column: string } | { expression: string };

/** An index the dictionary asks for (AD_TableIndex with its AD_IndexColumn rows). */
export interface TableIndex {
  /** Physical (lower-case) index name. */
  name: string;
  unique: boolean;
  /** The key columns, in SeqNo order. */
  columns: IndexColumn[];
  /**
   * Non-key columns (INCLUDE; AD_IndexColumn.IsIncluded), physical names in SeqNo order: stored in
   * the index so that a scan can check them without visiting the table. Stored columns only.
   */
  include: string[];
}

export interface Table {
  id: number;
  name: string;
  dbName: string;
  /** Lower-case table name, the `model-name` of records. */
  modelName: string;
  label: string;
  description: string | null;
  accessLevel: string;
  isView: boolean;
  isDeleteable: boolean;
  isHighVolume: boolean;
  isChangeLog: boolean;
  isActive: boolean;
  columns: Column[];
  byName: Map<string, Column>;
  keyColumn: Column | null;
  uuColumn: Column | null;
  identifiers: Column[];
  parentColumns: Column[];
  /** Active dictionary indexes, besides the ones every table gets (see ddl.ts). */
  indexes: TableIndex[];
}

export interface ListValue {
  id: number;
  value: string;
  name: string;
  description: string | null;
  isActive: boolean;
  uu: string | null;
}

export interface Reference {
  id: number;
  name: string;
  validationType: 'D' | 'L' | 'T';
  uu: string | null;
  description: string | null;
  isActive: boolean;
  list: ListValue[];
  listByValue: Map<string, ListValue>;
  table: LookupTarget | null;
  isValueDisplayed: boolean;
  orderByClause: string | null;
}

export interface ValRule {
  id: number;
  uu: string | null;
  name: string;
  type: string;
  code: string | null;
  isActive: boolean;
}

export interface Dictionary {
  tables: Table[];
  byName: Map<string, Table>;
  byId: Map<number, Table>;
  references: Map<number, Reference>;
  valRules: Map<number, ValRule>;
  /** Increases on every reload; caches keyed on it drop stale entries. */
  version: number;
}

export function findTable(dict: Dictionary, name: string): Table | undefined {
  return dict.byName.get(name.toLowerCase());
}

export function findColumn(table: Table, name: string): Column | undefined {
  return table.byName.get(name.toLowerCase());
}
