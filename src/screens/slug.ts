/**
 * The slug the original derives from a window, tab, form or process name: accents dropped,
 * lower case, every run of characters outside [a-z0-9_-] replaced by one dash, no dash at
 * either end ("Bank/Cash" -> "bank-cash", "Contact (User)" -> "contact-user").
 */
export function slugify(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * The JSON property name the original's window records use for a column: the column name with
 * its first letter in lower case when it holds no underscore (`IsActive` -> `isActive`,
 * `C_BPartner_ID` stays).
 */
export function propertyName(columnName: string): string {
  if (columnName.includes('_') || columnName.length === 0) return columnName;
  return columnName[0]!.toLowerCase() + columnName.slice(1);
}
