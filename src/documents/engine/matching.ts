import type { Queryable } from '../../db/types.js';
import { compare, dec, isZero, sub, toText, type Decimal } from '../decimal.js';
import { nowTimestamp } from '../row-values.js';
import { refuse } from './document-type.js';
import {
  addInvoiceLine,
  addReceiptLine,
  candidates,
  common,
  id,
  insertMatchPO,
  matchInvoiceWithReceipt,
  reduceMatch,
  type Candidate,
  type LineFacts,
  type MatchOrigin,
  type Stamp,
} from './match-rows.js';

/**
 * Matching of the purchase side, as the original's MMatchPO / MMatchInv: a purchase order line is
 * matched with the receipt lines that deliver it and the vendor invoice lines that bill it
 * (M_MatchPO), and a receipt line with the invoice lines of the same goods (M_MatchInv). One
 * M_MatchPO row holds a receipt line, an invoice line, or both once both exist for the same
 * quantity: a receipt completed after an invoice fills the invoice's row (and the other way
 * round), which also writes the M_MatchInv of the pair. Written when a receipt or a vendor invoice
 * completes, undone when it is reversed. The matched quantities of an order line never exceed
 * what it ordered: a receipt or invoice that would go beyond is refused.
 */

// ---------------------------------------------------------------- receipts

interface ReceiptLine {
  m_inoutline_id: number;
  c_orderline_id: number | null;
  m_product_id: number;
  m_attributesetinstance_id: number | null;
  ad_org_id: number;
  movementqty: string;
}

const RECEIPT_LINES_SQL = `SELECT sl.m_inoutline_id, sl.c_orderline_id, sl.m_product_id, sl.m_attributesetinstance_id, sl.ad_org_id, sl.movementqty::text AS movementqty
  FROM m_inoutline sl WHERE sl.m_inout_id = $1 AND sl.m_product_id IS NOT NULL AND sl.movementqty <> 0 ORDER BY sl.line, sl.m_inoutline_id`;

/** The completed vendor invoice line that names a receipt line (the original's MInvoiceLine.getOfInOutLine). */
const NAMING_INVOICE_LINE_SQL = `SELECT il.c_invoiceline_id, il.qtyinvoiced::text AS qtyinvoiced, COALESCE(dt.docbasetype, 'API') AS docbasetype
  FROM c_invoiceline il JOIN c_invoice i ON i.c_invoice_id = il.c_invoice_id
  LEFT JOIN c_doctype dt ON dt.c_doctype_id = COALESCE(NULLIF(i.c_doctypetarget_id, 0), i.c_doctype_id)
 WHERE il.m_inoutline_id = $1 AND i.issotrx = 'N' AND i.docstatus IN ('CO', 'CL') AND il.m_product_id IS NOT NULL
 ORDER BY il.c_invoiceline_id LIMIT 1`;

/** An invoice line's quantity in the sense of the match: negative for a credit memo. */
const invoicedQty = (qty: string, docBaseType: string): Decimal => (docBaseType.endsWith('C') ? sub(0, qty) : dec(qty));

/**
 * Matches of a vendor receipt (or vendor return) that completes, line by line as the original's
 * MInOut: the completed invoice line that names the receipt line gets its M_MatchInv; a line of a
 * purchase order fills the order line's invoice matches its quantity covers, splits one for what
 * is left, or else gets a match of its own (a return: a negative one). Returns the new M_MatchInv
 * ids, for posting.
 */
