import type { Tx } from '../../db/types.js';
import type { OperationMemo } from '../../events/operation-memo.js';
import { div, mul, round, sub, type Decimal, type DecimalInput } from '../decimal.js';
import { discountedPrice } from './discount-schema.js';
import { partnerDiscount } from './partner-discount.js';

/** What the partner's discount of one line depends on. */
export interface LineDiscountInput {
  partnerId: number | null;
  isSOTrx: boolean;
  productId: number;
  categoryId: number | null;
  /** The quantity in the product's unit. */
  qty: DecimalInput;
  /** The standard price of the price list, per unit of the product. */
  priceStd: DecimalInput;
  /** The price list's PricePrecision, to which a discounted price is rounded HALF_UP. */
  precision: number;
}

/**
 * The standard price after the partner's (or its group's) discount schema and flat discount, as
 * the original's MProductPricing: the list and limit prices stay, only the standard price moves
 * (rounded to the price list's precision).
 */
export async function partnerPrice(tx: Tx, memo: OperationMemo, l: LineDiscountInput): Promise<DecimalInput> {
  if (l.partnerId === null) return l.priceStd;
  const d = await partnerDiscount(tx, memo, l.partnerId, l.isSOTrx);
  if (!d.schema) return l.priceStd;
  return round(discountedPrice(d.schema, l.qty, l.priceStd, l.productId, l.categoryId, d.flatDiscount), l.precision);
}

/** Whether the partner's schema has quantity or value breaks, so that a changed quantity reprices its lines. */
export async function hasBreaks(tx: Tx, memo: OperationMemo, partnerId: number | null, isSOTrx: boolean): Promise<boolean> {
  if (partnerId === null) return false;
  return (await partnerDiscount(tx, memo, partnerId, isSOTrx)).schema?.discountType === 'B';
}

/** The price an entered discount gives: list price × (100 − discount)/100, HALF_UP to the price list's precision (the original's line discount). */
export function priceOfDiscount(priceList: DecimalInput, discount: DecimalInput, precision: number): Decimal {
  return round(mul(priceList, div(sub(100, discount), 100, 12)), precision);
}
