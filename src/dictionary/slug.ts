/**
 * The path name the original derives from a window, tab, form, info window or process name (or a
 * process's search key, as its database function does): accents dropped, lower case, every run of
 * characters outside [a-z0-9_-] replaced by one dash, no dash at either end ("Bank/Cash" ->
 * "bank-cash", "Business Partner Info" -> "business-partner-info", "RV_OrderDetail" ->
 * "rv_orderdetail").
 */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
