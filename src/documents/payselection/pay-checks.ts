import { badRequest } from '../../errors.js';
import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { insertRecord } from '../../records/write/persist.js';
import type { WriteContext } from '../../records/write/write-context.js';
import { runDocumentAction } from '../engine/engine.js';
import { sub, toText } from '../decimal.js';
import { nowTimestamp } from '../row-values.js';
import { selectionOf } from './selection.js';

/** Tender types of the payments by the prepared payment's rule (the original's confirmPrint); other rules make no payment. */
const TENDER_OF: Record<string, string> = { S: 'K', T: 'A', D: 'D', K: 'C' };

interface PreparedPayment {
  c_payselectioncheck_id: number;
  ad_org_id: number;
  c_bpartner_id: number;
  paymentrule: string;
  isreceipt: string;
  payamt: string;
  discountamt: string;
  writeoffamt: string;
  documentno: string | null;
  lines: { invoice: number; open: string; pay: string; discount: string; writeOff: string }[];
}

/** The allocation of a payment to the invoices of its lines, in the original's signs (a vendor payment's amounts negated), completed. */
async function allocate(wc: WriteContext, check: PreparedPayment, paymentId: number, date: unknown, currency: number): Promise<void> {
  const signed = (v: string) => (check.isreceipt === 'Y' ? v : toText(sub(0, v)));
  const table = wc.dict.byName.get('c_allocationhdr')!;
  const created = await insertRecord(wc, table, {
    AD_Org_ID: check.ad_org_id,
    C_Currency_ID: currency,
    DateTrx: date,
    DateAcct: date,
    Description: `Payment selection check ${check.c_payselectioncheck_id}`,
    C_AllocationLine: check.lines.map((l) => ({
      AD_Org_ID: check.ad_org_id,
      C_Invoice_ID: l.invoice,
      C_Payment_ID: paymentId,
      C_BPartner_ID: check.c_bpartner_id,
      Amount: signed(l.pay),
      DiscountAmt: signed(l.discount),
      WriteOffAmt: signed(l.writeOff),
      OverUnderAmt: signed(toText(sub(sub(sub(l.open, l.pay), l.discount), l.writeOff))),
    })),
  });
  await wc.deferred.flush();
  await runDocumentAction(wc, table, String(created.row.c_allocationhdr_id), 'CO');
}

/**
 * Payment Print/Export (the original's confirmPrint of the prepared payments): for each prepared
 * payment of a processed selection without one yet, a payment from the selection's bank account
 * on its pay date, completed. A payment of one invoice names it (with its discount and
 * write-off) and allocates itself; a payment of several is allocated to them, discounts
 * included, by one allocation. Prepared payments of a rule that makes no payment (On Credit,
 * Cash) are left as they are.
 */
export async function paySelectionPayments(c: ProcessCall): Promise<ProcessOutcome> {
  const { wc, selection, id } = await selectionOf(c);
  if (selection.processed !== 'Y') throw badRequest('Invalid parameter', 'The payments of the payment selection are not prepared yet (run Prepare Payment first)');
  const { rows: bank } = await c.tx.query<{ c_currency_id: number }>(`SELECT c_currency_id FROM c_bankaccount WHERE c_bankaccount_id = $1`, [selection.c_bankaccount_id]);
  const currency = Number(bank[0]?.c_currency_id);
  const { rows: checks } = await c.tx.query<PreparedPayment>(
    `SELECT k.c_payselectioncheck_id, k.ad_org_id, k.c_bpartner_id, k.paymentrule, k.isreceipt, k.payamt::text AS payamt, k.discountamt::text AS discountamt,
            k.writeoffamt::text AS writeoffamt, k.documentno,
            (SELECT json_agg(json_build_object('invoice', l.c_invoice_id, 'open', l.openamt::text, 'pay', l.payamt::text, 'discount', l.discountamt::text,
                     'writeOff', l.writeoffamt::text) ORDER BY l.line)
               FROM c_payselectionline l WHERE l.c_payselectioncheck_id = k.c_payselectioncheck_id AND l.isactive = 'Y') AS lines
       FROM c_payselectioncheck k
      WHERE k.c_payselection_id = $1 AND k.isactive = 'Y' AND k.c_payment_id IS NULL
      ORDER BY k.c_payselectioncheck_id`,
    [id],
  );
  const payment = c.s.dictionary.current.byName.get('c_payment')!;
  const date = selection.paydate;
  let made = 0;
  for (const k of checks) {
    const tender = TENDER_OF[k.paymentrule];
    const lines = typeof k.lines === 'string' ? (JSON.parse(k.lines) as PreparedPayment['lines']) : (k.lines ?? []);
    if (!tender || !lines.length) {
      c.log({ msg: `Prepared payment ${k.c_payselectioncheck_id}: payment rule ${k.paymentrule} makes no payment` });
      continue;
    }
    const single = lines.length === 1 ? lines[0]! : null;
    const overUnder = single ? toText(sub(sub(sub(single.open, single.pay), single.discount), single.writeOff)) : '0';
    const created = await insertRecord(wc, payment, {
      AD_Org_ID: k.ad_org_id,
      C_BPartner_ID: k.c_bpartner_id,
      C_BankAccount_ID: selection.c_bankaccount_id,
      C_Currency_ID: currency,
      IsReceipt: k.isreceipt === 'Y',
      TenderType: tender,
      TrxType: 'C',
      PayAmt: k.payamt,
      DateTrx: date,
      DateAcct: date,
      ...(k.paymentrule === 'S' && k.documentno ? { CheckNo: k.documentno } : {}),
      ...(single
        ? { C_Invoice_ID: single.invoice, DiscountAmt: single.discount, WriteOffAmt: single.writeOff, OverUnderAmt: overUnder, IsOverUnderPayment: overUnder !== '0' && Number(overUnder) !== 0 }
        : { DiscountAmt: 0, WriteOffAmt: 0 }),
    });
    await wc.deferred.flush();
    const paymentId = Number(created.row.c_payment_id);
    // The prepared payment names its payment before the payment completes, as the original's.
    await c.tx.query(`UPDATE c_payselectioncheck SET c_payment_id = $2 WHERE c_payselectioncheck_id = $1`, [k.c_payselectioncheck_id, paymentId]);
    const done = await runDocumentAction(wc, payment, String(paymentId), 'CO');
    if (!single) await allocate(wc, k, paymentId, date, currency);
    await c.tx.query(`UPDATE c_payselectioncheck SET isprinted = 'Y', processed = 'Y', updated = $2::timestamp, updatedby = $3 WHERE c_payselectioncheck_id = $1`, [
      k.c_payselectioncheck_id,
      nowTimestamp(),
      c.auth.userId,
    ]);
    c.log({ msg: `Payment ${String(done.row.documentno)} to partner ${k.c_bpartner_id}: ${k.payamt}`, tableId: payment.id, recordId: paymentId });
    made++;
  }
  return { summary: `Payments: #${made}` };
}
