import type { Queryable } from '../../db/types.js';
import { add, compare, isZero, toText, ZERO, type Decimal, type DecimalInput, dec } from '../decimal.js';
import { idOf, nowTimestamp } from '../row-values.js';
import { conversionRate, convertAmounts } from './conversion.js';
import { refuse, type DocumentContext } from '../engine/document-type.js';
import { docId } from '../engine/common.js';

/** Default account columns of C_AcctSchema_Default that documents post to. */
export type DefaultAccount =
  | 'c_receivable_acct'
  | 'v_liability_acct'
  | 'p_revenue_acct'
  | 'p_asset_acct'
  | 'p_cogs_acct'
  | 'p_expense_acct'
  | 'notinvoicedreceipts_acct'
  | 'p_inventoryclearing_acct'
  | 'p_invoicepricevariance_acct'
  | 'p_averagecostvariance_acct'
  | 'p_costadjustment_acct'
  | 'p_landedcostclearing_acct'
  | 'b_asset_acct'
  | 'b_intransit_acct'
  | 'b_unallocatedcash_acct'
  | 'b_paymentselect_acct'
  | 't_due_acct'
  | 't_credit_acct'
  | 'paydiscount_exp_acct'
  | 'paydiscount_rev_acct'
  | 'writeoff_acct'
  | 'realizedgain_acct'
  | 'realizedloss_acct';

export interface AccountSchema {
  schemaId: number;
  currencyId: number;
  /** Default account column → C_ElementValue_ID (Fact_Acct.Account_ID). */
  accounts: Record<string, number>;
}

/** One fact to post: an account (a default account, or an element value id) with a debit or a credit. */
export interface Fact {
  account: DefaultAccount | number;
  dr?: DecimalInput;
  cr?: DecimalInput;
  lineId?: number | null;
  productId?: number | null;
  taxId?: number | null;
  qty?: DecimalInput;
  description?: string;
  /** The fact's organization when it is not the document's (a statement's bank facts take the bank account's). */
  orgId?: number;
  /** The fact's partner when it is not the posting's (an allocation names one per line). */
  bpartnerId?: number | null;
  /** The fact's source currency when it is not the posting's (a correction in the schema's currency). */
  currencyId?: number;
  /** Accounted amounts worked out by the caller; without them the source amounts are converted at the posting's rate. */
  accounted?: { dr?: DecimalInput; cr?: DecimalInput };
}

export interface Posting {
  /** The document's date of accounting and of transaction. */
  dateAcct: unknown;
  dateTrx?: unknown;
  periodId: number;
  /** The document's currency; the schema's when the document has none (shipments). */
  currencyId?: number | null;
  bpartnerId?: number | null;
  glCategoryId?: number | null;
  facts: Fact[];
}

const schemaSql = (client: string): string => `SELECT d.c_acctschema_id, s.c_currency_id,
    (SELECT json_object_agg(k.key, v.account_id) FROM jsonb_each_text(to_jsonb(d)) k
       JOIN c_validcombination v ON v.c_validcombination_id = k.value::bigint
      WHERE k.key LIKE '%\\_acct' AND k.value ~ '^[0-9]+$') AS accounts
  FROM c_acctschema_default d JOIN c_acctschema s ON s.c_acctschema_id = d.c_acctschema_id
 WHERE d.ad_client_id = ${client} AND d.isactive = 'Y' ORDER BY d.c_acctschema_id LIMIT 1`;
const SCHEMA_SQL = schemaSql('$1');

type SchemaRow = { c_acctschema_id: number; c_currency_id: number; accounts: unknown };

const schemaOf = (r: SchemaRow): AccountSchema => ({
  schemaId: Number(r.c_acctschema_id),
  currencyId: Number(r.c_currency_id),
  accounts: typeof r.accounts === 'string' ? (JSON.parse(r.accounts) as Record<string, number>) : ((r.accounts ?? {}) as Record<string, number>),
});

/** A client's accounting schema with its default accounts, or null when it has none. */
export async function readAccountSchema(q: Queryable, clientId: number): Promise<AccountSchema | null> {
  const { rows } = await q.query<SchemaRow>(SCHEMA_SQL, [clientId], { name: 'doc_acct_schema' });
  return rows[0] ? schemaOf(rows[0]) : null;
}

/**
 * A scalar of SQL: the accounting schema of the client `client` (an SQL expression) as JSON, null
 * without one, so that a statement of a document that will post reads it with what it reads anyway
 * (see keepAccountSchema).
 */
export const accountSchemaJsonSql = (client: string): string => `(SELECT row_to_json(x) FROM (${schemaSql(client)}) x)`;

/** Keeps for the operation the document's client's schema as accountSchemaJsonSql read it: accountSchema then reads nothing. */
export function keepAccountSchema(d: DocumentContext, json: unknown): void {
  const r = (typeof json === 'string' ? JSON.parse(json) : json) as SchemaRow | null;
  d.wc.memo.set('c_acctschema_default', schemaKey(Number(d.row.ad_client_id)), r ? schemaOf(r) : null);
}

