import type { Queryable } from '../../db/types.js';
import { convertedSql } from '../accounting/conversion.js';
import { INVOICE_SENSE_SQL, OPEN_AMOUNT_SQL, PAYMENT_SENSE_SQL, UNALLOCATED_SQL } from './settlement.js';

/** The invoice an allocation line settles, as the allocation sees it. */
export interface LineInvoice {
  id: number;
  documentno: string;
  status: string;
  sales: boolean;
  /** +1 when settling lines are positive (customer invoices, vendor credit memos), else -1. */
  sense: number;
  currencyId: number;
  iso: string;
  conversionTypeId: number | null;
  bpartnerId: number;
  grandTotal: string;
  isPaid: boolean;
  dateAcct: unknown;
  /** Open amount before this allocation (positive while something is left to settle). */
  open: string;
  /** Amount + DiscountAmt + WriteOffAmt of the line in the invoice's currency (null: no rate). */
  settled: string | null;
  /** The invoice this one reverses or is reversed by. */
  reversalId: number | null;
}

/** The payment an allocation line takes from. */
export interface LinePayment {
  id: number;
  documentno: string;
  status: string;
  receipt: boolean;
  /** +1 for receipts, -1 for payments. */
  sense: number;
  currencyId: number;
  iso: string;
  conversionTypeId: number | null;
  payAmt: string;
  dateAcct: unknown;
  /** Unallocated amount before this allocation. */
  open: string;
  /** Amount of the line in the payment's currency (null: no rate). */
  taken: string | null;
}

export interface SettlementLine {
  id: number;
  /** ISO code of the allocation's currency. */
  allocationIso: string;
  bpartnerId: number | null;
  amount: string;
  discount: string;
  writeoff: string;
  invoice: LineInvoice | null;
  payment: LinePayment | null;
  /** The cash journal line that pays (a cash journal's invoice line): the cash book's cash transfer account. */
  cash?: { id: number; account: number | null } | null;
}

const LINES_SQL = `SELECT al.c_allocationline_id AS id, (SELECT c.iso_code FROM c_currency c WHERE c.c_currency_id = ah.c_currency_id) AS iso,
    al.c_bpartner_id AS bpartner, al.amount::text AS amount,
    COALESCE(al.discountamt, 0)::text AS discount, COALESCE(al.writeoffamt, 0)::text AS writeoff,
    CASE WHEN i.c_invoice_id IS NULL THEN NULL ELSE json_build_object(
      'id', i.c_invoice_id, 'documentno', i.documentno, 'status', i.docstatus, 'sales', i.issotrx = 'Y', 'sense', ${INVOICE_SENSE_SQL('i')},
      'currencyId', i.c_currency_id, 'iso', (SELECT c.iso_code FROM c_currency c WHERE c.c_currency_id = i.c_currency_id),
      'conversionTypeId', i.c_conversiontype_id, 'bpartnerId', i.c_bpartner_id, 'grandTotal', i.grandtotal::text, 'isPaid', i.ispaid = 'Y',
      'dateAcct', i.dateacct, 'open', (${OPEN_AMOUNT_SQL('i')})::text, 'reversalId', i.reversal_id,
      'settled', ${convertedSql('al.amount + COALESCE(al.discountamt, 0) + COALESCE(al.writeoffamt, 0)', 'ah.c_currency_id', 'i.c_currency_id', 'i.c_conversiontype_id', '$2::timestamp', 'ah.ad_client_id')}::text) END AS invoice,
    CASE WHEN p.c_payment_id IS NULL THEN NULL ELSE json_build_object(
      'id', p.c_payment_id, 'documentno', p.documentno, 'status', p.docstatus, 'receipt', p.isreceipt = 'Y', 'sense', ${PAYMENT_SENSE_SQL('p')},
      'currencyId', p.c_currency_id, 'iso', (SELECT c.iso_code FROM c_currency c WHERE c.c_currency_id = p.c_currency_id),
      'conversionTypeId', p.c_conversiontype_id, 'payAmt', p.payamt::text, 'dateAcct', p.dateacct, 'open', (${UNALLOCATED_SQL('p')})::text,
      'taken', ${convertedSql('al.amount', 'ah.c_currency_id', 'p.c_currency_id', 'p.c_conversiontype_id', '$2::timestamp', 'ah.ad_client_id')}::text) END AS payment,
    CASE WHEN al.c_cashline_id IS NULL THEN NULL ELSE json_build_object('id', al.c_cashline_id, 'account',
      (SELECT v.account_id FROM c_cashline cl JOIN c_cash c ON c.c_cash_id = cl.c_cash_id
          JOIN c_cashbook_acct ca ON ca.c_cashbook_id = c.c_cashbook_id AND ca.isactive = 'Y'
          JOIN c_validcombination v ON v.c_validcombination_id = ca.cb_cashtransfer_acct
        WHERE cl.c_cashline_id = al.c_cashline_id ORDER BY ca.c_acctschema_id LIMIT 1)) END AS cash
  FROM c_allocationline al
  JOIN c_allocationhdr ah ON ah.c_allocationhdr_id = al.c_allocationhdr_id
  LEFT JOIN c_invoice i ON i.c_invoice_id = al.c_invoice_id
  LEFT JOIN c_payment p ON p.c_payment_id = al.c_payment_id
 WHERE al.c_allocationhdr_id = $1 ORDER BY al.c_allocationline_id`;

const json = <T>(v: unknown): T | null => (v === null || v === undefined ? null : typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

/**
 * The lines of an allocation with their invoices and payments: open amounts before the
 * allocation, and the line's amounts converted to each document's currency at `dateTrx`.
 */
export async function settlementLines(q: Queryable, allocationId: number, dateTrx: unknown): Promise<SettlementLine[]> {
  const { rows } = await q.query<{ id: number; iso: string; bpartner: number | null; amount: string; discount: string; writeoff: string; invoice: unknown; payment: unknown; cash: unknown }>(
    LINES_SQL,
    [allocationId, dateTrx],
    { name: 'doc_allocation_settlement' },
  );
  return rows.map((r) => ({
    id: Number(r.id),
    allocationIso: r.iso,
    bpartnerId: r.bpartner === null ? null : Number(r.bpartner),
    amount: r.amount,
    discount: r.discount,
    writeoff: r.writeoff,
    invoice: json<LineInvoice>(r.invoice),
    payment: json<LinePayment>(r.payment),
    cash: json<{ id: number; account: number | null }>(r.cash),
  }));
}

/**
 * An allocation of an invoice with its reversal only (the original writes one when an invoice is
 * reversed): it settles both and posts nothing.
 */
export function isReversalPair(lines: readonly SettlementLine[]): boolean {
  if (lines.length !== 2 || lines.some((l) => l.payment || !l.invoice)) return false;
  const [a, b] = [lines[0]!.invoice!, lines[1]!.invoice!];
  return Number(a.reversalId) === Number(b.id) || Number(b.reversalId) === Number(a.id);
}
