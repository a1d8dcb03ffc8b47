/**
 * The JSON property name the original's window records use for a column: the column name with
 * its first letter in lower case when it holds no underscore (`IsActive` -> `isActive`,
 * `C_BPartner_ID` stays).
 */
export function propertyName(columnName: string): string {
  if (columnName.includes('_') || columnName.length === 0) return columnName;
  return columnName[0]!.toLowerCase() + columnName.slice(1);
}
