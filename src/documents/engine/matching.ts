import type { Queryable } from '../../db/types.js';
import { compare, dec, isZero, sub, toText, type Decimal } from '../decimal.js';
import { nowTimestamp } from '../row-values.js';
import { refuse } from './document-type.js';

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

/** What the matches written by a completing document take from it. */
export interface MatchOrigin {
  userId: number;
  /** The completing document's transaction date, accounting date and number. */
  dateTrx: unknown;
  dateAcct: unknown;
  documentNo: string;
}

interface Stamp extends MatchOrigin {
  now: string;
  side: 'receipt' | 'invoice';
}

interface MatchPORow {
  m_matchpo_id: number;
  qty: string;
  m_inoutline_id: number | null;
  c_invoiceline_id: number | null;
  /** The receipt line the invoice line of the match names itself, if any. */
  invoice_names: number | null;
  invoice_unreceived: string | null;
}

interface Candidate {
  id: number;
  qty: Decimal;
  inoutLineId: number | null;
  invoiceLineId: number | null;
  invoiceNames: number | null;
  /** What of the match's invoice line no receipt line is matched with yet (M_MatchInv). */
  invoiceUnreceived: Decimal;
}

const id = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

const CANDIDATES_SQL = `SELECT m.m_matchpo_id, m.qty::text AS qty, m.m_inoutline_id, m.c_invoiceline_id, il.m_inoutline_id AS invoice_names,
    (il.qtyinvoiced - COALESCE((SELECT sum(mi.qty) FROM m_matchinv mi
                   WHERE mi.c_invoiceline_id = il.c_invoiceline_id AND mi.reversal_id IS NULL AND mi.m_inoutline_id IS DISTINCT FROM $2::bigint), 0))::text AS invoice_unreceived
  FROM m_matchpo m LEFT JOIN c_invoiceline il ON il.c_invoiceline_id = m.c_invoiceline_id
 WHERE m.c_orderline_id = $1 AND m.reversal_id IS NULL AND m.qty > 0 ORDER BY m.m_matchpo_id`;

/**
 * The order line's matches that may take a receipt or invoice line (the original's not-matched
 * list), oldest first; what their invoice lines have not received leaves out the receipt line
 * being matched (its own invoice match is written just before).
 */
async function candidates(q: Queryable, orderLineId: number, receiptLineId: number | null = null): Promise<Candidate[]> {
  const { rows } = await q.query<MatchPORow>(CANDIDATES_SQL, [orderLineId, receiptLineId], { name: 'doc_match_po_candidates' });
  return rows.map((r) => ({
    id: Number(r.m_matchpo_id),
    qty: dec(r.qty),
    inoutLineId: id(r.m_inoutline_id),
    invoiceLineId: id(r.c_invoiceline_id),
    invoiceNames: id(r.invoice_names),
    invoiceUnreceived: dec(r.invoice_unreceived ?? 0),
  }));
}

const INSERT_MATCH_INV = `INSERT INTO m_matchinv (m_matchinv_id, m_matchinv_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
    m_inoutline_id, c_invoiceline_id, m_product_id, m_attributesetinstance_id, datetrx, dateacct, qty, processed, posted, documentno)
  SELECT nextval('m_matchinv_sq'), gen_random_uuid()::text, il.ad_client_id, il.ad_org_id, 'Y', $4::timestamp, $5::bigint, $4::timestamp, $5::bigint,
    sl.m_inoutline_id, il.c_invoiceline_id, il.m_product_id, COALESCE(NULLIF(il.m_attributesetinstance_id, 0), sl.m_attributesetinstance_id),
    $6::timestamp, GREATEST(CASE WHEN $8::text = 'invoice' THEN $7::timestamp ELSE i.dateacct END, CASE WHEN $8::text = 'receipt' THEN $7::timestamp ELSE s.dateacct END),
    $3::numeric, 'Y', 'N', $9::text
    FROM c_invoiceline il JOIN c_invoice i ON i.c_invoice_id = il.c_invoice_id
    CROSS JOIN m_inoutline sl JOIN m_inout s ON s.m_inout_id = sl.m_inout_id
   WHERE il.c_invoiceline_id = $1::bigint AND sl.m_inoutline_id = $2::bigint
     AND NOT EXISTS (SELECT 1 FROM m_matchinv m WHERE m.c_invoiceline_id = il.c_invoiceline_id AND m.m_inoutline_id = sl.m_inoutline_id)
  RETURNING m_matchinv_id`;

