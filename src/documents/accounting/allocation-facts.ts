import { add, compare, dec, div, isZero, mul, round, sub, toText, ZERO, type Decimal, type DecimalInput } from '../decimal.js';
import { refuse, type DocumentContext } from '../engine/document-type.js';
import type { SettlementLine } from '../engine/allocation-lines.js';
import { accountSchema, type AccountSchema, type DefaultAccount, type Fact } from './facts.js';
import { conversionRate } from './conversion.js';

/** A fact of an allocation with the document whose account it moves (for the exchange differences). */
interface AllocationFact extends Fact {
  of?: { kind: 'invoice' | 'payment'; id: number };
}

const neg = (x: DecimalInput): Decimal => sub(0, x);

/** A fact of `amount` on `account`: a debit, or a credit of the negated amount when `side` is 'cr'. */
const fact = (account: DefaultAccount | number, side: 'dr' | 'cr', amount: DecimalInput, rest: Omit<AllocationFact, 'account'>): AllocationFact => ({ account, [side]: amount, ...rest });

/** Unallocated cash for receipts, payment selection for payments (the original's getPaymentAcct). */
const paymentAccount = (receipt: boolean): DefaultAccount => (receipt ? 'b_unallocatedcash_acct' : 'b_paymentselect_acct');
const partnerAccount = (sales: boolean): DefaultAccount => (sales ? 'c_receivable_acct' : 'v_liability_acct');

/**
 * Facts of one line in the allocation's currency, as the original's Doc_AllocationHdr posts them
 * (amounts in its sign convention: customer invoices and receipts positive, vendor invoices and
 * payments negative):
 * - customer invoice: the payment's account Dr Amount, discount expense Dr DiscountAmt, write-off
 *   Dr WriteOffAmt, receivable Cr the sum;
 * - vendor invoice: liability Dr -(the sum), discount revenue Cr -DiscountAmt, write-off Cr
 *   -WriteOffAmt, the payment's account Cr -Amount;
 * - a payment without invoice: its account Dr Amount.
 * Every fact names the line's partner, the receivable or liability the invoice's.
 */
export function lineFacts(l: SettlementLine): AllocationFact[] {
  const lineId = l.id;
  const bpartnerId = l.bpartnerId;
  const base = { lineId, bpartnerId };
  const pay = l.payment;
  const paymentOf = pay ? { kind: 'payment' as const, id: pay.id } : undefined;
  // What pays: the payment's account, or a cash journal line's cash transfer account (the original's getCashAcct).
  const payer = pay ? paymentAccount(pay.receipt) : (l.cash?.account ?? null);
  if (!l.invoice) return payer !== null ? [fact(payer, 'dr', l.amount, { ...base, of: paymentOf })] : [];
  const inv = l.invoice;
  const settled = add(add(l.amount, l.discount), l.writeoff);
  const invoiceOf = { kind: 'invoice' as const, id: inv.id };
  if (inv.sales) {
    return [
      ...(payer !== null ? [fact(payer, 'dr', l.amount, { ...base, of: paymentOf })] : []),
      fact('paydiscount_exp_acct', 'dr', l.discount, base),
      fact('writeoff_acct', 'dr', l.writeoff, base),
      fact('c_receivable_acct', 'cr', settled, { ...base, bpartnerId: inv.bpartnerId, of: invoiceOf }),
    ];
  }
  return [
    fact('v_liability_acct', 'dr', neg(settled), { ...base, bpartnerId: inv.bpartnerId, of: invoiceOf }),
    fact('paydiscount_rev_acct', 'cr', neg(l.discount), base),
    fact('writeoff_acct', 'cr', neg(l.writeoff), base),
    ...(payer !== null ? [fact(payer, 'cr', neg(l.amount), { ...base, of: paymentOf })] : []),
  ];
}

/** Debit minus credit. */
const balance = (x: { dr?: DecimalInput; cr?: DecimalInput } | undefined): Decimal => sub(x?.dr ?? 0, x?.cr ?? 0);

/**
 * Accounted amounts of the line facts: in the schema's currency at once, else converted at the
 * allocation's accounting date with the line's conversion type (its payment's, else its
 * invoice's), each rounded to the schema currency's precision.
 */
async function account(d: DocumentContext, schema: AccountSchema, lines: readonly SettlementLine[], facts: AllocationFact[], dateAcct: unknown): Promise<void> {
  const currencyId = Number(d.row.c_currency_id);
  const rates = new Map<string, { multiply: string; precision: number }>();
  for (const l of lines) {
    const own = facts.filter((f) => f.lineId === l.id);
    if (currencyId === schema.currencyId) {
      for (const f of own) f.accounted = { dr: f.dr ?? 0, cr: f.cr ?? 0 };
      continue;
    }
    const typeId = l.payment ? l.payment.conversionTypeId : (l.invoice?.conversionTypeId ?? null);
    const key = String(typeId);
    if (!rates.has(key)) {
      const found = await conversionRate(d.wc.tx, currencyId, schema.currencyId, typeId, dateAcct, d.row.ad_client_id);
      if ('missing' in found) throw refuse(found.missing);
      rates.set(key, found.rate);
    }
    const rate = rates.get(key)!;
    for (const f of own) f.accounted = { dr: round(mul(f.dr ?? 0, rate.multiply), rate.precision), cr: round(mul(f.cr ?? 0, rate.multiply), rate.precision) };
  }
}

