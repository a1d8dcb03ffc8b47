import { isZero, sub, type Decimal } from '../decimal.js';
import { averagedSql, averageIn } from '../costing/match-cost.js';
import { costingMethodSql } from '../costing/costing-method.js';
import { ESTIMATED_LANDED_COST_SQL } from './order-landed-cost-estimate.js';
import type { AccountSchema, Fact } from '../accounting/facts.js';
import { refuse, type DocumentContext } from '../engine/document-type.js';
import { docId } from '../engine/common.js';
import { nowTimestamp } from '../row-values.js';

/** The description of the cost details of landed costs. */
export const LANDED_COST_DESCRIPTION = 'Landed Cost';

interface AllocationRow {
  line: number;
  m_product_id: number;
  /** The receipt line's organization and the allocation's attribute set instance: the cost key at levels O and B. */
  stock_org_id: number;
  asi_id: number;
  qty: string;
  amt: string;
  averaged: boolean;
  /** The landed cost its receipt line took in as estimated on the order (0 when none, or under standard costing). */
  estimated: string;
}

const ALLOCATIONS_SQL = `SELECT a.c_invoiceline_id AS line, a.m_product_id, COALESCE(sl.ad_org_id, a.ad_org_id) AS stock_org_id,
    COALESCE(NULLIF(a.m_attributesetinstance_id, 0), sl.m_attributesetinstance_id, 0) AS asi_id, a.qty::text AS qty, a.amt::text AS amt, ${averagedSql('a.m_product_id', '$2::bigint')} AS averaged,
    CASE WHEN COALESCE(${costingMethodSql('a.m_product_id', '$2::bigint')}, 'S') = 'S' THEN 0
         ELSE COALESCE(round(${ESTIMATED_LANDED_COST_SQL('sl.c_orderline_id', 'a.qty')},
           (SELECT cur.stdprecision FROM c_acctschema s JOIN c_currency cur ON cur.c_currency_id = s.c_currency_id WHERE s.c_acctschema_id = $2)::int), 0) END::text AS estimated
  FROM c_landedcostallocation a JOIN c_invoiceline il ON il.c_invoiceline_id = a.c_invoiceline_id
  LEFT JOIN m_inoutline sl ON sl.m_inoutline_id = a.m_inoutline_id
 WHERE il.c_invoice_id = $1 AND a.isactive = 'Y' ORDER BY a.c_invoiceline_id, a.c_landedcostallocation_id`;

/**
 * The facts of the landed cost lines of a vendor invoice, instead of their expense or charge
 * account, as the original's Doc_Invoice landed costs: per allocation, under an averaging
 * method, the part the product's stock covers debits Product Asset and averages into its cost
 * (an M_CostDetail of the invoice line), the rest debits Average Cost Variance; under standard
 * costing the whole allocation debits Cost Adjustment and the cost keeps its price. Answers the
 * facts by invoice line (none for an invoice without allocations). An allocation to a receipt line
 * that took in a landed cost estimated on its order first clears that estimate (Landed Cost
 * Clearing debited by it); only the difference goes into the cost as above (to Cost Adjustment
 * under FIFO and LIFO), as the original's invoice clears the receipt's estimate.
 */
export async function landedCostFacts(d: DocumentContext, schema: AccountSchema, dateAcct: unknown): Promise<Map<number, Fact[]>> {
  const { rows } = await d.wc.tx.query<AllocationRow>(ALLOCATIONS_SQL, [docId(d), schema.schemaId], { name: 'doc_landed_cost_allocations' });
  const out = new Map<number, Fact[]>();
  if (!rows.length) return out;
  if (Number(d.row.c_currency_id) !== schema.currencyId) throw refuse('landed costs are distributed by invoices in the currency of the accounting schema');
  const now = nowTimestamp();
  for (const r of rows) {
    const lineId = Number(r.line);
    const productId = Number(r.m_product_id);
    const facts = out.get(lineId) ?? [];
    const fact = (account: Fact['account'], amount: Decimal | string): Fact => ({ account, lineId, productId, qty: r.qty, dr: amount });
    if (!isZero(r.estimated)) facts.push(fact('p_landedcostclearing_acct', r.estimated));
    const amount = sub(r.amt, r.estimated);
    if (r.averaged) {
      const source = { column: 'c_invoiceline_id' as const, recordId: lineId, description: LANDED_COST_DESCRIPTION };
      const key = { productId, orgId: Number(d.row.ad_org_id), stockOrgId: Number(r.stock_org_id), asiId: Number(r.asi_id) };
      const covered = await averageIn(d.wc.tx, schema.schemaId, { ...source, ...key, qty: r.qty, amount, dateAcct }, d.wc.auth.userId, now);
      if (!isZero(covered)) facts.push(fact('p_asset_acct', covered));
      const rest = sub(amount, covered);
      if (!isZero(rest)) facts.push(fact('p_averagecostvariance_acct', rest));
    } else if (!isZero(amount)) facts.push(fact('p_costadjustment_acct', amount));
    out.set(lineId, facts);
  }
  return out;
}