/**
 * The M_MatchInv of an invoice line and a receipt line, unless they have one: dated by the later
 * accounting date of both documents. Returns the new row's id.
 */
async function matchInvoiceWithReceipt(q: Queryable, invoiceLineId: number, inoutLineId: number, qty: Decimal, s: Stamp): Promise<number | null> {
  const { rows } = await q.query<{ m_matchinv_id: number }>(
    INSERT_MATCH_INV,
    [invoiceLineId, inoutLineId, toText(qty), s.now, s.userId, s.dateTrx, s.dateAcct, s.side, s.documentNo],
    { name: 'doc_match_inv_insert' },
  );
  return rows[0] ? Number(rows[0].m_matchinv_id) : null;
}

/** The difference of the order's and the invoice's price for the quantity, when both are in the same currency (the original's PriceMatchDifference). */
const PRICE_DIFFERENCE = (orderLine: string, invoiceLine: string, qty: string) => `(SELECT (pol.priceactual - pil.priceactual) * ${qty}
    FROM c_orderline pol JOIN c_order po ON po.c_order_id = pol.c_order_id, c_invoiceline pil JOIN c_invoice pi ON pi.c_invoice_id = pil.c_invoice_id
   WHERE pol.c_orderline_id = ${orderLine} AND pil.c_invoiceline_id = ${invoiceLine} AND pi.c_currency_id = po.c_currency_id)`;

const INSERT_MATCH_PO = `INSERT INTO m_matchpo (m_matchpo_id, m_matchpo_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
    c_orderline_id, m_inoutline_id, c_invoiceline_id, m_product_id, m_attributesetinstance_id, datetrx, dateacct, qty, processed, posted, isapproved,
    documentno, pricematchdifference)
  SELECT nextval('m_matchpo_sq'), gen_random_uuid()::text, ol.ad_client_id, $5::bigint, 'Y', $8::timestamp, $9::bigint, $8::timestamp, $9::bigint,
    ol.c_orderline_id, $2::bigint, $3::bigint, $6::bigint, $7::bigint, $10::timestamp, $11::timestamp, $4::numeric, 'Y', 'N', 'Y', $12::text,
    ${PRICE_DIFFERENCE('ol.c_orderline_id', '$3::bigint', '$4::numeric')}
    FROM c_orderline ol WHERE ol.c_orderline_id = $1`;

interface LineFacts {
  orgId: number;
  productId: number;
  asiId: number | null;
}

async function insertMatchPO(q: Queryable, orderLineId: number, inoutLineId: number | null, invoiceLineId: number | null, qty: Decimal, line: LineFacts, s: Stamp): Promise<void> {
  await q.query(
    INSERT_MATCH_PO,
    [orderLineId, inoutLineId, invoiceLineId, toText(qty), line.orgId, line.productId, line.asiId, s.now, s.userId, s.dateTrx, s.dateAcct, s.documentNo],
    { name: 'doc_match_po_insert' },
  );
}

/** A match of an invoice line takes a receipt line too (dated by the receipt, as the original). */
async function addReceiptLine(q: Queryable, matchId: number, inoutLineId: number, s: Stamp): Promise<void> {
  await q.query(`UPDATE m_matchpo SET m_inoutline_id = $2, dateacct = $3::timestamp, updated = $4::timestamp, updatedby = $5 WHERE m_matchpo_id = $1`, [matchId, inoutLineId, s.dateAcct, s.now, s.userId], {
    name: 'doc_match_po_add_receipt',
  });
}

/** A match of a receipt line takes an invoice line too. */
async function addInvoiceLine(q: Queryable, matchId: number, invoiceLineId: number, s: Stamp): Promise<void> {
  await q.query(
    `UPDATE m_matchpo m SET c_invoiceline_id = $2, pricematchdifference = ${PRICE_DIFFERENCE('m.c_orderline_id', '$2::bigint', 'm.qty')}, updated = $3::timestamp, updatedby = $4
      WHERE m.m_matchpo_id = $1`,
    [matchId, invoiceLineId, s.now, s.userId],
    { name: 'doc_match_po_add_invoice' },
  );
}

