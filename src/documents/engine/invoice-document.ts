import { add, sub, toNumber, toText, ZERO, type Decimal } from '../decimal.js';
import { insertRecord } from '../../records/write/persist.js';
import { INVOICE } from '../document-kinds.js';
import { nowTimestamp, todayDate } from '../row-values.js';
import { accountSchema, postFacts, postReversingFacts, type Fact } from '../accounting/facts.js';
import { allocateLandedCosts } from '../landedcost/allocate.js';
import { landedCostFacts } from '../landedcost/landed-cost-facts.js';
import { reverseLandedCosts } from '../landedcost/landed-cost-reversal.js';
import { chargeAccountSql } from '../accounting/charge-account.js';
import { current, definiteNumberAndDate, docId, docTypeOf, requireLines, requireOpenPeriod, accrualOnVoid, noReactivation, type DocTypeRow } from './common.js';
import type { DocumentContext, DocumentType } from './document-type.js';
import { recomputeTotals } from './recompute.js';
import { createReversal } from './reversal.js';
import { matchInvoice } from './matching.js';
import { reverseInvoiceMatches } from './match-reversal.js';
import { postMatchInvoiceReversals, postMatchInvoices } from './match-posting.js';
import { runDocumentAction } from './engine.js';
import { INVOICE_SENSE_SQL } from './settlement.js';

interface PostingFacts {
  lines: { id: number; product: number | null; item: boolean | null; charge: number | null; chargeAccount: number | null; net: string; qty: string }[];
  taxes: { tax: number; amt: string; due: number | null; credit: number | null }[];
}

/**
 * The account of a line's charge when the line has a charge and no product, as the original's
 * DocLine.getAccount: a product line keeps its product's accounts, a charge without accounts the
 * default ones.
 */
const CHARGE_ACCOUNT_SQL = (line: string) =>
  `CASE WHEN ${line}.c_charge_id IS NOT NULL AND COALESCE(${line}.m_product_id, 0) = 0 THEN ${chargeAccountSql(`${line}.c_charge_id`, `${line}.ad_client_id`)} END`;

const FACTS_SQL = `SELECT
    (SELECT COALESCE(json_agg(json_build_object('id', l.c_invoiceline_id, 'product', l.m_product_id, 'charge', l.c_charge_id, 'net', l.linenetamt::text,
        'qty', l.qtyinvoiced::text, 'chargeAccount', ${CHARGE_ACCOUNT_SQL('l')}, 'item', (SELECT p.producttype = 'I' FROM m_product p WHERE p.m_product_id = l.m_product_id)) ORDER BY l.line), '[]'::json)
       FROM c_invoiceline l WHERE l.c_invoice_id = $1) AS lines,
    (SELECT COALESCE(json_agg(json_build_object('tax', t.c_tax_id, 'amt', t.taxamt::text,
        'due', (SELECT v.account_id FROM c_tax_acct ta JOIN c_validcombination v ON v.c_validcombination_id = ta.t_due_acct WHERE ta.c_tax_id = t.c_tax_id LIMIT 1),
        'credit', (SELECT v.account_id FROM c_tax_acct ta JOIN c_validcombination v ON v.c_validcombination_id = ta.t_credit_acct WHERE ta.c_tax_id = t.c_tax_id LIMIT 1))
        ORDER BY t.c_tax_id), '[]'::json) FROM c_invoicetax t WHERE t.c_invoice_id = $1) AS taxes`;

const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

/**
 * Facts of an invoice. Customer invoice: receivable (grand total) against revenue per line and tax
 * due per tax. Vendor invoice: inventory clearing (items, until their matches with receipts move
 * them to not-invoiced receipts and invoice price variance) or expense (charges, services) per
 * line and tax credit per tax against the liability. A charge line posts to its charge's account
 * instead (credited on a customer invoice, debited on a vendor invoice). Credit memos take the
 * other sides.
 */