export async function matchReceipt(q: Queryable, inoutId: number, movementType: string, origin: MatchOrigin): Promise<number[]> {
  const s: Stamp = { ...origin, now: nowTimestamp(), side: 'receipt' };
  const created: number[] = [];
  const orderLines = new Set<number>();
  const { rows } = await q.query<ReceiptLine>(RECEIPT_LINES_SQL, [inoutId], { name: 'doc_match_receipt_lines' });
  for (const sl of rows) {
    const lineId = Number(sl.m_inoutline_id);
    const qty = movementType.endsWith('-') ? sub(0, sl.movementqty) : dec(sl.movementqty);
    const line: LineFacts = { orgId: Number(sl.ad_org_id), productId: Number(sl.m_product_id), asiId: id(sl.m_attributesetinstance_id) };
    const naming = (await q.query<{ c_invoiceline_id: number; qtyinvoiced: string; docbasetype: string }>(NAMING_INVOICE_LINE_SQL, [lineId], { name: 'doc_match_naming_invoice' })).rows[0];
    const namedQty = naming ? common(qty, invoicedQty(naming.qtyinvoiced, naming.docbasetype)) : null;
    if (naming && namedQty !== null && !isZero(namedQty)) {
      const mi = await matchInvoiceWithReceipt(q, Number(naming.c_invoiceline_id), lineId, namedQty, s);
      if (mi !== null) created.push(mi);
    }
    const orderLineId = id(sl.c_orderline_id);
    if (orderLineId === null) continue;
    orderLines.add(orderLineId);
    if (compare(qty, 0) < 0) await insertMatchPO(q, orderLineId, lineId, null, qty, line, s);
    else created.push(...(await receiptToOrder(q, orderLineId, lineId, qty, line, s)));
  }
  await refuseOverMatching(q, [...orderLines]);
  return created;
}

const OTHER_MATCH_INV_QTY_SQL = `SELECT 1 FROM m_matchinv WHERE m_inoutline_id = $1 AND c_invoiceline_id = $2 AND qty <> $3::numeric LIMIT 1`;

/**
 * A receipt line of `qty` against its order line's matches (the original's MMatchPO.create for a
 * receipt line). An invoice match takes a receipt line only for what of its invoice line is not
 * matched with receipts yet: the original posts (and so closes) an invoice match as soon as
 * receipts cover it, and a posted one takes no later receipt.
 */
async function receiptToOrder(q: Queryable, orderLineId: number, lineId: number, qty: Decimal, line: LineFacts, s: Stamp): Promise<number[]> {
  const created: number[] = [];
  const list = await candidates(q, orderLineId, lineId);
  let left = qty;
  // A match of an invoice line alone, whose invoice line names no other receipt line.
  const open = (m: Candidate): m is Candidate & { invoiceLineId: number } => m.inoutLineId === null && m.invoiceLineId !== null && (m.invoiceNames === null || m.invoiceNames === lineId);
  // Invoice matches the receipt covers whole take the receipt line.
  for (const m of list) {
    if (compare(left, m.qty) < 0 || !open(m) || compare(m.invoiceUnreceived, m.qty) < 0) continue;
    const mi = await matchInvoiceWithReceipt(q, m.invoiceLineId, lineId, m.qty, s);
    if (mi !== null) created.push(mi);
    await addReceiptLine(q, m.id, lineId, s);
    m.inoutLineId = lineId;
    left = sub(left, m.qty);
    if (compare(left, 0) <= 0) return created;
  }
  // What is left: split from the oldest invoice match that holds as much, else a match of the receipt line alone.
  for (const m of list) {
    if (!open(m) || compare(m.qty, left) < 0 || compare(m.invoiceUnreceived, left) < 0) continue;
    if ((await q.query(OTHER_MATCH_INV_QTY_SQL, [lineId, m.invoiceLineId, toText(left)], { name: 'doc_match_inv_other_qty' })).rows.length) continue;
    await reduceMatch(q, m.id, left, s);
    await insertMatchPO(q, orderLineId, lineId, m.invoiceLineId, left, line, s);
    const mi = await matchInvoiceWithReceipt(q, m.invoiceLineId, lineId, left, s);
    if (mi !== null) created.push(mi);
    return created;
  }
  await insertMatchPO(q, orderLineId, lineId, null, left, line, s);
  return created;
}

// ---------------------------------------------------------------- invoices

interface InvoiceLine {
  c_invoiceline_id: number;
  c_orderline_id: number | null;
  m_inoutline_id: number | null;
  m_product_id: number;
  m_attributesetinstance_id: number | null;
  ad_org_id: number;
  qtyinvoiced: string;
  receipt_qty: string | null;
  receipt_movementtype: string | null;
}

