import type { AuthContext } from '../../auth/context.js';
import type { Queryable } from '../../db/types.js';
import type { Table } from '../../dictionary/model.js';
import { badRequest } from '../../errors.js';
import type { ReportType } from '../../processes/parameters.js';
import { money, renderDocumentForm, type PrintedDocument } from '../../print/document-print.js';

/**
 * The printed form of a GL journal: organisation, number, accounting date, period, category,
 * currency and rate, status and description; a line per journal line with its account, partner,
 * description and accounted debit and credit; the totals.
 */
export async function printJournal(q: Queryable, _auth: AuthContext, table: Table, id: number, type: ReportType | null): Promise<PrintedDocument> {
  const { rows } = await q.query<Record<string, string | number | null>>(
    `SELECT j.documentno, j.docstatus, to_char(j.dateacct, 'YYYY-MM-DD') AS dateacct, j.description, j.currencyrate::text AS rate,
        j.totaldr::float8 AS totaldr, j.totalcr::float8 AS totalcr, o.name AS org, p.name AS period, g.name AS category, c.iso_code AS currency, b.documentno AS batch
       FROM gl_journal j LEFT JOIN ad_org o ON o.ad_org_id = j.ad_org_id LEFT JOIN c_period p ON p.c_period_id = j.c_period_id
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
  const headerLines = [
    String(h.org ?? ''),
    `Accounting Date: ${String(h.dateacct ?? '')}   Period: ${String(h.period ?? '')}   Category: ${String(h.category ?? '')}   Status: ${String(h.docstatus ?? '')}`,
    `Currency: ${String(h.currency ?? '')}   Rate: ${String(h.rate ?? '')}${h.batch ? `   Batch: ${String(h.batch)}` : ''}`,
    ...(h.description ? [String(h.description)] : []),
  ];
  const file = await renderDocumentForm(
    {
      title,
      headerLines,
      columns: [
        { label: 'Line', type: 'number' },
        { label: 'Account', type: 'text' },
        { label: 'Business Partner', type: 'text' },
        { label: 'Description', type: 'text' },
        { label: 'Debit', type: 'amount' },
        { label: 'Credit', type: 'amount' },
      ],
      cells: lines.rows.map((l) => [l.line, l.account, l.partner, l.description, l.dr, l.cr]),
      footer: [`Total Debit: ${money(Number(h.totaldr ?? 0))} ${String(h.currency ?? '')}`.trim(), `Total Credit: ${money(Number(h.totalcr ?? 0))} ${String(h.currency ?? '')}`.trim()],
    },
    type,
  );
  return { file, title, name: `GL_Journal_${String(h.documentno)}.${file.extension}`, printFormatName: 'GL_Journal', bpartnerId: null };
}
