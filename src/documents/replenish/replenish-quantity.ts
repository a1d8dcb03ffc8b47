/** What the replenish report knows of a product in a warehouse (one row of the original's T_Replenish). */
export interface ReplenishLevels {
  /** M_Replenish.ReplenishType: 0 manual, 1 reorder below minimum, 2 maintain maximum, 9 custom. */
  replenishType: string;
  levelMin: number;
  levelMax: number;
  onHand: number;
  reserved: number;
  ordered: number;
  /** The vendor's minimum order and order pack (M_Product_PO); below 1 or missing counts as 1. */
  orderMin: number | null;
  orderPack: number | null;
}

/** Quantities are decimals of at most 12 places: rounding there keeps binary fractions out of the results. */
const exact = (n: number): number => Math.round(n * 1e12) / 1e12;

const atLeastOne = (n: number | null): number => (n === null || !(n >= 1) ? 1 : n);

/**
 * The quantity to order, as the original's replenish report computes it. A maximum below the
 * minimum counts as the minimum. Reorder below minimum (1): when on hand - reserved + ordered is
 * at or below the minimum, what brings it up to the maximum, else nothing; maintain maximum (2):
 * always what brings it up to the maximum; manual (0) and custom (9, with no custom class) order
 * nothing. A positive quantity is raised to the vendor's minimum order, then up to a whole number
 * of order packs. Below 1 the report proposes nothing (0).
 */
export function quantityToOrder(l: ReplenishLevels): number {
  const max = Math.max(l.levelMax, l.levelMin);
  const projected = exact(l.onHand - l.reserved + l.ordered);
  let qty = 0;
  if (l.replenishType === '1') qty = projected <= l.levelMin ? exact(max - projected) : 0;
  else if (l.replenishType === '2') qty = exact(max - projected);
  const min = atLeastOne(l.orderMin);
  const pack = atLeastOne(l.orderPack);
  if (qty > 0 && qty < min) qty = min;
  if (qty > 0) {
    const rest = exact(qty % pack);
    if (rest !== 0) qty = exact(qty - rest + pack);
  }
  return qty < 1 ? 0 : qty;
}
