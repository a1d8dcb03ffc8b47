import { add, compare, div, isZero, mul, sub, ZERO, type Decimal } from '../decimal.js';
import { averagedSql, averageInVariance } from '../costing/match-cost.js';
import { nowTimestamp } from '../row-values.js';
import { accountSchema, postFacts, postReversingFacts, type Fact } from '../accounting/facts.js';
import { refuse, type DocumentContext } from './document-type.js';
import type { MatchInvReversal } from './match-reversal.js';
import { checkPeriod } from './period.js';

interface MatchInvFacts {
  m_matchinv_id: number;
  ad_org_id: number;
  /** The receipt line's organization and the match's attribute set instance: the cost key at levels O and B. */
  stock_org_id: number;
  asi_id: number;
  m_product_id: number;
  c_bpartner_id: number | null;
  qty: string;
  dateacct: unknown;
  datetrx: unknown;
  producttype: string;
  movementqty: string;
  movementtype: string;
  qtyinvoiced: string;
  docbasetype: string;
  /** The receipt line's balance on Not-invoiced Receipts (accounted, debit − credit). */
  received: string;
  /** The invoice line's balances by account (accounted, debit − credit). */
  invoiced: unknown;
  precision: number;
  /** Whether the product is costed by an averaging method in the schema. */
  averaged: boolean;
}

/**
 * A match with the facts of its receipt line on Not-invoiced Receipts and of its invoice line
 * (the product line's account: Inventory Clearing, or Not-invoiced Receipts for invoices posted
 * before matching posted), in the schema's currency.
 */
const FACTS_SQL = `SELECT mi.m_matchinv_id, mi.ad_org_id, sl.ad_org_id AS stock_org_id,
    COALESCE(NULLIF(mi.m_attributesetinstance_id, 0), sl.m_attributesetinstance_id, 0) AS asi_id, mi.m_product_id, i.c_bpartner_id, mi.qty::text AS qty, mi.dateacct, mi.datetrx,
    COALESCE(p.producttype, 'I') AS producttype, sl.movementqty::text AS movementqty, s.movementtype, il.qtyinvoiced::text AS qtyinvoiced,
    COALESCE(dt.docbasetype, 'API') AS docbasetype,
    (SELECT COALESCE(sum(f.amtacctdr - f.amtacctcr), 0) FROM fact_acct f
      WHERE f.ad_table_id = $2 AND f.record_id = s.m_inout_id AND f.line_id = sl.m_inoutline_id AND f.account_id = $4)::text AS received,
    (SELECT json_agg(json_build_object('account', x.account_id, 'amount', x.amount::text) ORDER BY x.account_id)
       FROM (SELECT f.account_id, sum(f.amtacctdr - f.amtacctcr) AS amount FROM fact_acct f
              WHERE f.ad_table_id = $3 AND f.record_id = i.c_invoice_id AND f.line_id = il.c_invoiceline_id AND f.c_tax_id IS NULL
              GROUP BY f.account_id) x) AS invoiced,
    (SELECT COALESCE(c.stdprecision, 2) FROM c_currency c WHERE c.c_currency_id = $5)::int AS precision,
    ${averagedSql('mi.m_product_id', '$6::bigint')} AS averaged
  FROM m_matchinv mi
  JOIN m_inoutline sl ON sl.m_inoutline_id = mi.m_inoutline_id JOIN m_inout s ON s.m_inout_id = sl.m_inout_id
  JOIN c_invoiceline il ON il.c_invoiceline_id = mi.c_invoiceline_id JOIN c_invoice i ON i.c_invoice_id = il.c_invoice_id
  LEFT JOIN c_doctype dt ON dt.c_doctype_id = COALESCE(NULLIF(i.c_doctypetarget_id, 0), i.c_doctype_id)
  LEFT JOIN m_product p ON p.m_product_id = mi.m_product_id
 WHERE mi.m_matchinv_id = ANY($1::bigint[]) ORDER BY mi.m_matchinv_id`;

const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

