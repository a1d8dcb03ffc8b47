import { readPredicate } from '../../access/access.js';
import { SqlBuilder } from '../../db/sql.js';
import { badRequest } from '../../errors.js';
import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { add, compare, dec, div, mul, round, sub, toText, ZERO, type Decimal } from '../decimal.js';
import { convertedSql } from '../accounting/conversion.js';
import { OPEN_AMOUNT_SQL } from '../engine/settlement.js';
import { completedJournal, schemaAccount, schemaOfCall, type ProcessJournalLine } from './journal-of-process.js';

const INVOICE_TABLE_ID = 318;

export interface OpenItem {
  documentno: string;
  ad_org_id: number;
  c_bpartner_id: number;
  account_id: number;
  grandtotal: string;
  open: string;
  acct_dr: string;
  acct_cr: string;
  reval_dr: string | null;
  reval_cr: string | null;
}

/**
 * Open invoices in other currencies than the schema's, posted by the revaluation date, with the
 * receivable or payable fact of their grand total (an asset or liability account), its accounted
 * amounts and those amounts converted again at the revaluation date (as the original's
 * InvoiceNGL selects them).
 */
async function openItems(c: ProcessCall, schemaId: number, schemaCurrency: number, date: string, apar: string, currencyId: number | null, typeId: number | null) {
  const invoice = c.s.dictionary.current.byName.get('c_invoice')!;
  const sql = new SqlBuilder();
  const to = sql.param(schemaCurrency);
  const day = `${sql.param(date)}::timestamp`;
  const type = `${sql.param(typeId)}::bigint`;
  const client = sql.param(c.auth.clientId);
  const where = [
    `i.ad_client_id = ${client}`,
    `i.ispaid = 'N'`,
    `i.docstatus IN ('CO', 'CL')`,
    `i.dateacct <= ${day}`,
    `i.c_currency_id <> ${to}`,
    `fa.c_acctschema_id = ${sql.param(schemaId)}`,
    readPredicate(c.auth, invoice, 'i', sql),
  ];
  if (apar === 'R') where.push(`i.issotrx = 'Y'`);
  if (apar === 'P') where.push(`i.issotrx = 'N'`);
  if (currencyId !== null) where.push(`i.c_currency_id = ${sql.param(currencyId)}`);
  const { rows } = await c.tx.query<OpenItem>(
    `SELECT i.documentno, i.ad_org_id, i.c_bpartner_id, fa.account_id, i.grandtotal::text, (${OPEN_AMOUNT_SQL('i')})::text AS open,
        fa.amtacctdr::text AS acct_dr, fa.amtacctcr::text AS acct_cr,
        ${convertedSql('fa.amtsourcedr', 'i.c_currency_id', to, type, day, client)}::text AS reval_dr,
        ${convertedSql('fa.amtsourcecr', 'i.c_currency_id', to, type, day, client)}::text AS reval_cr
       FROM c_invoice i
       JOIN fact_acct fa ON fa.ad_table_id = ${INVOICE_TABLE_ID} AND fa.record_id = i.c_invoice_id AND fa.postingtype = 'A'
        AND (fa.amtsourcedr = i.grandtotal OR fa.amtsourcecr = i.grandtotal)
       JOIN c_elementvalue ev ON ev.c_elementvalue_id = fa.account_id AND ev.accounttype IN ('A', 'L')
      WHERE ${where.join(' AND ')}
      ORDER BY i.ad_org_id, i.dateacct, i.c_invoice_id`,
    sql.values,
  );
  return rows;
}

/** The first day of the period after the one holding a date. */
async function nextPeriodStart(c: ProcessCall, date: string): Promise<string> {
  const { rows } = await c.tx.query<{ day: string }>(
    `SELECT to_char(n.startdate, 'YYYY-MM-DD') AS day FROM c_period n
      WHERE n.ad_client_id = $1 AND n.isactive = 'Y' AND COALESCE(n.periodtype, 'S') = 'S'
        AND n.startdate > COALESCE((SELECT p.enddate FROM c_period p WHERE p.ad_client_id = $1 AND p.isactive = 'Y' AND COALESCE(p.periodtype, 'S') = 'S'
                                     AND p.startdate <= $2::timestamp AND p.enddate >= $2::timestamp ORDER BY p.startdate DESC LIMIT 1), $2::timestamp)
      ORDER BY n.startdate LIMIT 1`,
    [c.auth.clientId, date],
  );
  if (!rows[0]) throw badRequest('Invalid parameter', `No accounting period follows the one of ${date}: the revaluation cannot be reversed`);
  return rows[0].day;
}

/** The revaluation difference of one open item (pure), in proportion to its open share: positive raises its account's debit balance. */
export function difference(item: OpenItem, precision: number): Decimal {
  const share = compare(item.grandtotal, item.open) === 0 || compare(item.grandtotal, 0) === 0 ? dec(1) : div(item.open, item.grandtotal, 12);
  const dr = sub(item.reval_dr ?? item.acct_dr, item.acct_dr);
  const cr = sub(item.reval_cr ?? item.acct_cr, item.acct_cr);
  return round(mul(sub(dr, cr), share), precision);
}

/** A net difference as a journal line: a debit when positive, a credit when negative. */
export const amountLine = (net: Decimal): { dr: string; cr: string } => (compare(net, 0) > 0 ? { dr: toText(net), cr: '0' } : { dr: '0', cr: toText(sub(0, net)) });