/** Takes `qty` off a match (it goes to a new one); a match left with nothing is removed. */
async function reduceMatch(q: Queryable, matchId: number, qty: Decimal, s: Stamp): Promise<void> {
  await q.query(`UPDATE m_matchpo SET qty = qty - $2::numeric, updated = $3::timestamp, updatedby = $4 WHERE m_matchpo_id = $1`, [matchId, toText(qty), s.now, s.userId], { name: 'doc_match_po_reduce' });
  await q.query(`DELETE FROM m_matchpo WHERE m_matchpo_id = $1 AND qty = 0`, [matchId], { name: 'doc_match_po_empty' });
}

/** Of two quantities of the same sign, the one nearer to zero (what both documents hold); null when their signs differ. */
function common(a: Decimal, b: Decimal): Decimal | null {
  if (compare(a, 0) !== compare(b, 0)) return null;
  return compare(a, 0) >= 0 ? (compare(a, b) <= 0 ? a : b) : compare(a, b) >= 0 ? a : b;
}

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

// ---------------------------------------------------------------- reversals

/** A reversed M_MatchInv and its reversal, for posting. */
export interface MatchInvReversal {
  original: number;
  reversal: number;
  posted: boolean;
}

/**
 * Reversal copies of the matches (of `table`) whose `lineColumn` is a line of the document: a copy
 * with negated quantity dated `date`, each pointing at the other through Reversal_ID, as the
 * original's match reverse. Returns the pairs.
 */
async function reverseRows(q: Queryable, table: 'm_matchinv' | 'm_matchpo', lineColumn: 'm_inoutline_id' | 'c_invoiceline_id', lineIds: string, headerId: number, date: unknown, userId: number) {
  const cols = table === 'm_matchinv' ? 'm_inoutline_id, c_invoiceline_id' : 'c_orderline_id, m_inoutline_id, c_invoiceline_id, isapproved, pricematchdifference';
  const { rows } = await q.query<{ original: number; reversal: number; posted: string }>(
    `WITH src AS (
       SELECT m.*, nextval('${table}_sq') AS new_id FROM ${table} m WHERE m.${lineColumn} IN (${lineIds}) AND m.reversal_id IS NULL),
     ins AS (
       INSERT INTO ${table} (${table}_id, ${table}_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, ${cols},
         m_product_id, m_attributesetinstance_id, datetrx, dateacct, qty, processed, posted, documentno, description, reversal_id)
       SELECT new_id, gen_random_uuid()::text, ad_client_id, ad_org_id, 'Y', $3::timestamp, $4, $3::timestamp, $4, ${cols},
         m_product_id, m_attributesetinstance_id, $2::timestamp, $2::timestamp, -qty, 'Y', 'N', documentno || '^', description, ${table}_id FROM src ORDER BY ${table}_id)
     UPDATE ${table} m SET reversal_id = src.new_id, updated = $3::timestamp, updatedby = $4 FROM src WHERE m.${table}_id = src.${table}_id
     RETURNING m.${table}_id AS original, src.new_id AS reversal, m.posted`,
    [headerId, date, nowTimestamp(), userId],
  );
  return rows.map((r) => ({ original: Number(r.original), reversal: Number(r.reversal), posted: r.posted === 'Y' }));
}

const RECEIPT_LINE_IDS = 'SELECT l.m_inoutline_id FROM m_inoutline l WHERE l.m_inout_id = $1';
const INVOICE_LINE_IDS = 'SELECT l.c_invoiceline_id FROM c_invoiceline l WHERE l.c_invoice_id = $1';

/**
 * Reversing a receipt reverses the matches of its lines; what of them was invoiced goes back to
 * the invoice line's own match (added to an open one of the same invoice line, else a new one),
 * so the order line stays invoiced, as the original's MMatchPO.reverse.
 */