/** An amount as a debit when positive, else as a credit. */
const side = (amount: Decimal): Pick<Fact, 'dr' | 'cr'> => (compare(amount, 0) >= 0 ? { dr: amount } : { cr: sub(0, amount) });

/**
 * The facts of one match, as the original's Doc_MatchInv: Not-invoiced Receipts takes back the
 * receipt line's amount for the matched quantity and the invoice line's account gives back the
 * invoice line's amount for it; the difference (invoice − receipt, the invoice price variance) is
 * answered apart. A product that is not an item posts nothing (its invoice line posted to expense).
 */
function matchFacts(r: MatchInvFacts, nirAccount: number): { facts: Fact[]; variance: Decimal } {
  if (r.producttype !== 'I') return { facts: [], variance: ZERO };
  const qty = r.qty;
  const movement = r.movementtype.endsWith('-') ? sub(0, r.movementqty) : r.movementqty;
  const invoiced = r.docbasetype.endsWith('C') ? sub(0, r.qtyinvoiced) : r.qtyinvoiced;
  const productId = Number(r.m_product_id);
  const facts: Fact[] = [];
  let total: Decimal = ZERO;
  if (compare(movement, 0) !== 0) {
    const nir = div(mul(sub(0, r.received), qty), movement, r.precision);
    total = add(total, nir);
    facts.push({ account: nirAccount, productId, qty, ...side(nir) });
  }
  if (compare(invoiced, 0) !== 0) {
    for (const line of json<{ account: number; amount: string }[] | null>(r.invoiced) ?? []) {
      const amount = div(mul(sub(0, line.amount), qty), invoiced, r.precision);
      total = add(total, amount);
      facts.push({ account: Number(line.account), productId, qty: sub(0, qty), ...side(amount) });
    }
  }
  return { facts, variance: sub(0, total) };
}

/**
 * Where the variance goes: the part the stock covers (`covered`, averaging methods) to Product
 * Asset, as the original does for average costing; the rest to Invoice Price Variance (all of it
 * under standard costing).
 */
function varianceFacts(productId: number, variance: Decimal, covered: Decimal): Fact[] {
  const rest = sub(variance, covered);
  const facts: Fact[] = [];
  if (!isZero(covered)) facts.push({ account: 'p_asset_acct', productId, ...side(covered) });
  if (!isZero(rest) || isZero(covered)) facts.push({ account: 'p_invoicepricevariance_acct', productId, ...side(rest) });
  return facts;
}

/** The posting context of a match: the document's write context, under M_MatchInv. */
function matchContext(d: DocumentContext, orgId: unknown): DocumentContext {
  return { wc: d.wc, table: d.wc.dict.byName.get('m_matchinv')!, row: { ad_client_id: d.row.ad_client_id, ad_org_id: orgId }, action: d.action, changes: {}, messages: [] };
}

/**
 * Posts the facts of M_MatchInv rows (the caller marks them posted), the variance split by what
 * the stock covers (averaged into the cost under an averaging method), in the period `periodOf`
 * answers for each.
 */
async function postMatchRows(d: DocumentContext, ids: readonly number[], periodOf: (dateAcct: unknown) => Promise<number>, glCategoryOf: (id: number) => number | null): Promise<void> {
  const schema = await accountSchema(d);
  const nirAccount = schema.accounts.notinvoicedreceipts_acct;
  if (!nirAccount) throw refuse('the accounting schema has no notinvoicedreceipts_acct');
  const tables = d.wc.dict.byName;
  const { rows } = await d.wc.tx.query<MatchInvFacts>(FACTS_SQL, [ids, tables.get('m_inout')!.id, tables.get('c_invoice')!.id, nirAccount, schema.currencyId, schema.schemaId], { name: 'doc_match_inv_facts' });
  for (const r of rows) {
    const periodId = await periodOf(r.dateacct);
    const { facts, variance } = matchFacts(r, nirAccount);
    const matchInvId = Number(r.m_matchinv_id);
    if (facts.length) {
      const key = { productId: Number(r.m_product_id), orgId: Number(r.ad_org_id), stockOrgId: Number(r.stock_org_id), asiId: Number(r.asi_id) };
      const cover = { matchInvId, ...key, qty: r.qty, variance, dateAcct: r.dateacct };
      const covered = r.averaged && !isZero(variance) ? await averageInVariance(d.wc.tx, schema.schemaId, cover, d.wc.auth.userId, nowTimestamp()) : ZERO;
      facts.push(...varianceFacts(Number(r.m_product_id), variance, covered));
    }
    await postFacts(
      matchContext(d, r.ad_org_id),
      { dateAcct: r.dateacct, dateTrx: r.datetrx, periodId, currencyId: schema.currencyId, bpartnerId: r.c_bpartner_id, glCategoryId: glCategoryOf(matchInvId), facts },
      matchInvId,
    );
  }
}