/** The lines of a vendor invoice with a product, with the completed vendor receipt line each names. */
const INVOICE_LINES_SQL = `SELECT il.c_invoiceline_id, il.c_orderline_id, il.m_inoutline_id, il.m_product_id, il.m_attributesetinstance_id, il.ad_org_id,
    il.qtyinvoiced::text AS qtyinvoiced, sl.movementqty::text AS receipt_qty, s.movementtype AS receipt_movementtype
  FROM c_invoiceline il
  LEFT JOIN m_inoutline sl ON sl.m_inoutline_id = il.m_inoutline_id
  LEFT JOIN m_inout s ON s.m_inout_id = sl.m_inout_id AND s.issotrx = 'N' AND s.docstatus IN ('CO', 'CL')
 WHERE il.c_invoice_id = $1 AND il.m_product_id IS NOT NULL AND il.qtyinvoiced <> 0 ORDER BY il.line, il.c_invoiceline_id`;

/**
 * Matches of a vendor invoice (or credit memo) that completes, line by line as the original's
 * MInvoice: a line naming a completed receipt line gets its M_MatchInv (for what both hold); a
 * line of a purchase order fills the receipt matches of the order line its quantity covers, and
 * gets a match of its own for what is left, matched with receipt lines not invoiced yet (a credit
 * memo: a negative one). Returns the new M_MatchInv ids, for posting.
 */
export async function matchInvoice(q: Queryable, invoiceId: number, docBaseType: string, origin: MatchOrigin): Promise<number[]> {
  const s: Stamp = { ...origin, now: nowTimestamp(), side: 'invoice' };
  const created: number[] = [];
  const orderLines = new Set<number>();
  const { rows } = await q.query<InvoiceLine>(INVOICE_LINES_SQL, [invoiceId], { name: 'doc_match_invoice_lines' });
  for (const il of rows) {
    const lineId = Number(il.c_invoiceline_id);
    const qty = invoicedQty(il.qtyinvoiced, docBaseType);
    const line: LineFacts = { orgId: Number(il.ad_org_id), productId: Number(il.m_product_id), asiId: id(il.m_attributesetinstance_id) };
    const receiptLineId = id(il.m_inoutline_id);
    if (receiptLineId !== null && il.receipt_movementtype !== null && il.receipt_qty !== null) {
      const received = il.receipt_movementtype.endsWith('-') ? sub(0, il.receipt_qty) : dec(il.receipt_qty);
      const both = common(qty, received);
      if (both !== null && !isZero(both)) {
        const mi = await matchInvoiceWithReceipt(q, lineId, receiptLineId, both, s);
        if (mi !== null) created.push(mi);
      }
    }
    const orderLineId = id(il.c_orderline_id);
    if (orderLineId === null) continue;
    orderLines.add(orderLineId);
    if (compare(qty, 0) < 0) await insertMatchPO(q, orderLineId, null, lineId, qty, line, s);
    else created.push(...(await invoiceToOrder(q, orderLineId, lineId, receiptLineId, qty, line, s)));
  }
  await refuseOverMatching(q, [...orderLines]);
  return created;
}

const INVOICED_ELSEWHERE_SQL = `SELECT 1 FROM m_matchinv WHERE m_inoutline_id = $1 AND c_invoiceline_id <> $2 AND reversal_id IS NULL LIMIT 1`;

/** An invoice line of `qty` against its order line's matches (the original's MMatchPO.create for an invoice line). */
async function invoiceToOrder(q: Queryable, orderLineId: number, lineId: number, namedReceiptLine: number | null, qty: Decimal, line: LineFacts, s: Stamp): Promise<number[]> {
  const created: number[] = [];
  let left = qty;
  // Receipt matches the invoice covers whole take the invoice line.
  for (const m of await candidates(q, orderLineId)) {
    if (compare(left, m.qty) < 0 || m.invoiceLineId !== null || m.inoutLineId === null) continue;
    if ((await q.query(INVOICED_ELSEWHERE_SQL, [m.inoutLineId, lineId], { name: 'doc_match_invoiced_elsewhere' })).rows.length) continue;
    if (namedReceiptLine !== null && namedReceiptLine !== m.inoutLineId) continue;
    const mi = await matchInvoiceWithReceipt(q, lineId, m.inoutLineId, m.qty, s);
    if (mi !== null) created.push(mi);
    await addInvoiceLine(q, m.id, lineId, s);
    left = sub(left, m.qty);
    if (compare(left, 0) <= 0) return created;
  }
  await insertMatchPO(q, orderLineId, null, lineId, left, line, s);
  created.push(...(await matchUninvoicedReceipts(q, orderLineId, lineId, left, s)));
  return created;
}

