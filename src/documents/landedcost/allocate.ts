import type { Queryable } from '../../db/types.js';
import { dec, toText, type Decimal } from '../decimal.js';
import { nowTimestamp } from '../row-values.js';
import { refuse } from '../engine/document-type.js';
import { distribute } from './distribute.js';

/** One landed cost of an invoice line with one of the receipt lines it targets (none for a product or a receipt without product lines). */
interface TargetRow {
  c_landedcost_id: number;
  c_invoiceline_id: number;
  ad_client_id: number;
  ad_org_id: number;
  line: number;
  dist: string;
  element: number | null;
  m_inout_id: number | null;
  m_inoutline_id: number | null;
  lc_product: number | null;
  amt: string;
  qtyinvoiced: string;
  precision: number;
  target: number | null;
  m_product_id: number | null;
  asi: number | null;
  qty: string | null;
  docstatus: string | null;
  documentno: string | null;
  /** The target line's base under each distribution: Q, L, W, V and C. */
  bases: Record<string, string> | string | null;
}

/**
 * The landed costs of an invoice's lines with the receipt lines they name: a receipt line, or the
 * product lines of a receipt (those of the landed cost's product when it names one). A line's
 * base is its quantity (Q), one (L), its quantity × the product's weight (W) or volume (V), or its
 * quantity × its price (C: the price of the vendor invoice line matched with it, else of the
 * invoice line made from it, else of its order line).
 */
const TARGETS_SQL = `SELECT lc.c_landedcost_id, lc.c_invoiceline_id, il.ad_client_id, il.ad_org_id, il.line, lc.landedcostdistribution AS dist, lc.m_costelement_id AS element,
    lc.m_inout_id, lc.m_inoutline_id, lc.m_product_id AS lc_product, il.linenetamt::text AS amt, il.qtyinvoiced::text AS qtyinvoiced,
    COALESCE((SELECT c.stdprecision FROM c_invoice i JOIN c_currency c ON c.c_currency_id = i.c_currency_id WHERE i.c_invoice_id = il.c_invoice_id), 2)::int AS precision,
    iol.m_inoutline_id AS target, iol.m_product_id, iol.m_attributesetinstance_id AS asi, iol.movementqty::text AS qty, io.docstatus, io.documentno,
    CASE WHEN iol.m_inoutline_id IS NOT NULL THEN json_build_object(
      'Q', iol.movementqty::text, 'L', '1', 'W', (iol.movementqty * COALESCE(p.weight, 0))::text, 'V', (iol.movementqty * COALESCE(p.volume, 0))::text,
      'C', (iol.movementqty * COALESCE(
        (SELECT x.priceactual FROM m_matchinv mi JOIN c_invoiceline x ON x.c_invoiceline_id = mi.c_invoiceline_id
          WHERE mi.m_inoutline_id = iol.m_inoutline_id AND mi.qty > 0 ORDER BY mi.m_matchinv_id LIMIT 1),
        (SELECT x.priceactual FROM c_invoiceline x JOIN c_invoice xi ON xi.c_invoice_id = x.c_invoice_id
          WHERE x.m_inoutline_id = iol.m_inoutline_id AND xi.docstatus IN ('CO', 'CL') ORDER BY x.c_invoiceline_id LIMIT 1),
        (SELECT ol.priceactual FROM c_orderline ol WHERE ol.c_orderline_id = iol.c_orderline_id), 0))::text) END AS bases
  FROM c_landedcost lc JOIN c_invoiceline il ON il.c_invoiceline_id = lc.c_invoiceline_id
  LEFT JOIN m_inoutline iol ON (lc.m_inoutline_id IS NOT NULL AND iol.m_inoutline_id = lc.m_inoutline_id)
    OR (lc.m_inoutline_id IS NULL AND lc.m_inout_id IS NOT NULL AND iol.m_inout_id = lc.m_inout_id AND iol.m_product_id IS NOT NULL
        AND COALESCE(iol.isdescription, 'N') <> 'Y' AND (lc.m_product_id IS NULL OR iol.m_product_id = lc.m_product_id))
  LEFT JOIN m_inout io ON io.m_inout_id = iol.m_inout_id
  LEFT JOIN m_product p ON p.m_product_id = iol.m_product_id
 WHERE il.c_invoice_id = $1 AND ($2::bigint IS NULL OR il.c_invoiceline_id = $2) AND lc.isactive = 'Y'
 ORDER BY il.line, il.c_invoiceline_id, lc.c_landedcost_id, iol.line, iol.m_inoutline_id`;

interface Allocation {
  lineId: number;
  productId: number;
  receiptLineId: number | null;
  asi: number | null;
  element: number | null;
  base: string;
  qty: string;
  amt: Decimal;
}

const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

/**
 * The allocations of one invoice line's landed costs, as the original's allocateLandedCosts: a
 * single landed cost of a product takes the whole amount (base and quantity the invoiced
 * quantity, or the line amount for C); else the receipt lines the landed costs name share the
 * line's amount by their bases, rounding left over on the largest share. Refused: landed costs
 * of different distributions or elements, a product without a receipt among several, no receipt
 * line with a product, receipts not completed, bases adding up to zero.
 */
