import type { ModelEvent } from '../events/model-events.js';
import { idOf } from './row-values.js';

/** Columns a charge payment leaves empty: it settles no order or invoice and is no prepayment. */
const CLEARED_BY_CHARGE: Record<string, unknown> = {
  c_order_id: null,
  c_invoice_id: null,
  writeoffamt: 0,
  discountamt: 0,
  overunderamt: 0,
  isoverunderpayment: 'N',
  isprepayment: 'N',
};

/**
 * A payment given a charge (bank fees, commissions) posts to the charge's account and pays
 * nothing else: naming the charge clears its order, invoice, write-off, discount, over/under
 * payment and prepayment flag, as the original's payment does before it is saved. Runs before
 * the payment's other rules, so that no invoice decides its amount or side.
 */
export function chargePaymentBeforeSave(e: ModelEvent): void {
  if (idOf(e.row.c_charge_id) === null) return;
  if (e.type === 'before-change' && !e.changed.has('c_charge_id')) return;
  for (const [column, value] of Object.entries(CLEARED_BY_CHARGE)) if (e.table.byName.has(column)) e.row[column] = value;
}
