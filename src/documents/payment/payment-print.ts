import type { AuthContext } from '../../auth/context.js';
import type { Queryable } from '../../db/types.js';
import type { Table } from '../../dictionary/model.js';
import { badRequest } from '../../errors.js';
import type { ReportType } from '../../processes/parameters.js';
import { formContext, recipientBlock, renderDocumentForm, type PrintedDocument } from '../../print/document-print.js';
import { amountText, DOCUMENT_STATUS_LIST, listName, TENDER_TYPE_LIST } from '../../print/print-text.js';
import type { CellValue } from '../../reports/report-model.js';

interface PaymentRow {
  documentno: string;
  isreceipt: string;
  docstatus: string | null;
  tendertype: string | null;
  datetrx: string | null;
  description: string | null;
  ad_org_id: number;
  c_bpartner_id: number | null;
  bpartner: string | null;
  bpvalue: string | null;
  c_location_id: number | null;
  bankaccount: string | null;
  checkno: string | null;
  c_currency_id: number | null;
  currency: string | null;
  payamt: number;
  discountamt: number;
  writeoffamt: number;
  overunderamt: number;
  invoice: string | null;
  dateinvoiced: string | null;
}

/**
 * The printed form of a payment (a receipt from a customer, a payment to a vendor): the
 * organisation's letterhead, the partner's address block (its bill-to location), number, date,
 * status and tender type by name, the bank account and check number; a line per invoice it pays
 * (its allocations, else the invoice it names) and the amounts paid, discounted and written off.
 */
export async function printPayment(q: Queryable, auth: AuthContext, table: Table, id: number, type: ReportType | null): Promise<PrintedDocument> {
  const { rows } = await q.query<PaymentRow>(
    `SELECT p.documentno, p.isreceipt, p.docstatus, p.tendertype, to_char(p.datetrx, 'YYYY-MM-DD') AS datetrx, p.description, p.ad_org_id,
            p.c_bpartner_id, bp.name AS bpartner, bp.value AS bpvalue,
            (SELECT bpl.c_location_id FROM c_bpartner_location bpl WHERE bpl.c_bpartner_id = p.c_bpartner_id AND bpl.isactive = 'Y'
              ORDER BY bpl.isbillto DESC, bpl.c_bpartner_location_id LIMIT 1) AS c_location_id,
            trim(concat_ws(' ', b.name, ba.accountno)) AS bankaccount, p.checkno, p.c_currency_id, cur.iso_code AS currency,
            p.payamt::float8 AS payamt, p.discountamt::float8 AS discountamt, p.writeoffamt::float8 AS writeoffamt, p.overunderamt::float8 AS overunderamt,
            i.documentno AS invoice, to_char(i.dateinvoiced, 'YYYY-MM-DD') AS dateinvoiced
       FROM c_payment p
       LEFT JOIN c_bpartner bp ON bp.c_bpartner_id = p.c_bpartner_id
       LEFT JOIN c_bankaccount ba ON ba.c_bankaccount_id = p.c_bankaccount_id
       LEFT JOIN c_bank b ON b.c_bank_id = ba.c_bank_id
       LEFT JOIN c_currency cur ON cur.c_currency_id = p.c_currency_id
       LEFT JOIN c_invoice i ON i.c_invoice_id = p.c_invoice_id
      WHERE p.c_payment_id = $1`,
    [id],
  );
  const p = rows[0];
  if (!p) throw badRequest('Invalid record', `No ${table.name} ${id}`);
  const allocations = await q.query<{ invoice: string | null; dateinvoiced: string | null; amount: number; discount: number; writeoff: number }>(
    `SELECT i.documentno AS invoice, to_char(i.dateinvoiced, 'YYYY-MM-DD') AS dateinvoiced, al.amount::float8 AS amount, al.discountamt::float8 AS discount, al.writeoffamt::float8 AS writeoff
       FROM c_allocationline al JOIN c_allocationhdr ah ON ah.c_allocationhdr_id = al.c_allocationhdr_id
       LEFT JOIN c_invoice i ON i.c_invoice_id = al.c_invoice_id
      WHERE al.c_payment_id = $1 AND al.isactive = 'Y' AND ah.docstatus IN ('CO', 'CL')
      ORDER BY ah.datetrx, al.c_allocationline_id`,
    [id],
  );
  // Allocation lines of a payment (IsReceipt N) carry negated amounts: printed as paid.
  const sense = p.isreceipt === 'Y' ? 1 : -1;
  const paid = (n: number): number => sense * n || 0; // never -0
  const cells: CellValue[][] = allocations.rows.length
    ? allocations.rows.map((a) => [a.invoice, a.dateinvoiced, paid(a.amount), paid(a.discount), paid(a.writeoff)])
    : p.invoice
      ? [[p.invoice, p.dateinvoiced, p.payamt, p.discountamt, p.writeoffamt]]
      : [];
  const ctx = await formContext(q, auth, Number(p.ad_org_id), p.c_currency_id === null ? null : Number(p.c_currency_id));
  const kind = p.isreceipt === 'Y' ? 'Receipt' : 'Payment';
  const title = `${kind} ${p.documentno}`;
  const amount = (n: number): string => `${amountText(n, ctx.numbers)} ${p.currency ?? ''}`.trim();
  const file = await renderDocumentForm(
    {
      title,
      letterhead: ctx.letterhead,
      recipient: await recipientBlock(q, p.bpartner, null, p.c_location_id === null ? null : Number(p.c_location_id)),
      details: [
        ['Document No', p.documentno],
        ['Date', p.datetrx ?? ''],
        ['Status', await listName(q, DOCUMENT_STATUS_LIST, p.docstatus, auth.language)],
        ['Tender Type', await listName(q, TENDER_TYPE_LIST, p.tendertype, auth.language)],
        ...(p.bpvalue ? [['Partner No', p.bpvalue] as [string, string]] : []),
        ...(p.bankaccount ? [['Bank Account', p.bankaccount] as [string, string]] : []),
        ...(p.checkno ? [['Check No', p.checkno] as [string, string]] : []),
      ],
      notes: p.description ? [p.description] : [],
      columns: [
        { label: 'Invoice', type: 'text' },
        { label: 'Date', type: 'text' },
        { label: 'Amount', type: 'amount' },
        { label: 'Discount', type: 'amount' },
        { label: 'Write-off', type: 'amount' },
      ],
      cells,
      totals: [
        ...(p.discountamt ? [{ label: 'Discount', value: amount(p.discountamt) }] : []),
        ...(p.writeoffamt ? [{ label: 'Write-off', value: amount(p.writeoffamt) }] : []),
        ...(p.overunderamt ? [{ label: 'Over/Under Payment', value: amount(p.overunderamt) }] : []),
        { label: p.isreceipt === 'Y' ? 'Amount Received' : 'Amount Paid', value: amount(p.payamt), grand: true },
      ],
      footer: [],
      numbers: ctx.numbers,
    },
    type,
  );
  return { file, title, name: `${kind}_${p.documentno}.${file.extension}`, printFormatName: 'Payment', bpartnerId: p.c_bpartner_id === null ? null : Number(p.c_bpartner_id) };
}
