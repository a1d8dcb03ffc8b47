import type { Queryable } from '../../db/types.js';
import { convertedSql } from '../accounting/conversion.js';
import { INVOICE_SENSE_SQL, OPEN_AMOUNT_SQL, PAYMENT_SENSE_SQL, UNALLOCATED_SQL } from '../engine/settlement.js';
import { readAccountSchema, type DefaultAccount } from '../accounting/facts.js';
import { text, type Violation } from './violation.js';

/** The accounts a partner's open items are held on, by what they hold (the default accounts documents post to). */
const ACCOUNTS: Record<string, DefaultAccount> = {
  receivable: 'c_receivable_acct',
  liability: 'v_liability_acct',
  'unallocated receipts': 'b_unallocatedcash_acct',
  'payment selection': 'b_paymentselect_acct',
};

/** Allocation lines of completed (or reversed) allocations naming a document: each may round a cent of a document in another currency. */
const ALLOCATIONS = (link: string, id: string) => `(SELECT count(*) FROM c_allocationline al
      JOIN c_allocationhdr ah ON ah.c_allocationhdr_id = al.c_allocationhdr_id AND ah.docstatus IN ('CO', 'CL', 'RE', 'VO')
     WHERE al.${link} = ${id})`;

/**
 * A cash journal's transfer payment (the bank side of a transfer line, as the original's MCash):
 * information only, closed and allocated without allocation; the journal posts its money.
 */
export const CASH_TRANSFER = (alias: string) => `EXISTS (SELECT 1 FROM c_cashline cl WHERE cl.c_payment_id = ${alias}.c_payment_id AND cl.cashtype = 'T')`;

/**
 * For every partner and account (receivables, liabilities, unallocated receipts, payment
 * selection): what its documents leave open, against its balance in Fact_Acct, in the schema's
 * currency. A completed invoice counts its open amount in its ledger sign (the allocation sense:
 * customer invoices and vendor credit memos debit, customer credit memos and vendor invoices
 * credit); a completed payment (not a charge payment) its unallocated amount, a receipt as a
 * credit of unallocated receipts, a payment as a debit of payment selection (a cash journal's
 * transfer payment not: it posts nothing of its own). A document in another currency is
 * converted at its own accounting date and conversion type; since its facts move by
 * shares of what it posted, it may differ by a cent for its posting and for each allocation of it
 * while it is partly open (nothing once it is settled).
 */
const PARTNER_BALANCES_SQL = `WITH s AS (
    SELECT $2::bigint AS schema_id, $3::bigint AS currency_id,
           (SELECT COALESCE(c.stdprecision, 2) FROM c_currency c WHERE c.c_currency_id = $3)::int AS precision
  ), accounts AS (
    SELECT * FROM unnest($4::text[], $5::bigint[]) AS a(kind, account_id)
  ), docs AS (
    SELECT i.c_bpartner_id, CASE WHEN i.issotrx = 'Y' THEN 'receivable' ELSE 'liability' END AS kind, i.c_currency_id, i.c_conversiontype_id, i.dateacct,
           ${INVOICE_SENSE_SQL('i')} * (${OPEN_AMOUNT_SQL('i')}) AS amount, ${ALLOCATIONS('c_invoice_id', 'i.c_invoice_id')} AS allocations
      FROM c_invoice i WHERE i.ad_client_id = $1 AND i.docstatus IN ('CO', 'CL')
    UNION ALL
    SELECT p.c_bpartner_id, CASE WHEN p.isreceipt = 'Y' THEN 'unallocated receipts' ELSE 'payment selection' END, p.c_currency_id, p.c_conversiontype_id, p.dateacct,
           -${PAYMENT_SENSE_SQL('p')} * (${UNALLOCATED_SQL('p')}), ${ALLOCATIONS('c_payment_id', 'p.c_payment_id')}
      FROM c_payment p WHERE p.ad_client_id = $1 AND p.docstatus IN ('CO', 'CL') AND p.c_charge_id IS NULL AND NOT ${CASH_TRANSFER('p')}
  ), converted AS (
    SELECT d.*, ${convertedSql('d.amount', 'd.c_currency_id', 's.currency_id', 'd.c_conversiontype_id', 'd.dateacct', '$1')} AS acct,
           CASE WHEN d.c_currency_id <> s.currency_id AND d.amount <> 0 THEN (1 + d.allocations) * power(10::numeric, -s.precision) ELSE 0 END AS tolerance
      FROM docs d CROSS JOIN s
  ), expected AS (
    SELECT COALESCE(c_bpartner_id, 0) AS partner, kind, sum(acct) AS amount, sum(tolerance) AS tolerance, bool_or(acct IS NULL) AS no_rate
      FROM converted GROUP BY 1, 2
  ), ledger AS (
    SELECT COALESCE(f.c_bpartner_id, 0) AS partner, a.kind, sum(f.amtacctdr - f.amtacctcr) AS amount
      FROM fact_acct f JOIN accounts a ON a.account_id = f.account_id CROSS JOIN s
     WHERE f.ad_client_id = $1 AND f.c_acctschema_id = s.schema_id AND f.postingtype = 'A'
     GROUP BY 1, 2
  )
  SELECT COALESCE(e.partner, l.partner) AS partner, COALESCE(e.kind, l.kind) AS kind,
         COALESCE(e.amount, 0)::text AS expected, COALESCE(l.amount, 0)::text AS actual, COALESCE(e.tolerance, 0)::text AS tolerance, COALESCE(e.no_rate, false) AS no_rate
    FROM expected e FULL JOIN ledger l ON l.partner = e.partner AND l.kind = e.kind
   WHERE abs(COALESCE(e.amount, 0) - COALESCE(l.amount, 0)) > COALESCE(e.tolerance, 0) OR COALESCE(e.no_rate, false)
   ORDER BY 1, 2`;

/** (b) Every partner's open items equal its balances on the receivables, liabilities, unallocated receipts and payment selection accounts. */
export async function partnerBalanceDifferences(q: Queryable, clientId: number): Promise<Violation[]> {
  const schema = await readAccountSchema(q, clientId);
  if (!schema) return [];
  const kinds = Object.keys(ACCOUNTS) as (keyof typeof ACCOUNTS)[];
  const accounts = kinds.map((k) => schema.accounts[ACCOUNTS[k]] ?? null);
  const { rows } = await q.query<{ partner: number; kind: string; expected: string; actual: string; tolerance: string; no_rate: boolean }>(PARTNER_BALANCES_SQL, [
    clientId,
    schema.schemaId,
    schema.currencyId,
    kinds,
    accounts,
  ]);
  return rows.map((r) => ({
    check: 'partner-balance',
    subject: { partner: Number(r.partner) || null, account: r.kind },
    expected: text(r.expected),
    actual: text(r.actual),
    detail: r.no_rate
      ? `a document of the partner has no conversion rate to the schema's currency`
      : `open items ${r.expected}, ${r.kind} balance ${r.actual} (debit minus credit; rounding allowed ${r.tolerance})`,
  }));
}