const schemaKey = (clientId: number): string => `schema:${clientId}`;

/** The client's accounting schema with its default accounts (refused when it has none). */
export async function accountSchema(d: DocumentContext): Promise<AccountSchema> {
  const clientId = Number(d.row.ad_client_id);
  const found = await d.wc.memo.get('c_acctschema_default', schemaKey(clientId), () => readAccountSchema(d.wc.tx, clientId));
  if (!found) throw refuse('the client has no accounting schema with default accounts');
  return found;
}

/** Sums of a posting's debits and credits. */
export function totals(facts: readonly { dr?: DecimalInput; cr?: DecimalInput }[]): { dr: Decimal; cr: Decimal } {
  let dr: Decimal = ZERO;
  let cr: Decimal = ZERO;
  for (const f of facts) {
    dr = add(dr, f.dr ?? 0);
    cr = add(cr, f.cr ?? 0);
  }
  return { dr, cr };
}

const isZeroFact = (f: Fact): boolean => isZero(f.dr ?? 0) && isZero(f.cr ?? 0) && isZero(f.accounted?.dr ?? 0) && isZero(f.accounted?.cr ?? 0);

/**
 * Writes the facts of a document (PostingType A, AD_Table_ID + Record_ID) in one statement and
 * marks it Posted. Facts of zero amount are left out; a posting whose debits and credits differ
 * is refused, so that every document's facts balance: the source amounts of the facts it
 * converts, and the accounted amounts of all.
 */
export async function postFacts(d: DocumentContext, p: Posting, recordId = docId(d)): Promise<void> {
  const facts = p.facts.filter((f) => !isZeroFact(f));
  const toConvert = facts.filter((f) => !f.accounted);
  const sum = totals(toConvert);
  if (compare(sum.dr, sum.cr) !== 0) throw refuse(`accounting facts do not balance (debit ${toText(sum.dr)}, credit ${toText(sum.cr)})`);
  if (d.table.byName.has('posted')) d.changes.posted = 'Y';
  if (!facts.length) return;
  const schema = await accountSchema(d);
  const currencyId = p.currencyId ?? schema.currencyId;
  const converted = await accountedAmounts(d, toConvert, currencyId, schema.currencyId, p.dateAcct);
  const accounted = facts.map((f, i) => {
    if (f.accounted) return { dr: dec(f.accounted.dr ?? 0), cr: dec(f.accounted.cr ?? 0) };
    return converted ? converted[toConvert.length === facts.length ? i : toConvert.indexOf(f)]! : { dr: dec(f.dr ?? 0), cr: dec(f.cr ?? 0) };
  });
  const acct = totals(accounted);
  if (compare(acct.dr, acct.cr) !== 0) throw refuse(`accounted facts do not balance (debit ${toText(acct.dr)}, credit ${toText(acct.cr)})`);
  // One array per column that varies by fact, unnested in order, all in one JSON parameter: a few
  // parameters whatever the number of facts, which PostgreSQL binds and plans far faster than a
  // VALUES row per fact, and JSON.stringify writes far faster than the driver writes array parameters.
  const cols = { org: [] as unknown[], currency: [] as unknown[], partner: [] as unknown[], account: [] as number[], dr: [] as string[], cr: [] as string[], acctDr: [] as string[], acctCr: [] as string[], line: [] as unknown[], product: [] as unknown[], tax: [] as unknown[], qty: [] as (string | null)[], description: [] as (string | null)[] };
  facts.forEach((f, i) => {
    const account = typeof f.account === 'number' ? f.account : schema.accounts[f.account];
    if (!account) throw refuse(`the accounting schema has no ${f.account}`);
    cols.org.push(f.orgId === undefined ? d.row.ad_org_id : f.orgId);
    cols.currency.push(f.currencyId === undefined ? currencyId : f.currencyId);
    cols.partner.push(f.bpartnerId === undefined ? (p.bpartnerId ?? null) : f.bpartnerId);
    cols.account.push(account);
    const dr = toText(f.dr ?? 0);
    const cr = toText(f.cr ?? 0);
    cols.dr.push(dr);
    cols.cr.push(cr);
    // Not converted, the accounted amounts are the source amounts: their texts are made once.
    const same = !f.accounted && !converted;
    cols.acctDr.push(same ? dr : toText(accounted[i]!.dr));
    cols.acctCr.push(same ? cr : toText(accounted[i]!.cr));
    cols.line.push(f.lineId ?? null);
    cols.product.push(f.productId ?? null);
    cols.tax.push(f.taxId ?? null);
    cols.qty.push(f.qty === undefined ? null : toText(f.qty));
    cols.description.push(f.description ?? null);
  });
  // A fixed text whatever the facts: prepared once per connection.
  await d.wc.tx.query(
    `INSERT INTO fact_acct (fact_acct_id, fact_acct_uu, ad_client_id, ad_org_id, c_acctschema_id, ad_table_id, record_id, c_period_id, dateacct, datetrx,
       c_currency_id, gl_category_id, c_bpartner_id, account_id, amtsourcedr, amtsourcecr, amtacctdr, amtacctcr, line_id, m_product_id, c_tax_id, qty,
       description, postingtype, isactive, created, createdby, updated, updatedby)
     SELECT nextval('fact_acct_sq'), gen_random_uuid()::text, $1, f.org, $2, $3, $4, $5, $6::timestamp, $7::timestamp,
       f.currency, $8, f.partner, f.account, f.dr, f.cr, f.acctdr, f.acctcr, f.line, f.product, f.tax, f.qty, f.description, 'A', 'Y', $9::timestamp, $10, $9::timestamp, $10
       FROM json_to_record($11::json) AS c(org bigint[], currency bigint[], partner bigint[], account bigint[], dr numeric[], cr numeric[], "acctDr" numeric[], "acctCr" numeric[],
                                            line bigint[], product bigint[], tax bigint[], qty numeric[], description text[]),
            unnest(c.org, c.currency, c.partner, c.account, c.dr, c.cr, c."acctDr", c."acctCr", c.line, c.product, c.tax, c.qty, c.description)
         AS f(org, currency, partner, account, dr, cr, acctdr, acctcr, line, product, tax, qty, description)`,
    [
      d.row.ad_client_id, schema.schemaId, d.table.id, recordId, p.periodId, p.dateAcct, p.dateTrx ?? p.dateAcct, p.glCategoryId ?? 0, nowTimestamp(), d.wc.auth.userId,
      JSON.stringify(cols),
    ],
    { name: 'doc_post_facts' },
  );
}