/** Posts the completed invoice; `landedCosts`: whether its lines' landed costs were just distributed. */
async function post(d: DocumentContext, periodId: number, landedCosts: boolean): Promise<DocTypeRow | null> {
  const { rows } = await d.wc.tx.query<{ lines: unknown; taxes: unknown }>(FACTS_SQL, [docId(d)], { name: 'doc_invoice_facts' });
  const f: PostingFacts = { lines: json(rows[0]?.lines ?? '[]'), taxes: json(rows[0]?.taxes ?? '[]') };
  const dt = await docTypeOf(d);
  const base = dt?.docbasetype ?? (d.row.issotrx === 'Y' ? 'ARI' : 'API');
  const sales = base.startsWith('AR');
  const credit = base.endsWith('C');
  const included = d.row.istaxincluded === 'Y';
  const facts: Fact[] = [];
  let taxTotal: Decimal = ZERO;
  for (const t of f.taxes) taxTotal = add(taxTotal, t.amt);
  let total: Decimal = ZERO;
  // A vendor invoice's landed cost lines post their allocations instead (and cost them).
  const landed = sales || credit || !landedCosts ? new Map<number, Fact[]>() : await landedCostFacts(d, await accountSchema(d), current(d, 'dateacct'));
  for (const l of f.lines) {
    total = add(total, l.net);
    const allocated = landed.get(l.id);
    if (allocated) {
      facts.push(...allocated);
      continue;
    }
    const account = l.chargeAccount ?? (sales ? 'p_revenue_acct' : l.product && l.item ? 'p_inventoryclearing_acct' : 'p_expense_acct');
    facts.push({ account, lineId: l.id, productId: l.product, qty: l.qty, [sales ? 'cr' : 'dr']: l.net });
  }
  // Tax-included prices: the tax is inside the line amounts, so the first revenue or expense fact gives it up.
  if (included && facts[0]) {
    const side = sales ? 'cr' : 'dr';
    facts[0][side] = sub(facts[0][side] ?? 0, taxTotal);
  } else total = add(total, taxTotal);
  for (const t of f.taxes) facts.push({ account: (sales ? t.due : t.credit) ?? (sales ? 't_due_acct' : 't_credit_acct'), taxId: t.tax, [sales ? 'cr' : 'dr']: t.amt });
  facts.push({ account: sales ? 'c_receivable_acct' : 'v_liability_acct', [sales ? 'dr' : 'cr']: total });
  if (credit) for (const x of facts) [x.dr, x.cr] = [x.cr, x.dr];
  await postFacts(d, {
    dateAcct: current(d, 'dateacct'),
    dateTrx: current(d, 'dateinvoiced'),
    periodId,
    currencyId: Number(d.row.c_currency_id),
    bpartnerId: Number(d.row.c_bpartner_id),
    glCategoryId: dt?.gl_category_id ?? null,
    facts,
  });
  return dt;
}

/** Order lines' invoiced quantity follows the invoice lines: a credit memo takes back (negative lines for a reversal). */
async function markInvoiced(d: DocumentContext, invoiceId: number): Promise<void> {
  const credit = (await docTypeOf(d))?.docbasetype.endsWith('C') === true;
  await d.wc.tx.query(
    `WITH s AS (SELECT c_orderline_id, sum(qtyinvoiced) AS qty FROM c_invoiceline WHERE c_invoice_id = $1 AND c_orderline_id IS NOT NULL GROUP BY c_orderline_id)
     UPDATE c_orderline o SET qtyinvoiced = o.qtyinvoiced + s.qty * $4, updated = $2::timestamp, updatedby = $3 FROM s WHERE o.c_orderline_id = s.c_orderline_id`,
    [invoiceId, nowTimestamp(), d.wc.auth.userId, credit ? -1 : 1],
    { name: 'doc_invoice_orderlines' },
  );
}

/**
 * The completed allocations of an invoice are reversed with it (by accrual with an accrual), as
 * the original's MInvoice.reverseCorrectIt does: its payments are unallocated again, its credit
 * memos open again.
 */
async function reverseAllocations(d: DocumentContext, accrual: boolean): Promise<void> {
  const { rows } = await d.wc.tx.query<{ id: number }>(
    `SELECT DISTINCT h.c_allocationhdr_id AS id FROM c_allocationhdr h JOIN c_allocationline l ON l.c_allocationhdr_id = h.c_allocationhdr_id
      WHERE l.c_invoice_id = $1 AND h.docstatus IN ('CO', 'CL') ORDER BY 1`,
    [docId(d)],
    { name: 'doc_invoice_allocations' },
  );
  for (const r of rows) await runDocumentAction(d.wc, 'c_allocationhdr', String(r.id), accrual ? 'RA' : 'RC');
}

/**
 * The original settles a reversed invoice with its reversal by an allocation of two lines (the
 * invoice's grand total in its sense, and the same negated), completed without facts.
 */
async function allocateWithReversal(d: DocumentContext, reversalId: number, date: unknown): Promise<void> {
  const { rows } = await d.wc.tx.query<{ amount: string }>(`SELECT (i.grandtotal * ${INVOICE_SENSE_SQL('i')})::text AS amount FROM c_invoice i WHERE i.c_invoice_id = $1`, [docId(d)]);
  const amount = rows[0]?.amount ?? '0';
  const table = d.wc.dict.byName.get('c_allocationhdr')!;
  const line = (invoice: number, value: string) => ({ AD_Org_ID: d.row.ad_org_id, C_Invoice_ID: invoice, C_BPartner_ID: d.row.c_bpartner_id, Amount: value });
  const created = await insertRecord(d.wc, table, {
    AD_Org_ID: d.row.ad_org_id,
    C_Currency_ID: d.row.c_currency_id,
    DateTrx: date,
    DateAcct: date,
    Description: `Invoice ${String(d.row.documentno)}/${String(d.row.documentno)}^`,
    C_AllocationLine: [line(docId(d), amount), line(reversalId, toText(sub(0, amount)))],
  });
  await d.wc.deferred.flush();
  await runDocumentAction(d.wc, table, String(created.row.c_allocationhdr_id), 'CO');
}