/**
 * Invoice Not Realized Gain/Loss (the original's InvoiceNGL, "Currency Revaluation"): revalues the
 * open share of open invoices in other currencies at the rate of DateReval (conversion type
 * C_ConversionTypeReval_ID, else the default), receivables (APAR R), payables (P) or both (A),
 * of one currency or all. The differences go to the invoices' receivable and payable accounts in
 * a GL journal dated DateReval, against Unrealized Gain (credit) and Unrealized Loss (debit) of
 * the schema defaults, per organisation; the journal is completed, and reversed by a second one
 * on the first day of the next period.
 */
export async function invoiceRevaluation(c: ProcessCall): Promise<ProcessOutcome> {
  const schema = await schemaOfCall(c, c.tx);
  const dateParam = c.param('DateReval')?.value;
  const date = typeof dateParam === 'string' ? dateParam.slice(0, 10) : new Date().toISOString().slice(0, 10);
  const apar = String(c.param('APAR')?.value ?? 'A').toUpperCase();
  if (!['A', 'R', 'P'].includes(apar)) throw badRequest('Invalid parameter', `APAR must be A (all), R (receivables) or P (payables): ${apar}`);
  const currency = c.param('C_Currency_ID')?.value;
  const typeParam = c.param('C_ConversionTypeReval_ID')?.value;
  const typeId = typeof typeParam === 'number' ? typeParam : null;
  const docType = c.param('C_DocTypeReval_ID')?.value;
  const items = await openItems(c, schema.schemaId, schema.currencyId, date, apar, typeof currency === 'number' ? currency : null, typeId);
  const missing = items.find((i) => i.reval_dr === null || i.reval_cr === null);
  if (missing) throw badRequest('Invalid parameter', `No conversion rate on ${date} for invoice ${missing.documentno}`);
  const lines: ProcessJournalLine[] = [];
  const byOrg = new Map<number, { gain: Decimal; loss: Decimal }>();
  for (const item of items) {
    const net = difference(item, schema.precision);
    if (compare(net, 0) === 0) continue;
    const org = Number(item.ad_org_id);
    lines.push({ orgId: org, accountId: Number(item.account_id), ...amountLine(net), description: `Invoice ${item.documentno}`, bpartnerId: Number(item.c_bpartner_id) });
    const totals = byOrg.get(org) ?? { gain: ZERO, loss: ZERO };
    // A higher debit balance of a receivable, or a lower credit balance of a payable, is a gain.
    if (compare(net, 0) > 0) totals.gain = add(totals.gain, net);
    else totals.loss = add(totals.loss, sub(0, net));
    byOrg.set(org, totals);
  }
  if (!lines.length) return { summary: `No open invoice in another currency changes its value on ${date}` };
  const gainAccount = await schemaAccount(c.tx, schema.schemaId, 'c_acctschema_default', 'unrealizedgain_acct');
  const lossAccount = await schemaAccount(c.tx, schema.schemaId, 'c_acctschema_default', 'unrealizedloss_acct');
  for (const [org, t] of byOrg) {
    if (compare(t.gain, 0) !== 0) {
      if (gainAccount === null) throw badRequest('Invalid parameter', 'The accounting schema has no Unrealized Gain account (C_AcctSchema_Default.UnrealizedGain_Acct)');
      lines.push({ orgId: org, accountId: gainAccount, dr: '0', cr: toText(t.gain), description: 'Unrealized gain' });
    }
    if (compare(t.loss, 0) !== 0) {
      if (lossAccount === null) throw badRequest('Invalid parameter', 'The accounting schema has no Unrealized Loss account (C_AcctSchema_Default.UnrealizedLoss_Acct)');
      lines.push({ orgId: org, accountId: lossAccount, dr: toText(t.loss), cr: '0', description: 'Unrealized loss' });
    }
  }
  const orgId = lines[0]!.orgId;
  const docTypeId = typeof docType === 'number' ? docType : null;
  const journal = await completedJournal(c, { orgId, description: `Invoice Not Realized Gain/Loss ${date}`, dateAcct: date, docTypeId, conversionTypeId: typeId, lines });
  const reversalDate = await nextPeriodStart(c, date);
  const reversal = await completedJournal(c, {
    orgId,
    description: `Reversal of revaluation ${String(journal.documentno)} of ${date}`,
    dateAcct: reversalDate,
    docTypeId,
    conversionTypeId: typeId,
    reversalOf: Number(journal.gl_journal_id),
    lines: lines.map((l) => ({ ...l, dr: l.cr, cr: l.dr })),
  });
  const journalTable = c.s.dictionary.current.byName.get('gl_journal')!.id;
  c.log({ msg: `Revaluation ${String(journal.documentno)}`, tableId: journalTable, recordId: Number(journal.gl_journal_id) });
  c.log({ msg: `Reversal ${String(reversal.documentno)} on ${reversalDate}`, tableId: journalTable, recordId: Number(reversal.gl_journal_id) });
  const invoices = lines.filter((l) => l.bpartnerId).length;
  return { summary: `Revaluation ${String(journal.documentno)} of ${invoices} invoice(s) on ${date}, reversed by ${String(reversal.documentno)} on ${reversalDate}` };
}