/**
 * Accounted amounts of facts in another currency than the schema's, converted at the rate of the
 * accounting date (null when the currencies are the same); no rate refuses the action.
 */
async function accountedAmounts(d: DocumentContext, facts: readonly Fact[], from: number, to: number, dateAcct: unknown): Promise<{ dr: Decimal; cr: Decimal }[] | null> {
  if (from === to) return null;
  const typeId = d.table.byName.has('c_conversiontype_id') ? idOf(d.row.c_conversiontype_id) : null;
  const found = await conversionRate(d.wc.tx, from, to, typeId, dateAcct, d.row.ad_client_id);
  if ('missing' in found) throw refuse(found.missing);
  return convertAmounts(facts.map((f) => ({ dr: f.dr ?? 0, cr: f.cr ?? 0 })), found.rate);
}

/**
 * Posts the reversal of a document's facts: the same accounts and sides with negated amounts,
 * under `recordId` (the reversal document, or the document itself when it is voided in place)
 * and the reversal's date and period.
 */
export async function postReversingFacts(d: DocumentContext, originalId: number, recordId: number, dateAcct: unknown, periodId: number): Promise<void> {
  await d.wc.tx.query(
    `INSERT INTO fact_acct (fact_acct_id, fact_acct_uu, ad_client_id, ad_org_id, c_acctschema_id, ad_table_id, record_id, c_period_id, dateacct, datetrx,
       c_currency_id, gl_category_id, c_bpartner_id, account_id, amtsourcedr, amtsourcecr, amtacctdr, amtacctcr, line_id, m_product_id, c_tax_id, qty,
       description, postingtype, isactive, created, createdby, updated, updatedby)
     SELECT nextval('fact_acct_sq'), gen_random_uuid()::text, f.ad_client_id, f.ad_org_id, f.c_acctschema_id, f.ad_table_id, $3, $4, $5::timestamp, $5::timestamp,
       f.c_currency_id, f.gl_category_id, f.c_bpartner_id, f.account_id, -f.amtsourcedr, -f.amtsourcecr, -f.amtacctdr, -f.amtacctcr, f.line_id, f.m_product_id,
       f.c_tax_id, -f.qty, f.description, f.postingtype, 'Y', $6::timestamp, $7, $6::timestamp, $7
       FROM fact_acct f WHERE f.ad_table_id = $1 AND f.record_id = $2 ORDER BY f.fact_acct_id`,
    [d.table.id, originalId, recordId, periodId, dateAcct, nowTimestamp(), d.wc.auth.userId],
    { name: 'doc_post_reversing_facts' },
  );
  if (d.table.byName.has('posted')) d.changes.posted = 'Y';
}

/** Removes the facts of a document (an order's void or reactivation, as the original). */
export async function deleteFacts(d: DocumentContext): Promise<void> {
  await d.wc.tx.query('DELETE FROM fact_acct WHERE ad_table_id = $1 AND record_id = $2', [d.table.id, docId(d)]);
  if (d.table.byName.has('posted')) d.changes.posted = 'N';
}
