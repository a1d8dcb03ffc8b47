import { compare, div, isZero, mul, sub, type Decimal, type DecimalInput } from '../decimal.js';

/** A quantity or value break of a discount schema (M_DiscountSchemaBreak), in SeqNo order. */
export interface DiscountBreak {
  breakValue: string;
  breakDiscount: string;
  fixedPrice: string | null;
  productId: number | null;
  categoryId: number | null;
  bpartnerFlat: boolean;
}

/** A discount schema (M_DiscountSchema) with its active breaks. */
export interface DiscountSchema {
  id: number;
  /** F flat percent, B breaks, S formula, P price list (list 247). */
  discountType: string;
  cumulativeLevel: string | null;
  quantityBased: boolean;
  bpartnerFlat: boolean;
  flatDiscount: string;
  breaks: DiscountBreak[];
}

/** The original's break test: reached, and for the product, for its category, or for everything. */
export function breakApplies(b: DiscountBreak, value: DecimalInput, productId: number, categoryId: number | null): boolean {
  if (compare(b.breakValue, value) > 0) return false;
  if (b.productId === null && b.categoryId === null) return true;
  if (b.productId !== null && b.productId === productId) return true;
  return b.categoryId !== null && b.categoryId === categoryId;
}

/**
 * The discount in percent a schema gives, as the original's MDiscountSchema.calculateDiscount:
 * a flat schema its own flat discount or the partner's; a break schema the first break (by
 * SeqNo) that applies to the quantity (or to quantity × price when not quantity based), or the
 * partner's flat discount when the break says so; formula and price list schemas none.
 */
export function schemaDiscount(s: DiscountSchema, qty: DecimalInput, price: DecimalInput, productId: number, categoryId: number | null, bpFlatDiscount: DecimalInput): DecimalInput {
  if (s.discountType === 'F') return s.bpartnerFlat ? bpFlatDiscount ?? 0 : s.flatDiscount;
  if (s.discountType !== 'B') return 0;
  const value = s.quantityBased ? qty : mul(qty, price);
  const hit = s.breaks.find((b) => breakApplies(b, value, productId, categoryId));
  if (!hit) return 0;
  return hit.bpartnerFlat ? bpFlatDiscount ?? 0 : hit.breakDiscount;
}

/**
 * A price after the schema's discount, as the original's calculatePrice: price × (100 − d)/100
 * with the factor at 6 decimals; without a discount the first applicable break's fixed price
 * (when positive and not the partner's flat discount) replaces the price; a zero price stays.
 */
export function discountedPrice(s: DiscountSchema, qty: DecimalInput, price: DecimalInput, productId: number, categoryId: number | null, bpFlatDiscount: DecimalInput): Decimal | DecimalInput {
  if (isZero(price)) return price;
  const discount = schemaDiscount(s, qty, price, productId, categoryId, bpFlatDiscount);
  if (isZero(discount)) {
    if (s.discountType !== 'B') return price;
    const value = s.quantityBased ? qty : mul(qty, price);
    const fixed = s.breaks.find((b) => breakApplies(b, value, productId, categoryId));
    if (fixed && !fixed.bpartnerFlat && fixed.fixedPrice !== null && compare(fixed.fixedPrice, 0) > 0) return fixed.fixedPrice;
    return price;
  }
  return mul(price, div(sub(100, discount), 100, 6));
}

/** Whether pricing applies the schema at all: a break schema only when its CumulativeLevel is L (Line), as the original's MProductPricing. */
export const appliesToLines = (s: DiscountSchema): boolean => s.discountType !== 'B' || s.cumulativeLevel === 'L';