interface DocumentBalance {
  /** Debit minus credit of the document's own facts on the account, accounted. */
  own: string | null;
  /** Debit minus credit of other allocations' facts on it for this document, accounted. */
  allocated: string | null;
}

/** Other allocations' facts on a document's account, by the lines naming it (`link`); a reversal's facts keep the lines of what they reverse. */
const ALLOCATED_SQL = (link: 'c_invoice_id' | 'c_payment_id') => `(SELECT sum(f.amtacctdr - f.amtacctcr)::text FROM c_allocationline l
      JOIN c_allocationhdr h ON h.c_allocationhdr_id = l.c_allocationhdr_id
      JOIN fact_acct f ON f.ad_table_id = $7 AND f.record_id IN (h.c_allocationhdr_id, h.reversal_id) AND f.line_id = l.c_allocationline_id
     WHERE l.${link} = d.id AND h.c_allocationhdr_id <> $8 AND f.account_id = d.account AND f.c_acctschema_id = $6 AND f.postingtype = 'A')`;

const BALANCES_SQL = `SELECT d.kind, d.id, (SELECT COALESCE(c.stdprecision, 2) FROM c_currency c WHERE c.c_currency_id = $9)::int AS precision,
    (SELECT sum(f.amtacctdr - f.amtacctcr)::text FROM fact_acct f
      WHERE f.ad_table_id = CASE WHEN d.kind = 'invoice' THEN $4::bigint ELSE $5::bigint END AND f.record_id = d.id
        AND f.account_id = d.account AND f.c_acctschema_id = $6 AND f.postingtype = 'A') AS own,
    CASE WHEN d.kind = 'invoice' THEN ${ALLOCATED_SQL('c_invoice_id')} ELSE ${ALLOCATED_SQL('c_payment_id')} END AS allocated
  FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS d(kind, id, account)`;

/** What the invoices' and payments' accounts hold for them, and the decimals of the schema's currency. */
async function balances(
  d: DocumentContext,
  schema: AccountSchema,
  docs: { kind: 'invoice' | 'payment'; id: number; account: number }[],
): Promise<{ held: Map<string, DocumentBalance>; precision: number }> {
  const table = (name: string) => d.wc.dict.byName.get(name)!.id;
  const { rows } = await d.wc.tx.query<{ kind: string; id: number; precision: number; own: string | null; allocated: string | null }>(
    BALANCES_SQL,
    [docs.map((x) => x.kind), docs.map((x) => x.id), docs.map((x) => x.account), table('c_invoice'), table('c_payment'), schema.schemaId, d.table.id, Number(d.row.c_allocationhdr_id), schema.currencyId],
    { name: 'doc_allocation_balances' },
  );
  return { held: new Map(rows.map((r) => [`${r.kind}:${Number(r.id)}`, { own: r.own, allocated: r.allocated }])), precision: Number(rows[0]?.precision ?? 2) };
}

/** One invoice or payment of the allocation, with what this allocation settles of it. */
interface Settled {
  kind: 'invoice' | 'payment';
  id: number;
  documentno: string;
  account: DefaultAccount;
  /** Its total in its own currency (grand total, or payment amount). */
  total: Decimal;
  /** What this allocation settles of it in its own sense and currency. */
  settled: Decimal;
  /** Open before this allocation. */
  open: Decimal;
  lineId: number;
  bpartnerId: number | null;
}

function settledDocuments(lines: readonly SettlementLine[]): Settled[] {
  const out = new Map<string, Settled>();
  for (const l of lines) {
    if (l.invoice) {
      const i = l.invoice;
      const key = `invoice:${i.id}`;
      const s = out.get(key) ?? { kind: 'invoice', id: i.id, documentno: i.documentno, account: partnerAccount(i.sales), total: dec(i.grandTotal), settled: ZERO, open: dec(i.open), lineId: l.id, bpartnerId: i.bpartnerId };
      s.settled = add(s.settled, mul(i.sense, i.settled ?? 0));
      out.set(key, s);
    }
    if (l.payment) {
      const p = l.payment;
      const key = `payment:${p.id}`;
      const s = out.get(key) ?? { kind: 'payment', id: p.id, documentno: p.documentno, account: paymentAccount(p.receipt), total: dec(p.payAmt), settled: ZERO, open: dec(p.open), lineId: l.id, bpartnerId: l.bpartnerId };
      s.settled = add(s.settled, mul(p.sense, p.taken ?? 0));
      out.set(key, s);
    }
  }
  return [...out.values()];
}

