/**
 * The slug of a process in paths, as the original's database function computes it from
 * AD_Process.Value: accents removed, lower case, every run of characters other than a-z, 0-9,
 * '-' and '_' replaced by one '-', and '-' trimmed from both ends ("C_BPartner Validate" ->
 * "c_bpartner-validate", "RV_OrderDetail" -> "rv_orderdetail").
 */
export function processSlug(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