const MARK_POSTED_SQL = `UPDATE m_matchinv SET posted = 'Y', updated = $2::timestamp WHERE m_matchinv_id = ANY($1::bigint[])`;

/**
 * Posts new M_MatchInv rows (written by the document `d` completing, whose base type decides the
 * period control of their accounting dates) and marks them Posted.
 */
export async function postMatchInvoices(d: DocumentContext, ids: readonly number[], docBaseType: string | null, glCategoryId: number | null): Promise<void> {
  if (!ids.length) return;
  const periodOf = async (dateAcct: unknown) => {
    const period = await checkPeriod(d.wc.tx, d.row.ad_client_id, dateAcct, docBaseType);
    if (!period.open) throw refuse(period.reason);
    return period.periodId;
  };
  await postMatchRows(d, ids, periodOf, () => glCategoryId);
  await d.wc.tx.query(MARK_POSTED_SQL, [ids, nowTimestamp()]);
}

/** Of the reversal matches, those of products costed by an averaging method, with the category of their originals' facts. */
const AVERAGED_REVERSALS_SQL = `SELECT mi.m_matchinv_id,
    (SELECT f.gl_category_id FROM fact_acct f WHERE f.ad_table_id = $2 AND f.record_id = mi.reversal_id ORDER BY f.fact_acct_id LIMIT 1) AS gl_category_id
  FROM m_matchinv mi WHERE mi.m_matchinv_id = ANY($1::bigint[]) AND ${averagedSql('mi.m_product_id', '$3::bigint')}`;

/**
 * Posts the reversals of posted matches in the reversal's period: under standard costing their
 * facts negated; under an averaging method posted anew for the negated quantity, so that the
 * variance leaves the cost only for what the stock still covers (the rest to Invoice Price
 * Variance) and the stock value stays equal to the asset account.
 */
export async function postMatchInvoiceReversals(d: DocumentContext, reversals: readonly MatchInvReversal[], dateAcct: unknown, periodId: number): Promise<void> {
  const posted = reversals.filter((r) => r.posted);
  if (!posted.length) return;
  const schema = await accountSchema(d);
  const matchTable = d.wc.dict.byName.get('m_matchinv')!.id;
  const { rows } = await d.wc.tx.query<{ m_matchinv_id: number; gl_category_id: number | null }>(
    AVERAGED_REVERSALS_SQL, [posted.map((r) => r.reversal), matchTable, schema.schemaId], { name: 'doc_match_inv_averaged_reversals' },
  );
  const averaged = new Map(rows.map((r) => [Number(r.m_matchinv_id), r.gl_category_id === null ? null : Number(r.gl_category_id)]));
  for (const r of posted) {
    if (averaged.has(r.reversal)) continue;
    await postReversingFacts(matchContext(d, d.row.ad_org_id), r.original, r.reversal, dateAcct, periodId);
  }
  const fresh = posted.filter((r) => averaged.has(r.reversal)).map((r) => r.reversal);
  if (fresh.length) await postMatchRows(d, fresh, async () => periodId, (id) => averaged.get(id) ?? null);
  await d.wc.tx.query(MARK_POSTED_SQL, [posted.map((r) => r.reversal), nowTimestamp()]);
}
