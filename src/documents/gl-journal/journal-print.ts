import type { AuthContext } from '../../auth/context.js';
import type { Queryable } from '../../db/types.js';
import type { Table } from '../../dictionary/model.js';
import { badRequest } from '../../errors.js';
import type { ReportType } from '../../processes/parameters.js';
import { formContext, renderDocumentForm, type PrintedDocument } from '../../print/document-print.js';
import { amountText, DOCUMENT_STATUS_LIST, listName } from '../../print/print-text.js';

/**
 * The printed form of a GL journal: organisation, number, accounting date, period, category,
 * currency and rate, status and description; a line per journal line with its account, partner,
 * description and accounted debit and credit; the totals.
 */
export async function printJournal(q: Queryable, auth: AuthContext, table: Table, id: number, type: ReportType | null): Promise<PrintedDocument> {
  const { rows } = await q.query<Record<string, string | number | null>>(
    `SELECT j.documentno, j.docstatus, to_char(j.dateacct, 'YYYY-MM-DD') AS dateacct, j.description, j.currencyrate::text AS rate,
        j.totaldr::float8 AS totaldr, j.totalcr::float8 AS totalcr, j.ad_org_id, j.c_currency_id, p.name AS period, g.name AS category, c.iso_code AS currency, b.documentno AS batch
       FROM gl_journal j LEFT JOIN c_period p ON p.c_period_id = j.c_period_id
       LEFT JOIN gl_category g ON g.gl_category_id = j.gl_category_id LEFT JOIN c_currency c ON c.c_currency_id = j.c_currency_id
       LEFT JOIN gl_journalbatch b ON b.gl_journalbatch_id = j.gl_journalbatch_id
      WHERE j.gl_journal_id = $1`,
    [id],
  );
  const h = rows[0];
  if (!h) throw badRequest('Invalid record', `No ${table.name} ${id}`);
  const lines = await q.query<{ line: number; account: string; partner: string | null; description: string | null; dr: number; cr: number }>(
    `SELECT l.line::int AS line, COALESCE(ev.value || ' ' || ev.name, '') AS account, bp.name AS partner, l.description,
        l.amtacctdr::float8 AS dr, l.amtacctcr::float8 AS cr
       FROM gl_journalline l LEFT JOIN c_elementvalue ev ON ev.c_elementvalue_id = l.account_id LEFT JOIN c_bpartner bp ON bp.c_bpartner_id = l.c_bpartner_id
      WHERE l.gl_journal_id = $1 AND l.isactive = 'Y' ORDER BY l.line, l.gl_journalline_id`,
    [id],
  );
  const title = `GL Journal ${String(h.documentno)}`;
  const ctx = await formContext(q, auth, Number(h.ad_org_id), h.c_currency_id === null ? null : Number(h.c_currency_id));
  const text = (v: string | number | null | undefined): string => (v === null || v === undefined ? '' : String(v));
  const details: [string, string][] = [
    ['Document No', text(h.documentno)],
    ['Accounting Date', text(h.dateacct)],
    ['Period', text(h.period)],
    ['Category', text(h.category)],
    ['Status', await listName(q, DOCUMENT_STATUS_LIST, h.docstatus === null ? null : String(h.docstatus), auth.language)],
    ['Currency', text(h.currency)],
    ['Rate', text(h.rate)],
    ...(h.batch ? [['Batch', text(h.batch)] as [string, string]] : []),
  ];
  const total = (n: string | number | null | undefined): string => `${amountText(Number(n ?? 0), ctx.numbers)} ${text(h.currency)}`.trim();
  const file = await renderDocumentForm(
    {
      title,
      letterhead: ctx.letterhead,
      recipient: [],
      details,
      notes: h.description ? [text(h.description)] : [],
      columns: [
        { label: 'Line', type: 'number' },
        { label: 'Account', type: 'text' },
        { label: 'Business Partner', type: 'text' },
        { label: 'Description', type: 'text' },
        { label: 'Debit', type: 'amount' },
        { label: 'Credit', type: 'amount' },
      ],
      cells: lines.rows.map((l) => [l.line, l.account, l.partner, l.description, l.dr, l.cr]),
      totals: [
        { label: 'Total Debit', value: total(h.totaldr) },
        { label: 'Total Credit', value: total(h.totalcr), grand: true },
      ],
      footer: [],
      numbers: ctx.numbers,
    },
    type,
  );
  return { file, title, name: `GL_Journal_${String(h.documentno)}.${file.extension}`, printFormatName: 'GL_Journal', bpartnerId: null };
}