/**
 * The gain or loss fact that offsets `amount` debited (positive) or credited (negative) elsewhere:
 * a credit to realized gain, or a debit to realized loss.
 */
function gainOrLoss(amount: Decimal, rest: Omit<AllocationFact, 'account'>): AllocationFact {
  const c = compare(amount, 0) > 0;
  const x = c ? amount : neg(amount);
  return { account: c ? 'realizedgain_acct' : 'realizedloss_acct', [c ? 'cr' : 'dr']: x, accounted: { [c ? 'cr' : 'dr']: x }, ...rest };
}

/**
 * Realized exchange differences, so that the allocation moves each invoice's receivable or
 * liability, and each payment's unallocated cash or payment selection, by exactly the share of
 * what the document itself posted: the settled share (in the document's currency) of its accounted
 * amount, or all that is left of it when this allocation settles the rest. The difference to the
 * converted facts goes to the document's account in the schema's currency against realized gain
 * (credit) or realized loss (debit), as the original's createInvoiceGainLoss and
 * createPaymentGainLoss; what rounding leaves goes to gain or loss too.
 */
async function exchangeDifferences(d: DocumentContext, schema: AccountSchema, lines: readonly SettlementLine[], facts: AllocationFact[]): Promise<AllocationFact[]> {
  const docs = settledDocuments(lines);
  const { held, precision } = await balances(
    d,
    schema,
    docs.map((x) => ({ kind: x.kind, id: x.id, account: schema.accounts[x.account]! })),
  );
  const out: AllocationFact[] = [];
  const inSchema = { currencyId: schema.currencyId };
  for (const doc of docs) {
    const h = held.get(`${doc.kind}:${doc.id}`);
    if (!h?.own || isZero(doc.total)) continue;
    const rest = sub(doc.open, doc.settled);
    const target = isZero(rest) ? neg(add(h.own, h.allocated ?? 0)) : round(neg(div(mul(h.own, doc.settled), doc.total, precision + 6)), precision);
    const moved = facts.filter((f) => f.of?.kind === doc.kind && f.of.id === doc.id).reduce((n, f) => add(n, balance(f.accounted)), ZERO);
    const difference = sub(target, moved);
    if (isZero(difference)) continue;
    const description = `Exchange difference of ${doc.kind} ${doc.documentno}`;
    const side = compare(difference, 0) > 0 ? 'dr' : 'cr';
    const x = side === 'dr' ? difference : neg(difference);
    out.push({ account: doc.account, [side]: x, accounted: { [side]: x }, lineId: doc.lineId, bpartnerId: doc.bpartnerId, description, of: { kind: doc.kind, id: doc.id }, ...inSchema });
    out.push(gainOrLoss(difference, { lineId: doc.lineId, bpartnerId: doc.bpartnerId, description, ...inSchema }));
  }
  // Rounding of the converted facts: the debits left over are a gain, the credits a loss. As the
  // original's balancing line, it has an accounted amount only, so the source amounts of each
  // currency still balance.
  let left = ZERO;
  for (const f of [...facts, ...out]) left = add(left, balance(f.accounted));
  if (!isZero(left)) out.push({ ...gainOrLoss(left, { bpartnerId: lines[lines.length - 1]?.bpartnerId ?? null, description: 'Currency rounding', ...inSchema }), dr: ZERO, cr: ZERO });
  return out;
}

/**
 * All facts of an allocation (see lineFacts), with their accounted amounts and the realized
 * exchange differences where the allocation, an invoice or a payment is in another currency than
 * the schema's. An allocation of an invoice with its reversal posts nothing, as the original.
 */
export async function allocationFacts(d: DocumentContext, lines: readonly SettlementLine[], dateAcct: unknown, reversalPair: boolean): Promise<Fact[]> {
  if (reversalPair) return [];
  const facts = lines.flatMap(lineFacts);
  let dr = ZERO;
  let cr = ZERO;
  for (const f of facts) {
    dr = add(dr, f.dr ?? 0);
    cr = add(cr, f.cr ?? 0);
  }
  if (compare(dr, cr) !== 0) throw refuse(`accounting facts do not balance (debit ${toText(dr)}, credit ${toText(cr)})`);
  const schema = await accountSchema(d);
  await account(d, schema, lines, facts, dateAcct);
  const foreign =
    Number(d.row.c_currency_id) !== schema.currencyId ||
    lines.some((l) => (l.invoice && Number(l.invoice.currencyId) !== schema.currencyId) || (l.payment && Number(l.payment.currencyId) !== schema.currencyId));
  const differences = foreign ? await exchangeDifferences(d, schema, lines, facts) : [];
  return [...facts, ...differences].map(({ of: _of, ...f }) => f);
}
