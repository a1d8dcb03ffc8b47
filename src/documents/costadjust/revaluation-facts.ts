import type { Fact } from '../accounting/facts.js';
import { compare, dec, isZero, sub } from '../decimal.js';

/** A revaluation of a product's stock on a document line: the quantity it concerns and the amount. */
export interface Revaluation {
  line_id: number;
  m_product_id: number;
  qty: string;
  amt: string;
}

/** The facts of revaluations: Product Asset debited by a rise (credited by a fall) against Cost Adjustment. */
export function revaluationFacts(lines: readonly Revaluation[]): Fact[] {
  const facts: Fact[] = [];
  for (const l of lines) {
    if (isZero(l.amt)) continue;
    const amt = dec(l.amt);
    const up = compare(amt, 0) > 0;
    const abs = up ? amt : sub(0, amt);
    const common = { lineId: Number(l.line_id), productId: Number(l.m_product_id), qty: l.qty };
    facts.push({ ...common, account: 'p_asset_acct', ...(up ? { dr: abs } : { cr: abs }) });
    facts.push({ ...common, account: 'p_costadjustment_acct', ...(up ? { cr: abs } : { dr: abs }) });
  }
  return facts;
}
