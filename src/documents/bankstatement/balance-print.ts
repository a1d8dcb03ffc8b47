import type { AuthContext } from '../../auth/context.js';
import type { Queryable } from '../../db/types.js';
import type { Table } from '../../dictionary/model.js';
import { badRequest } from '../../errors.js';
import type { ReportType } from '../../processes/parameters.js';
import { formContext, renderDocumentForm, type PrintedDocument } from '../../print/document-print.js';
import { amountText, DOCUMENT_STATUS_LIST, listName } from '../../print/print-text.js';
import type { CellValue, ColumnType } from '../../reports/report-model.js';

/** What the form of a bank statement or cash journal reads: its header, its lines, their columns. */
interface BalanceForm {
  title: string;
  /** What the header's book is: a bank account or a cash book. */
  bookLabel: string;
  header: string;
  lines: string;
  /** Header columns: number, date, and the book (bank account or cash book) as text. */
  headerSql: string;
  lineSql: string;
  columns: { label: string; type: ColumnType }[];
}

const FORMS: Record<string, BalanceForm> = {
  c_bankstatement: {
    title: 'Bank Statement',
    bookLabel: 'Bank Account',
    header: 'c_bankstatement',
    lines: 'c_bankstatementline',
    headerSql: `SELECT h.documentno AS no, to_char(h.statementdate, 'YYYY-MM-DD') AS day, h.docstatus, h.name, h.ad_org_id, b.c_currency_id, b.name AS book, cur.iso_code AS currency,
        h.beginningbalance::float8 AS beginning, h.statementdifference::float8 AS difference, h.endingbalance::float8 AS ending
      FROM c_bankstatement h LEFT JOIN c_bankaccount b ON b.c_bankaccount_id = h.c_bankaccount_id
      LEFT JOIN c_currency cur ON cur.c_currency_id = b.c_currency_id WHERE h.c_bankstatement_id = $1`,
    lineSql: `SELECT l.line::int AS c0, to_char(l.statementlinedate, 'YYYY-MM-DD') AS c1, COALESCE(l.referenceno, l.eftreference, l.description, '') AS c2, bp.name AS c3,
        p.documentno AS c4, l.stmtamt::float8 AS c5, l.trxamt::float8 AS c6, l.chargeamt::float8 AS c7, l.interestamt::float8 AS c8
      FROM c_bankstatementline l LEFT JOIN c_bpartner bp ON bp.c_bpartner_id = l.c_bpartner_id LEFT JOIN c_payment p ON p.c_payment_id = l.c_payment_id
      WHERE l.c_bankstatement_id = $1 AND l.isactive = 'Y' ORDER BY l.line, l.c_bankstatementline_id`,
    columns: [
      { label: 'Line', type: 'number' },
      { label: 'Date', type: 'text' },
      { label: 'Reference', type: 'text' },
      { label: 'Business Partner', type: 'text' },
      { label: 'Payment', type: 'text' },
      { label: 'Amount', type: 'amount' },
      { label: 'Transaction', type: 'amount' },
      { label: 'Charge', type: 'amount' },
      { label: 'Interest', type: 'amount' },
    ],
  },
  c_cash: {
    title: 'Cash Journal',
    bookLabel: 'Cash Book',
    header: 'c_cash',
    lines: 'c_cashline',
    headerSql: `SELECT h.name AS no, to_char(h.statementdate, 'YYYY-MM-DD') AS day, h.docstatus, h.description AS name, h.ad_org_id, b.c_currency_id, b.name AS book, cur.iso_code AS currency,
        h.beginningbalance::float8 AS beginning, h.statementdifference::float8 AS difference, h.endingbalance::float8 AS ending
      FROM c_cash h LEFT JOIN c_cashbook b ON b.c_cashbook_id = h.c_cashbook_id
      LEFT JOIN c_currency cur ON cur.c_currency_id = b.c_currency_id WHERE h.c_cash_id = $1`,
    lineSql: `SELECT l.line::int AS c0, COALESCE((SELECT r.name FROM ad_ref_list r WHERE r.ad_reference_id = 217 AND r.value = l.cashtype), l.cashtype) AS c1,
        COALESCE(l.description, '') AS c2, COALESCE(i.documentno, ba.name, ch.name, '') AS c3, l.amount::float8 AS c4, l.discountamt::float8 AS c5, l.writeoffamt::float8 AS c6
      FROM c_cashline l LEFT JOIN c_invoice i ON i.c_invoice_id = l.c_invoice_id LEFT JOIN c_bankaccount ba ON ba.c_bankaccount_id = l.c_bankaccount_id
      LEFT JOIN c_charge ch ON ch.c_charge_id = l.c_charge_id
      WHERE l.c_cash_id = $1 AND l.isactive = 'Y' ORDER BY l.line, l.c_cashline_id`,
    columns: [
      { label: 'Line', type: 'number' },
      { label: 'Type', type: 'text' },
      { label: 'Description', type: 'text' },
      { label: 'Invoice, Bank Account or Charge', type: 'text' },
      { label: 'Amount', type: 'amount' },
      { label: 'Discount', type: 'amount' },
      { label: 'Write-off', type: 'amount' },
    ],
  },
};

interface HeaderRow {
  no: string | null;
  day: string | null;
  docstatus: string | null;
  name: string | null;
  ad_org_id: number;
  c_currency_id: number | null;
  book: string | null;
  currency: string | null;
  beginning: number | null;
  difference: number | null;
  ending: number | null;
}

/**
 * The printed form of a bank statement or a cash journal: the organisation's letterhead, the bank
 * account or cash book, number, date and status by name, the lines, and the beginning balance,
 * difference and ending balance at the currency's precision.
 */
export async function printBalanceDocument(q: Queryable, auth: AuthContext, table: Table, id: number, type: ReportType | null): Promise<PrintedDocument> {
  const form = FORMS[table.dbName];
  if (!form) throw badRequest('Invalid table', `${table.name} records have no printed form`);
  const h = (await q.query<HeaderRow>(form.headerSql, [id])).rows[0];
  if (!h) throw badRequest('Invalid record', `No ${table.name} ${id}`);
  // The line statement's columns, in the order of the form's columns.
  const cells = (await q.query<Record<string, CellValue>>(form.lineSql, [id])).rows.map((r) => Object.values(r));
  const ctx = await formContext(q, auth, Number(h.ad_org_id), h.c_currency_id === null ? null : Number(h.c_currency_id));
  const title = `${form.title} ${h.no ?? id}`;
  const details: [string, string][] = [
    [form.bookLabel, h.book ?? ''],
    ['Document No', h.no ?? String(id)],
    ['Date', h.day ?? ''],
    ['Status', await listName(q, DOCUMENT_STATUS_LIST, h.docstatus, auth.language)],
    ['Currency', h.currency ?? ''],
  ];
  const money = (n: number | null): string => `${amountText(Number(n ?? 0), ctx.numbers)} ${h.currency ?? ''}`.trim();
  const file = await renderDocumentForm(
    {
      title,
      letterhead: ctx.letterhead,
      recipient: [],
      details,
      notes: h.name ? [h.name] : [],
      columns: form.columns,
      cells,
      totals: [
        { label: 'Beginning Balance', value: money(h.beginning) },
        { label: 'Statement Difference', value: money(h.difference) },
        { label: 'Ending Balance', value: money(h.ending), grand: true },
      ],
      footer: [],
      numbers: ctx.numbers,
    },
    type,
  );
  return { file, title, name: `${title.replace(/\s+/g, '_')}.${file.extension}`, printFormatName: form.title.replace(/\s+/g, '_'), bpartnerId: null };
}
