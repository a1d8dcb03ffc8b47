import type { Queryable } from '../../db/types.js';
import { dec, toText, type Decimal, type DecimalInput } from '../decimal.js';
import { costAsiSql, costingLevelSql, costingMethodSql, costOrgSql, costRowJoin, materialElementSql } from './costing-method.js';

/** Costing methods that keep their price apart from amounts averaged in: standard, and FIFO/LIFO (their layers keep it). */
const NOT_AVERAGED = "('S', 'F', 'L')";

/** One posted invoice match whose invoice price differs from the receipt's value. */
export interface MatchVariance {
  matchInvId: number;
  productId: number;
  orgId: number;
  /** The organization of the receipt line (where the stock is) and its attribute set instance: the cost key's at levels O and B. */
  stockOrgId: number;
  asiId: number;
  /** The matched quantity (negative for a reversal or a credit memo's match). */
  qty: string;
  /** Invoice amount − receipt amount of the matched quantity, in the schema's currency. */
  variance: Decimal;
  dateAcct: unknown;
}

/** The column of M_CostDetail that names what an amount averaged in came from. */
export type AveragedInColumn = 'm_matchinv_id' | 'c_invoiceline_id';

/**
 * Under an averaging method (any but S), the part of an amount the stock still covers: all of it
 * when the cost's CurrentQty holds the quantity the amount came with, else the share CurrentQty /
 * |qty|, none with no stock, as the original's Doc_MatchInv and Doc_Invoice landed costs cover
 * them. That part averages into the cost (CurrentCostPrice + part / CurrentQty at 8 decimals,
 * CumulatedAmt + part) with an M_CostDetail of the source (Qty 0, Amt the part) and, when the cost
 * changed, an M_CostHistory row naming that detail with the cost before and after, as the stock
 * documents keep theirs (cost-history.ts). The cost is the one of the cost key of the product's
 * costing level for the stock line the amount came with (its organization $11 at level O, its
 * instance $12 at level B). Under standard costing, or with no cost row, nothing is covered.
 */
const coverSql = (column: AveragedInColumn): string => `WITH s AS (
    SELECT a.c_acctschema_id, a.ad_client_id, a.m_costtype_id, cur.stdprecision::int AS prec
      FROM c_acctschema a JOIN c_currency cur ON cur.c_currency_id = a.c_currency_id WHERE a.c_acctschema_id = $1
  ), p AS (
    SELECT $2::bigint AS m_product_id
  ), e AS (
    SELECT x.method, ${materialElementSql('s.ad_client_id', 'x.method')} AS element,
           ${costOrgSql('x.level', '$11::bigint')} AS cost_org, ${costAsiSql('x.level', '$12::bigint')} AS cost_asi
      FROM s CROSS JOIN LATERAL (SELECT ${costingMethodSql('$2::bigint', 's.c_acctschema_id')} AS method,
                                        ${costingLevelSql('$2::bigint', 's.c_acctschema_id')} AS level OFFSET 0) x
  ), k AS (
    SELECT e.method, e.element, e.cost_org, e.cost_asi, c.m_cost_id, c.currentqty, c.currentcostprice, c.cumulatedamt, c.cumulatedqty,
           CASE WHEN c.m_cost_id IS NULL OR e.method IN ${NOT_AVERAGED} OR c.currentqty <= 0 THEN 0
                WHEN c.currentqty >= abs($3::numeric) THEN $4::numeric
                ELSE round($4::numeric * c.currentqty / abs($3::numeric), s.prec) END AS covered
      FROM s CROSS JOIN e CROSS JOIN p ${costRowJoin('p', 's', 'e.element', 'e.cost_org', 'e.cost_asi')}
  ), upd AS (
    UPDATE m_cost mc SET currentcostprice = round(mc.currentcostprice + k.covered / mc.currentqty, 8), cumulatedamt = mc.cumulatedamt + k.covered,
           updated = $7::timestamp, updatedby = $8
      FROM k WHERE mc.m_cost_id = k.m_cost_id AND k.covered <> 0
    RETURNING mc.m_cost_id, mc.currentqty, mc.currentcostprice, mc.cumulatedqty, mc.cumulatedamt
  ), ins AS (
    INSERT INTO m_costdetail (m_costdetail_id, m_costdetail_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
           c_acctschema_id, m_product_id, m_attributesetinstance_id, m_costelement_id, ${column}, amt, qty, price, currentcostprice,
           currentqty, cumulatedamt, cumulatedqty, deltaamt, deltaqty, dateacct, issotrx, isbackdate, processed, description)
    SELECT nextval('m_costdetail_sq'), gen_random_uuid()::text, s.ad_client_id, $6, 'Y', $7::timestamp, $8, $7::timestamp, $8,
           s.c_acctschema_id, $2, k.cost_asi, k.element, $9, k.covered, 0, 0, k.currentcostprice, k.currentqty, k.cumulatedamt, k.cumulatedqty, 0, 0,
           $5::timestamp, 'N', 'N', 'Y', $10::text
      FROM s CROSS JOIN k WHERE k.m_cost_id IS NOT NULL AND k.method NOT IN ${NOT_AVERAGED}
    RETURNING m_costdetail_id
  ), history AS (
    INSERT INTO m_costhistory (m_costhistory_id, m_costhistory_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
           m_product_id, m_attributesetinstance_id, m_costtype_id, m_costelement_id, m_costdetail_id, dateacct, isbackdate,
           oldqty, oldcostprice, oldcqty, oldcamt, newqty, newcostprice, newcqty, newcamt)
    SELECT nextval('m_costhistory_sq'), gen_random_uuid()::text, s.ad_client_id, k.cost_org, 'Y', $7::timestamp, $8, $7::timestamp, $8,
           $2, k.cost_asi, s.m_costtype_id, k.element, ins.m_costdetail_id, $5::timestamp, 'N',
           k.currentqty, k.currentcostprice, k.cumulatedqty, k.cumulatedamt, u.currentqty, u.currentcostprice, u.cumulatedqty, u.cumulatedamt
      FROM s CROSS JOIN k CROSS JOIN ins JOIN upd u ON u.m_cost_id = k.m_cost_id
  )
  SELECT k.covered::text AS covered, k.method FROM k`;

