/** AD_Reference ids of the data types (the column "display types" of the dictionary). */
export const DisplayType = {
  String: 10,
  Integer: 11,
  Amount: 12,
  ID: 13,
  Text: 14,
  Date: 15,
  DateTime: 16,
  List: 17,
  Table: 18,
  TableDir: 19,
  YesNo: 20,
  Location: 21,
  Number: 22,
  Binary: 23,
  Time: 24,
  Account: 25,
  RowID: 26,
  Color: 27,
  Button: 28,
  Quantity: 29,
  Search: 30,
  Locator: 31,
  Image: 32,
  Assignment: 33,
  Memo: 34,
  PAttribute: 35,
  TextLong: 36,
  CostPrice: 37,
  FilePath: 38,
  FileName: 39,
  URL: 40,
  PrinterName: 42,
  Chart: 53370,
  Payment: 200012,
  TimestampWithTimeZone: 200133,
  TimeZoneId: 200135,
  RadiogroupList: 200152,
  ChosenMultipleSelectionList: 200161,
  ChosenMultipleSelectionTable: 200162,
  ChosenMultipleSelectionSearch: 200163,
  SchedulerState: 200173,
  RecordID: 200202,
  UUID: 200231,
  TableUU: 200233,
  TableDirUU: 200234,
  SearchUU: 200235,
  RecordUU: 200240,
  JSON: 200267,
  ImageURL: 200271,
} as const;

/**
 * What a column holds, as the engine sees it: decides SQL type, JSON form, filter typing and
 * input parsing. Derived once from the display type and the column name.
 */
export type ColumnKind =
  | 'string'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'time'
  | 'timestamptz'
  | 'foreign-key'
  | 'list'
  | 'binary'
  | 'image'
  | 'json'
  | 'button'
  | 'record-id';

const T = DisplayType;

const STRING_TYPES = new Set<number>([
  T.String, T.Text, T.Memo, T.TextLong, T.FilePath, T.FileName, T.URL, T.PrinterName, T.Color,
  T.UUID, T.RecordUU, T.TimeZoneId, T.ImageURL, T.RowID,
]);
const NUMBER_TYPES = new Set<number>([T.Amount, T.Number, T.Quantity, T.CostPrice]);
const LOOKUP_TABLE_TYPES = new Set<number>([
  T.Table, T.TableDir, T.Search, T.Location, T.Locator, T.Account, T.PAttribute, T.Assignment,
  T.Chart, T.Payment, T.TableUU, T.TableDirUU, T.SearchUU,
]);
// Scheduler State (200173) is not one of the original's lookups: its answers show the code as text
// (AD_Scheduler.SchedulerState is a string in the upstream OpenAPI documents).
const LIST_TYPES = new Set<number>([T.List, T.RadiogroupList]);

export function columnKind(referenceId: number, columnName: string): ColumnKind {
  if (referenceId === T.YesNo) return 'boolean';
  if (referenceId === T.ID || referenceId === T.Integer) return 'integer';
  if (NUMBER_TYPES.has(referenceId)) return 'number';
  if (referenceId === T.Date) return 'date';
  if (referenceId === T.DateTime) return 'datetime';
  if (referenceId === T.Time) return 'time';
  if (referenceId === T.TimestampWithTimeZone) return 'timestamptz';
  if (referenceId === T.Binary) return 'binary';
  if (referenceId === T.Image) return 'image';
  if (referenceId === T.JSON) return 'json';
  if (referenceId === T.RecordID) return 'record-id';
  if (LIST_TYPES.has(referenceId)) return 'list';
  if (LOOKUP_TABLE_TYPES.has(referenceId)) return 'foreign-key';
  if (referenceId === T.Button) return /_ID$/i.test(columnName) ? 'foreign-key' : 'button';
  if (STRING_TYPES.has(referenceId)) return 'string';
  return 'string';
}

/** Table that a lookup type points at when no table reference says otherwise. */
export const IMPLICIT_LOOKUP_TABLE: Record<number, string> = {
  [T.Location]: 'C_Location',
  [T.Locator]: 'M_Locator',
  [T.Image]: 'AD_Image',
  [T.PAttribute]: 'M_AttributeSetInstance',
  [T.Account]: 'C_ValidCombination',
  [T.Assignment]: 'S_ResourceAssignment',
  [T.Chart]: 'AD_Chart',
  [T.Payment]: 'C_Payment',
};