export async function reverseReceiptMatches(q: Queryable, inoutId: number, date: unknown, userId: number): Promise<MatchInvReversal[]> {
  const reversed = await reverseRows(q, 'm_matchinv', 'm_inoutline_id', RECEIPT_LINE_IDS, inoutId, date, userId);
  const pos = await reverseRows(q, 'm_matchpo', 'm_inoutline_id', RECEIPT_LINE_IDS, inoutId, date, userId);
  const now = nowTimestamp();
  for (const { original } of pos) {
    const { rows } = await q.query(
      `UPDATE m_matchpo o SET qty = o.qty + r.qty, updated = $2::timestamp, updatedby = $3
         FROM m_matchpo r
        WHERE r.m_matchpo_id = $1 AND r.c_invoiceline_id IS NOT NULL
          AND o.m_matchpo_id = (SELECT x.m_matchpo_id FROM m_matchpo x WHERE x.c_invoiceline_id = r.c_invoiceline_id AND x.c_orderline_id = r.c_orderline_id
                                   AND x.m_inoutline_id IS NULL AND x.reversal_id IS NULL AND x.posted = 'N' ORDER BY x.m_matchpo_id LIMIT 1)
       RETURNING o.m_matchpo_id`,
      [original, now, userId],
    );
    if (rows.length) continue;
    await q.query(
      `INSERT INTO m_matchpo (m_matchpo_id, m_matchpo_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
         c_orderline_id, c_invoiceline_id, m_product_id, m_attributesetinstance_id, datetrx, dateacct, qty, processed, posted, isapproved, documentno, pricematchdifference)
       SELECT nextval('m_matchpo_sq'), gen_random_uuid()::text, r.ad_client_id, r.ad_org_id, 'Y', $2::timestamp, $3, $2::timestamp, $3,
         r.c_orderline_id, r.c_invoiceline_id, r.m_product_id, r.m_attributesetinstance_id, r.datetrx, r.dateacct, r.qty, 'Y', 'N', r.isapproved, r.documentno, r.pricematchdifference
         FROM m_matchpo r WHERE r.m_matchpo_id = $1 AND r.c_invoiceline_id IS NOT NULL`,
      [original, now, userId],
    );
  }
  return reversed;
}

/**
 * Reversing a vendor invoice reverses the M_MatchInv of its lines; its purchase order matches are
 * undone as the original does for matches not posted: one of the invoice line alone is removed,
 * one that also holds a receipt line keeps only the receipt line.
 */
export async function reverseInvoiceMatches(q: Queryable, invoiceId: number, date: unknown, userId: number): Promise<MatchInvReversal[]> {
  const reversed = await reverseRows(q, 'm_matchinv', 'c_invoiceline_id', INVOICE_LINE_IDS, invoiceId, date, userId);
  await q.query(`DELETE FROM m_matchpo WHERE c_invoiceline_id IN (${INVOICE_LINE_IDS}) AND m_inoutline_id IS NULL AND reversal_id IS NULL`, [invoiceId]);
  await q.query(
    `UPDATE m_matchpo SET c_invoiceline_id = NULL, pricematchdifference = NULL, updated = $2::timestamp, updatedby = $3
      WHERE c_invoiceline_id IN (${INVOICE_LINE_IDS}) AND reversal_id IS NULL`,
    [invoiceId, nowTimestamp(), userId],
  );
  return reversed;
}

// ---------------------------------------------------------------- demo

/**
 * Matches of the demo's completed purchase documents (for databases created before matching), as
 * the rules above give them: M_MatchInv for the invoice lines naming receipt lines, one M_MatchPO
 * per receipt line holding the invoice line of the same quantity that names it, one per invoice
 * line of an order line otherwise.
 */