async function reverse(d: DocumentContext, accrual: boolean): Promise<void> {
  const date = accrual ? todayDate() : d.row.dateacct;
  const periodId = await requireOpenPeriod({ ...d, row: { ...d.row, dateacct: date } });
  await reverseAllocations(d, accrual);
  const reversalId = await createReversal(
    d,
    [
      { table: 'c_invoiceline', link: 'c_invoice_id', negate: ['qtyinvoiced', 'qtyentered', 'linenetamt', 'taxamt', 'linetotalamt'] },
      { table: 'c_invoicetax', link: 'c_invoice_id', negate: ['taxbaseamt', 'taxamt'] },
    ],
    ['totallines', 'grandtotal'],
    date,
  );
  await markInvoiced(d, reversalId);
  const matches = await reverseInvoiceMatches(d.wc.tx, docId(d), date, d.wc.auth.userId);
  await postReversingFacts(d, docId(d), reversalId, date, periodId);
  await reverseLandedCosts(d, reversalId, date, periodId);
  await postMatchInvoiceReversals(d, matches, date, periodId);
  await d.wc.tx.query(`UPDATE c_invoice SET posted = 'Y', c_payment_id = NULL WHERE c_invoice_id = $1`, [reversalId]);
  await allocateWithReversal(d, reversalId, date);
  d.changes.ispaid = 'Y';
  d.changes.c_payment_id = null;
  d.messages.push(`Reversal ${String(d.row.documentno)}^`);
}

/**
 * Customer and vendor invoices and credit memos: complete posts receivable or liability against
 * revenue, inventory clearing or expense and taxes, counts the invoiced quantities on the order
 * lines and matches vendor invoices with receipts and purchase orders (posting the matches); the
 * open amount is the grand total less the allocations (IsPaid when none is left); a completed
 * invoice is voided or reversed by a reversal invoice.
 */
export const invoiceDocument: DocumentType = {
  table: 'c_invoice',
  refusal: noReactivation,
  details: [
    { table: 'c_invoiceline', link: 'c_invoice_id' },
    { table: 'c_invoicetax', link: 'c_invoice_id' },
  ],

  async prepare(d) {
    await requireOpenPeriod(d);
    await requireLines(d, 'c_invoiceline');
    d.changes.c_doctype_id = d.row.c_doctypetarget_id;
  },

  async complete(d) {
    await definiteNumberAndDate(d, 'dateinvoiced');
    const periodId = await requireOpenPeriod(d);
    await markInvoiced(d, docId(d));
    const kind = (await docTypeOf(d))?.docbasetype ?? (d.row.issotrx === 'Y' ? 'ARI' : 'API');
    const invoice = { id: docId(d), sales: kind.startsWith('AR'), credit: kind.endsWith('C'), taxIncluded: d.row.istaxincluded === 'Y' };
    const landedCosts = await allocateLandedCosts(d.wc.tx, invoice, d.wc.auth.userId);
    const dt = await post(d, periodId, landedCosts);
    // Matched after posting: the invoice matches it writes post against the invoice's facts.
    if (d.row.issotrx === 'N') {
      const origin = { userId: d.wc.auth.userId, dateTrx: current(d, 'dateinvoiced'), dateAcct: current(d, 'dateacct'), documentNo: String(current(d, 'documentno') ?? '') };
      const matched = await matchInvoice(d.wc.tx, docId(d), dt?.docbasetype ?? 'API', origin);
      await postMatchInvoices(d, matched, dt?.docbasetype ?? null, dt?.gl_category_id ?? null);
    }
    d.changes.ispaid = toNumber(d.row.grandtotal as number) === 0 ? 'Y' : 'N';
    return 'CO';
  },

  async void(d) {
    if (d.row.docstatus === 'CO') return reverse(d, await accrualOnVoid(d));
    await d.wc.tx.query(
      `UPDATE c_invoiceline SET description = btrim(COALESCE(description, '') || ' Voided (' || qtyinvoiced::text || ')'),
              qtyinvoiced = 0, qtyentered = 0, linenetamt = 0, taxamt = 0, linetotalamt = 0, updated = $2::timestamp, updatedby = $3 WHERE c_invoice_id = $1`,
      [docId(d), nowTimestamp(), d.wc.auth.userId],
    );
    await recomputeTotals(d, INVOICE);
    d.changes.ispaid = 'Y';
  },

  async close() {},

  reverseCorrect: (d) => reverse(d, false),
  reverseAccrual: (d) => reverse(d, true),
};
