import { add, compare, dec, div, isZero, mul, round, sub, toNumber, ZERO, type Decimal, type DecimalInput } from './decimal.js';

/** Digits kept by the division inside a tax-included tax, as the original's tax computation. */
const INCLUDED_BASE_SCALE = 12;

/** Extended line amount: price × quantity, HALF_UP to the currency's precision. */
export function lineNetAmount(price: DecimalInput, qty: DecimalInput, precision: number): number {
  return toNumber(round(mul(price, qty), precision));
}

/** Discount of the actual price against the list price, in percent with two decimals (0 without a list price). */
export function discountPercent(priceList: DecimalInput, priceActual: DecimalInput): number {
  if (isZero(priceList)) return 0;
  return toNumber(div(mul(sub(priceList, priceActual), 100), priceList, 2));
}

/**
 * The tax on an amount at a rate in percent, rounded HALF_UP to `precision`. When the amount
 * includes the tax, the tax is the amount less amount / (1 + rate/100).
 */
export function taxAmountOf(amount: DecimalInput, rate: DecimalInput, taxIncluded: boolean, precision: number): Decimal {
  if (isZero(rate) || isZero(amount)) return round(ZERO, precision);
  if (!taxIncluded) return round(div(mul(amount, rate), 100, INCLUDED_BASE_SCALE + 4), precision);
  const base = div(amount, add(1, div(rate, 100, INCLUDED_BASE_SCALE + 4)), INCLUDED_BASE_SCALE);
  return round(sub(amount, base), precision);
}

/** The tax on an amount as a number (see taxAmountOf). */
export function taxAmount(amount: DecimalInput, rate: DecimalInput, taxIncluded: boolean, precision: number): number {
  return toNumber(taxAmountOf(amount, rate, taxIncluded, precision));
}

export interface TaxDefinition {
  id: number;
  rate: DecimalInput;
  isSummary: boolean;
  /** Tax computed once on the document's base instead of per line. */
  isDocumentLevel: boolean;
  /** The summary tax this tax is a part of. */
  parentId: number | null;
}

/** Lines of a document sharing a tax and a net amount (count of such lines, default 1). */
export interface TaxedAmount {
  taxId: number | null;
  net: DecimalInput;
  count?: number;
}

export interface DocumentTax {
  taxId: number;
  base: number;
  amount: number;
}

export interface DocumentTotals {
  taxes: DocumentTax[];
  totalLines: number;
  grandTotal: number;
}

interface TaxSum {
  base: Decimal;
  amount: Decimal;
}

/**
 * Tax rows and totals of an order or invoice from its lines:
 * - one row per tax: base = Σ net, tax = Σ per line round(net × rate/100) (once on the base
 *   for document-level taxes); with tax-included prices the tax comes out of the amount and the
 *   base excludes it;
 * - a summary tax becomes one row per child tax, each computed on the summary row's base;
 * - TotalLines = Σ net; GrandTotal = TotalLines + Σ tax, or TotalLines when prices include tax.
 */
export function documentTotals(lines: readonly TaxedAmount[], taxes: readonly TaxDefinition[], taxIncluded: boolean, precision: number): DocumentTotals {
  const byId = new Map(taxes.map((t) => [t.id, t]));
  const groups = new Map<number, { net: Decimal; perLineTax: Decimal }>();
  let totalLines: Decimal = ZERO;
  for (const line of lines) {
    const count = line.count ?? 1;
    const net = mul(line.net, count);
    totalLines = add(totalLines, net);
    if (line.taxId === null) continue;
    const tax = byId.get(line.taxId);
    const g = groups.get(line.taxId) ?? { net: ZERO, perLineTax: ZERO };
    g.net = add(g.net, net);
    if (tax && !tax.isDocumentLevel) g.perLineTax = add(g.perLineTax, mul(taxAmountOf(line.net, tax.rate, taxIncluded, precision), count));
    groups.set(line.taxId, g);
  }
  const rows = new Map<number, TaxSum>();
  const addRow = (taxId: number, base: Decimal, amount: Decimal) => {
    const r = rows.get(taxId);
    rows.set(taxId, r ? { base: add(r.base, base), amount: add(r.amount, amount) } : { base, amount });
  };
  for (const [taxId, g] of groups) {
    const tax = byId.get(taxId);
    const amount = !tax ? round(ZERO, precision) : tax.isDocumentLevel ? taxAmountOf(g.net, tax.rate, taxIncluded, precision) : g.perLineTax;
    const base = taxIncluded ? sub(g.net, amount) : g.net;
    const children = tax?.isSummary ? taxes.filter((t) => t.parentId === taxId) : [];
    if (children.length === 0) addRow(taxId, base, amount);
    else for (const child of children) addRow(child.id, base, taxAmountOf(base, child.rate, false, precision));
  }
  const out = [...rows.entries()].sort(([a], [b]) => a - b).map(([taxId, r]) => ({ taxId, base: toNumber(round(r.base, precision)), amount: toNumber(round(r.amount, precision)) }));
  const taxTotal = out.reduce<Decimal>((s, r) => add(s, r.amount), ZERO);
  const linesTotal = round(totalLines, precision);
  return {
    taxes: out,
    totalLines: toNumber(linesTotal),
    grandTotal: toNumber(taxIncluded ? linesTotal : add(linesTotal, taxTotal)),
  };
}

/** Whether an actual price is under a limit price that is set (a zero limit is none). */
export function isUnderLimit(priceActual: DecimalInput, priceLimit: DecimalInput): boolean {
  return !isZero(priceLimit) && compare(priceActual, priceLimit) < 0;
}

/** The next line number: the next multiple of 10 above the highest line so far. */
export function nextLineNo(maxLine: DecimalInput): number {
  const max = Math.max(0, Math.floor(toNumber(dec(maxLine))));
  return (Math.floor(max / 10) + 1) * 10;
}