/**
 * What each receipt match of the order line (of a completed receipt, with no invoice line yet)
 * still has not invoiced: its quantity less the invoice matches of its receipt line that no match
 * of the order line holds.
 */
const UNINVOICED_RECEIPTS_SQL = `SELECT m.m_inoutline_id, (m.qty - COALESCE((
    SELECT sum(GREATEST(mi.qty - COALESCE((SELECT sum(c.qty) FROM m_matchpo c
                                            WHERE c.m_inoutline_id = mi.m_inoutline_id AND c.c_invoiceline_id = mi.c_invoiceline_id AND c.reversal_id IS NULL), 0), 0))
      FROM m_matchinv mi JOIN c_invoiceline il ON il.c_invoiceline_id = mi.c_invoiceline_id JOIN c_invoice i ON i.c_invoice_id = il.c_invoice_id
     WHERE mi.m_inoutline_id = m.m_inoutline_id AND mi.reversal_id IS NULL AND i.docstatus IN ('CO', 'CL')), 0))::text AS open
  FROM m_matchpo m JOIN m_inoutline sl ON sl.m_inoutline_id = m.m_inoutline_id JOIN m_inout s ON s.m_inout_id = sl.m_inout_id
 WHERE m.c_orderline_id = $1 AND m.c_invoiceline_id IS NULL AND m.reversal_id IS NULL AND m.qty > 0 AND s.docstatus IN ('CO', 'CL')
 ORDER BY m.m_matchpo_id`;

/** The invoice line's own match meets receipt lines not invoiced yet: M_MatchInv for what each still holds, up to `qty`. */
async function matchUninvoicedReceipts(q: Queryable, orderLineId: number, lineId: number, qty: Decimal, s: Stamp): Promise<number[]> {
  const created: number[] = [];
  let left = qty;
  const { rows } = await q.query<{ m_inoutline_id: number; open: string }>(UNINVOICED_RECEIPTS_SQL, [orderLineId], { name: 'doc_match_uninvoiced_receipts' });
  for (const r of rows) {
    if (compare(r.open, 0) <= 0) continue;
    const take = compare(r.open, left) >= 0 ? left : dec(r.open);
    const mi = await matchInvoiceWithReceipt(q, lineId, Number(r.m_inoutline_id), take, s);
    if (mi !== null) created.push(mi);
    left = sub(left, take);
    if (compare(left, 0) <= 0) break;
  }
  return created;
}

// ---------------------------------------------------------------- limits

const MATCHED_SQL = `SELECT ol.line, o.documentno, ol.qtyordered::text AS ordered,
    COALESCE((SELECT sum(m.qty) FROM m_matchpo m WHERE m.c_orderline_id = ol.c_orderline_id AND m.m_inoutline_id IS NOT NULL AND m.reversal_id IS NULL), 0)::text AS received,
    COALESCE((SELECT sum(m.qty) FROM m_matchpo m WHERE m.c_orderline_id = ol.c_orderline_id AND m.c_invoiceline_id IS NOT NULL AND m.reversal_id IS NULL), 0)::text AS invoiced
  FROM c_orderline ol JOIN c_order o ON o.c_order_id = ol.c_order_id
 WHERE ol.c_orderline_id = ANY($1::bigint[]) AND ol.qtyordered > 0 ORDER BY ol.line`;

/** Refuses when the receipts or the invoices matched with an order line add up to more than it ordered (as the original's MMatchPO). */
async function refuseOverMatching(q: Queryable, orderLineIds: number[]): Promise<void> {
  if (!orderLineIds.length) return;
  const { rows } = await q.query<{ line: number; documentno: string; ordered: string; received: string; invoiced: string }>(MATCHED_SQL, [orderLineIds], { name: 'doc_match_po_limits' });
  for (const r of rows) {
    for (const [what, qty] of [
      ['received', r.received],
      ['invoiced', r.invoiced],
    ] as const) {
      if (compare(qty, r.ordered) > 0) {
        throw refuse(`line ${r.line} of purchase order ${r.documentno} would have ${toText(dec(qty))} ${what}, more than the ${toText(dec(r.ordered))} ordered`);
      }
    }
  }
}
