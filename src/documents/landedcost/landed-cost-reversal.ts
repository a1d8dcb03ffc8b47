import { add, isZero, sub } from '../decimal.js';
import { averageIn } from '../costing/match-cost.js';
import { accountSchema, postFacts, type Fact } from '../accounting/facts.js';
import { docId } from '../engine/common.js';
import type { DocumentContext } from '../engine/document-type.js';
import { nowTimestamp } from '../row-values.js';
import { LANDED_COST_DESCRIPTION } from './landed-cost-facts.js';

/** The lines of an invoice ($1) paired with those of its reversal ($2), in the order both were written. */
const PAIRS = `o AS (SELECT c_invoiceline_id AS id, row_number() OVER (ORDER BY c_invoiceline_id) AS n FROM c_invoiceline WHERE c_invoice_id = $1),
  r AS (SELECT c_invoiceline_id AS id, row_number() OVER (ORDER BY c_invoiceline_id) AS n FROM c_invoiceline WHERE c_invoice_id = $2),
  pair AS (SELECT o.id AS orig, r.id AS rev FROM o JOIN r ON r.n = o.n)`;

/** The reversal lines take the landed costs and the negated allocations of the lines they reverse. */
const COPY_SQL = [
  `WITH ${PAIRS}
   INSERT INTO c_landedcost (c_landedcost_id, c_landedcost_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
     c_invoiceline_id, m_costelement_id, landedcostdistribution, m_inout_id, m_inoutline_id, m_product_id, description, processed)
   SELECT nextval('c_landedcost_sq'), gen_random_uuid()::text, x.ad_client_id, x.ad_org_id, 'Y', $3::timestamp, $4, $3::timestamp, $4,
          pair.rev, x.m_costelement_id, x.landedcostdistribution, x.m_inout_id, x.m_inoutline_id, x.m_product_id, x.description, 'Y'
     FROM c_landedcost x JOIN pair ON pair.orig = x.c_invoiceline_id ORDER BY x.c_landedcost_id`,
  `WITH ${PAIRS}
   INSERT INTO c_landedcostallocation (c_landedcostallocation_id, c_landedcostallocation_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
     c_invoiceline_id, m_costelement_id, m_inoutline_id, m_product_id, m_attributesetinstance_id, base, qty, amt, processed)
   SELECT nextval('c_landedcostallocation_sq'), gen_random_uuid()::text, x.ad_client_id, x.ad_org_id, 'Y', $3::timestamp, $4, $3::timestamp, $4,
          pair.rev, x.m_costelement_id, x.m_inoutline_id, x.m_product_id, x.m_attributesetinstance_id, x.base, -x.qty, -x.amt, 'Y'
     FROM c_landedcostallocation x JOIN pair ON pair.orig = x.c_invoiceline_id ORDER BY x.c_landedcostallocation_id`,
];

/**
 * The landed cost details of the invoice's lines ($3 the schema, $4 their description), each with
 * the quantity of its allocation (details and allocations of a line and product pair in order)
 * and the reversal line it goes back under.
 */
const DETAILS_SQL = `WITH ${PAIRS},
  a AS (SELECT a.c_invoiceline_id, a.m_product_id, a.qty, COALESCE(sl.ad_org_id, a.ad_org_id) AS stock_org_id,
               COALESCE(NULLIF(a.m_attributesetinstance_id, 0), sl.m_attributesetinstance_id, 0) AS asi_id,
               row_number() OVER (PARTITION BY a.c_invoiceline_id, a.m_product_id ORDER BY a.c_landedcostallocation_id) AS n
          FROM c_landedcostallocation a LEFT JOIN m_inoutline sl ON sl.m_inoutline_id = a.m_inoutline_id
         WHERE a.c_invoiceline_id IN (SELECT orig FROM pair)),
  c AS (SELECT cd.c_invoiceline_id, cd.m_product_id, cd.amt, cd.m_costdetail_id,
               row_number() OVER (PARTITION BY cd.c_invoiceline_id, cd.m_product_id ORDER BY cd.m_costdetail_id) AS n
          FROM m_costdetail cd WHERE cd.c_invoiceline_id IN (SELECT orig FROM pair) AND cd.c_acctschema_id = $3 AND cd.description = $4)
  SELECT pair.rev, c.m_product_id, c.amt::text AS amt, a.qty::text AS qty, a.stock_org_id, a.asi_id
    FROM c JOIN a ON a.c_invoiceline_id = c.c_invoiceline_id AND a.m_product_id = c.m_product_id AND a.n = c.n
    JOIN pair ON pair.orig = c.c_invoiceline_id
   ORDER BY c.m_costdetail_id`;

/**
 * The landed costs of a reversed vendor invoice go back with it: its reversal's lines take the
 * landed costs and negated allocations, and each product's cost gives back what its allocation
 * averaged in, as far as the stock still covers the allocation's quantity (a cost detail of the
 * reversal line). The reversal's facts are the original's negated; what the cost can no longer
 * give back moves from Product Asset to Average Cost Variance in facts of the reversal, so the
 * asset account keeps the stock's value.
 */
export async function reverseLandedCosts(d: DocumentContext, reversalId: number, dateAcct: unknown, periodId: number): Promise<void> {
  const now = nowTimestamp();
  const userId = d.wc.auth.userId;
  const pairs = [docId(d), reversalId];
  const { rowCount } = await d.wc.tx.query(COPY_SQL[1]!, [...pairs, now, userId]);
  if (!rowCount) return;
  await d.wc.tx.query(COPY_SQL[0]!, [...pairs, now, userId]);
  const schema = await accountSchema(d);
  const { rows } = await d.wc.tx.query<{ rev: number; m_product_id: number; amt: string; qty: string; stock_org_id: number; asi_id: number }>(DETAILS_SQL, [...pairs, schema.schemaId, LANDED_COST_DESCRIPTION]);
  const facts: Fact[] = [];
  for (const r of rows) {
    const productId = Number(r.m_product_id);
    const source = { column: 'c_invoiceline_id' as const, recordId: Number(r.rev), description: LANDED_COST_DESCRIPTION };
    const key = { productId, orgId: Number(d.row.ad_org_id), stockOrgId: Number(r.stock_org_id), asiId: Number(r.asi_id) };
    const taken = await averageIn(d.wc.tx, schema.schemaId, { ...source, ...key, qty: r.qty, amount: sub(0, r.amt), dateAcct }, userId, now);
    const kept = add(r.amt, taken);
    if (isZero(kept)) continue;
    facts.push({ account: 'p_asset_acct', lineId: Number(r.rev), productId, dr: kept }, { account: 'p_averagecostvariance_acct', lineId: Number(r.rev), productId, cr: kept });
  }
  if (facts.length) {
    await postFacts(d, { dateAcct, periodId, currencyId: schema.currencyId, bpartnerId: Number(d.row.c_bpartner_id), facts }, reversalId);
  }
}
