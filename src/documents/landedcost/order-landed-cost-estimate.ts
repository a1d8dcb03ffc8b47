/**
 * The landed cost estimated on an order line (`orderLine`, an SQL expression) for a quantity
 * (`qty`): Σ allocation Amt × qty / allocation Qty over the order line's active allocations, at 12
 * decimals as the original's receipt and invoice take it; null without any.
 */
export const ESTIMATED_LANDED_COST_SQL = (orderLine: string, qty: string): string =>
  `(SELECT round(sum(a.amt * ${qty} / a.qty), 12) FROM c_orderlandedcostallocation a
     WHERE a.c_orderline_id = ${orderLine} AND a.isactive = 'Y' AND a.qty <> 0)`;