export function lineAllocations(rows: readonly TargetRow[]): Allocation[] {
  const first = rows[0]!;
  const lineId = Number(first.c_invoiceline_id);
  const costs = new Set(rows.map((r) => Number(r.c_landedcost_id)));
  const where = `invoice line ${first.line}`;
  if (costs.size === 1 && first.m_inout_id === null && first.m_inoutline_id === null && first.lc_product !== null) {
    const base = first.dist === 'C' ? first.amt : first.qtyinvoiced;
    return [{ lineId, productId: Number(first.lc_product), receiptLineId: null, asi: null, element: first.element, base, qty: base, amt: dec(first.amt) }];
  }
  for (const r of rows) {
    if (r.dist !== first.dist) throw refuse(`the landed costs of ${where} must have one cost distribution`);
    if ((r.element ?? null) !== (first.element ?? null)) throw refuse(`the landed costs of ${where} must have one cost element`);
    if (r.m_inout_id === null && r.m_inoutline_id === null) throw refuse(`the landed costs of ${where} cannot go to a product directly when there are several of them: name a receipt or a receipt line`);
  }
  const targets = rows.filter((r) => r.target !== null);
  if (!targets.length) throw refuse(`the landed costs of ${where} name no receipt line with a product`);
  const open = targets.find((r) => r.docstatus !== 'CO' && r.docstatus !== 'CL');
  if (open) throw refuse(`the landed costs of ${where} name receipt ${String(open.documentno)}, which is not completed`);
  const bases = targets.map((r) => json<Record<string, string>>(r.bases)[first.dist] ?? '0');
  const shares = distribute(first.amt, bases, first.precision);
  if (!shares) throw refuse(`the bases of the landed costs of ${where} add up to 0 (cost distribution ${first.dist})`);
  return targets.map((r, i) => ({
    lineId, productId: Number(r.m_product_id), receiptLineId: Number(r.target), asi: r.asi === null ? null : Number(r.asi), element: r.element, base: bases[i]!, qty: r.qty ?? '0', amt: shares[i]!,
  }));
}

const INSERT_SQL = `INSERT INTO c_landedcostallocation (c_landedcostallocation_id, c_landedcostallocation_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
    c_invoiceline_id, m_costelement_id, m_inoutline_id, m_product_id, m_attributesetinstance_id, base, qty, amt, processed)
  SELECT nextval('c_landedcostallocation_sq'), gen_random_uuid()::text, $1, $2, 'Y', $3::timestamp, $4, $3::timestamp, $4,
         x.line, x.element, x.receipt, x.product, x.asi, x.base, x.qty, x.amt, 'Y'
    FROM unnest($5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[], $10::numeric[], $11::numeric[], $12::numeric[])
         WITH ORDINALITY AS x(line, element, receipt, product, asi, base, qty, amt, n)
   ORDER BY x.n`;

export interface LandedCostInvoice {
  id: number;
  sales: boolean;
  credit: boolean;
  taxIncluded: boolean;
  /** Only this line's landed costs (the process Distribute Costs), else all the invoice's. */
  lineId?: number;
}

/**
 * Distributes the landed costs of an invoice's lines anew (their former allocations deleted) and
 * marks them processed; answers whether the invoice has any. A customer invoice, a credit memo or
 * a tax-included invoice with landed costs is refused: landed costs come with vendor invoices.
 */
export async function allocateLandedCosts(q: Queryable, invoice: LandedCostInvoice, userId: number): Promise<boolean> {
  const { rows } = await q.query<TargetRow>(TARGETS_SQL, [invoice.id, invoice.lineId ?? null], { name: 'doc_landed_cost_targets' });
  if (!rows.length) return false;
  if (invoice.sales) throw refuse('landed costs are distributed by vendor invoices only, not by customer invoices');
  if (invoice.credit) throw refuse('landed costs are distributed by vendor invoices only, not by credit memos');
  if (invoice.taxIncluded) throw refuse('landed costs are distributed by the net amounts of a vendor invoice whose prices do not include tax');
  const byLine = new Map<number, TargetRow[]>();
  for (const r of rows) byLine.set(Number(r.c_invoiceline_id), [...(byLine.get(Number(r.c_invoiceline_id)) ?? []), r]);
  const allocations = [...byLine.values()].flatMap(lineAllocations);
  const lineIds = [...byLine.keys()];
  await q.query('DELETE FROM c_landedcostallocation WHERE c_invoiceline_id = ANY($1::bigint[])', [lineIds]);
  const now = nowTimestamp();
  const col = <T>(f: (a: Allocation) => T) => allocations.map(f);
  await q.query(INSERT_SQL, [
    rows[0]!.ad_client_id, rows[0]!.ad_org_id, now, userId,
    col((a) => a.lineId), col((a) => a.element), col((a) => a.receiptLineId), col((a) => a.productId), col((a) => a.asi),
    col((a) => a.base), col((a) => a.qty), col((a) => toText(a.amt)),
  ]);
  await q.query(`UPDATE c_landedcost SET processed = 'Y', updated = $2::timestamp, updatedby = $3 WHERE c_invoiceline_id = ANY($1::bigint[])`, [lineIds, now, userId]);
  return true;
}
