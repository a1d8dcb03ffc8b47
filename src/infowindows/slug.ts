/**
 * The path name of an info window (or of a process, by its search key): accents dropped, lower
 * case, every run of characters other than a-z, 0-9, '-' and '_' turned into one '-', and no '-'
 * at either end. "Business Partner Info" gives business-partner-info.
 */
export function slugify(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