export async function addDemoMatches(q: Queryable): Promise<void> {
  const now = new Date().toISOString();
  const done = `IN ('CO', 'CL')`;
  await q.query(
    `INSERT INTO m_matchinv (m_matchinv_id, m_matchinv_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
       m_inoutline_id, c_invoiceline_id, m_product_id, m_attributesetinstance_id, datetrx, dateacct, qty, processed, posted, documentno)
     SELECT nextval('m_matchinv_sq'), gen_random_uuid()::text, il.ad_client_id, il.ad_org_id, 'Y', $1::timestamp, 100, $1::timestamp, 100,
       sl.m_inoutline_id, il.c_invoiceline_id, il.m_product_id, COALESCE(il.m_attributesetinstance_id, sl.m_attributesetinstance_id),
       GREATEST(i.dateacct, s.dateacct), GREATEST(i.dateacct, s.dateacct), LEAST(il.qtyinvoiced, sl.movementqty), 'Y', 'N', i.documentno
       FROM c_invoiceline il JOIN c_invoice i ON i.c_invoice_id = il.c_invoice_id
       JOIN m_inoutline sl ON sl.m_inoutline_id = il.m_inoutline_id JOIN m_inout s ON s.m_inout_id = sl.m_inout_id
      WHERE i.issotrx = 'N' AND s.issotrx = 'N' AND i.docstatus ${done} AND s.docstatus ${done} AND il.m_product_id IS NOT NULL AND il.qtyinvoiced > 0
        AND NOT EXISTS (SELECT 1 FROM m_matchinv m WHERE m.c_invoiceline_id = il.c_invoiceline_id AND m.m_inoutline_id = sl.m_inoutline_id)
      ORDER BY il.c_invoiceline_id`,
    [now],
  );
  const columns = `m_matchpo_id, m_matchpo_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
       c_orderline_id, m_inoutline_id, c_invoiceline_id, m_product_id, m_attributesetinstance_id, datetrx, dateacct, qty, processed, posted, isapproved, documentno`;
  await q.query(
    `INSERT INTO m_matchpo (${columns})
     SELECT nextval('m_matchpo_sq'), gen_random_uuid()::text, sl.ad_client_id, sl.ad_org_id, 'Y', $1::timestamp, 100, $1::timestamp, 100,
       sl.c_orderline_id, sl.m_inoutline_id, il.c_invoiceline_id, sl.m_product_id, sl.m_attributesetinstance_id, s.dateacct, s.dateacct, sl.movementqty, 'Y', 'N', 'Y', s.documentno
       FROM m_inoutline sl JOIN m_inout s ON s.m_inout_id = sl.m_inout_id
       LEFT JOIN LATERAL (SELECT x.c_invoiceline_id FROM c_invoiceline x JOIN c_invoice i ON i.c_invoice_id = x.c_invoice_id
                           WHERE x.m_inoutline_id = sl.m_inoutline_id AND x.c_orderline_id = sl.c_orderline_id AND x.qtyinvoiced = sl.movementqty
                             AND i.issotrx = 'N' AND i.docstatus ${done} ORDER BY x.c_invoiceline_id LIMIT 1) il ON true
      WHERE s.issotrx = 'N' AND s.movementtype = 'V+' AND s.docstatus ${done} AND sl.c_orderline_id IS NOT NULL AND sl.m_product_id IS NOT NULL AND sl.movementqty > 0
        AND NOT EXISTS (SELECT 1 FROM m_matchpo m WHERE m.m_inoutline_id = sl.m_inoutline_id)
      ORDER BY sl.m_inoutline_id`,
    [now],
  );
  await q.query(
    `INSERT INTO m_matchpo (${columns})
     SELECT nextval('m_matchpo_sq'), gen_random_uuid()::text, il.ad_client_id, il.ad_org_id, 'Y', $1::timestamp, 100, $1::timestamp, 100,
       il.c_orderline_id, NULL, il.c_invoiceline_id, il.m_product_id, il.m_attributesetinstance_id, i.dateacct, i.dateacct, il.qtyinvoiced, 'Y', 'N', 'Y', i.documentno
       FROM c_invoiceline il JOIN c_invoice i ON i.c_invoice_id = il.c_invoice_id
      WHERE i.issotrx = 'N' AND i.docstatus ${done} AND il.c_orderline_id IS NOT NULL AND il.m_product_id IS NOT NULL AND il.qtyinvoiced > 0
        AND NOT EXISTS (SELECT 1 FROM m_matchpo m WHERE m.c_invoiceline_id = il.c_invoiceline_id)
      ORDER BY il.c_invoiceline_id`,
    [now],
  );
}

/**
 * Databases matched before one M_MatchPO held both a receipt line and an invoice line have, for
 * such a pair, the invoice's match (which named the receipt line) and the receipt's own: the
 * receipt's copy goes, so that the order line's matches add up to what it received.
 */
export async function mergeDoubleMatches(q: Queryable): Promise<void> {
  await q.query(
    `DELETE FROM m_matchpo r
      WHERE r.c_invoiceline_id IS NULL AND r.m_inoutline_id IS NOT NULL AND r.reversal_id IS NULL
        AND EXISTS (SELECT 1 FROM m_matchpo c WHERE c.m_inoutline_id = r.m_inoutline_id AND c.c_orderline_id = r.c_orderline_id
                      AND c.c_invoiceline_id IS NOT NULL AND c.reversal_id IS NULL AND c.qty = r.qty)`,
  );
}