/** An amount that averages into a product's cost by what the stock covers of the quantity it came with. */
export interface AveragedIn {
  column: AveragedInColumn;
  /** The id the cost detail names in `column`. */
  recordId: number;
  productId: number;
  orgId: number;
  /** The organization and attribute set instance of the stock the amount is for (receipt line), for the cost key. */
  stockOrgId: number;
  asiId: number;
  /** The quantity the amount came with (its sign is not used). */
  qty: string;
  amount: DecimalInput;
  dateAcct: unknown;
  description: string;
}

/** Averages the covered part of an amount into the product's cost; answers that part (0 under standard, FIFO or LIFO costing, or with no stock). */
export async function averageIn(q: Queryable, schemaId: number, a: AveragedIn, userId: number, now: string): Promise<Decimal> {
  const { rows } = await q.query<{ covered: string; method: string }>(
    coverSql(a.column),
    [schemaId, a.productId, a.qty, toText(a.amount), a.dateAcct, a.orgId, now, userId, a.recordId, a.description, a.stockOrgId, a.asiId],
    { name: `doc_average_in_${a.column}` },
  );
  return dec(rows[0]?.covered ?? 0);
}

/** Averages the covered part of a match's invoice price variance into the product's cost; answers that part (0 under standard costing). */
export function averageInVariance(q: Queryable, schemaId: number, m: MatchVariance, userId: number, now: string): Promise<Decimal> {
  const source = { column: 'm_matchinv_id' as const, recordId: m.matchInvId, description: 'Invoice Price Variance' };
  const key = { productId: m.productId, orgId: m.orgId, stockOrgId: m.stockOrgId, asiId: m.asiId };
  return averageIn(q, schemaId, { ...source, ...key, qty: m.qty, amount: m.variance, dateAcct: m.dateAcct }, userId, now);
}

/**
 * Whether a product is costed by an averaging method (any but standard, FIFO and LIFO) in the
 * schema `schema` ($ parameter or column). Under FIFO and LIFO the layers keep the receipt's value,
 * so the whole variance goes to Invoice Price Variance, as under standard costing.
 */
export const averagedSql = (product: string, schema: string): string => `(COALESCE(${costingMethodSql(product, schema)}, 'A') NOT IN ${NOT_AVERAGED})`;
