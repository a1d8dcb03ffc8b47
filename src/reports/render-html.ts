import { headingText } from './report-heading.js';
import { cellText, isNumeric, type CellValue, type ReportData } from './report-model.js';

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** A complete HTML document: title, parameters, one table with group headers, subtotals and the grand total. */
export function renderHtml(r: ReportData): Buffer {
  const cells = (values: CellValue[], tag: 'td' | 'th' = 'td'): string =>
    values.map((v, i) => `<${tag}${isNumeric(r.columns[i]!.type) ? ' class="num"' : ''}>${escapeHtml(cellText(r.columns[i]!, v))}</${tag}>`).join('');
  const totalsRow = (label: string, totals: CellValue[]): string => {
    const values = totals.slice();
    const first = r.columns.findIndex((c) => !c.sum);
    if (first >= 0) values[first] = label;
    return `<tr class="total">${cells(values)}</tr>`;
  };
  const body: string[] = [];
  for (const g of r.groups) {
    const lines: string[] = [];
    if (r.groupBy) lines.push(`<tr class="group"><th colspan="${r.columns.length}">${escapeHtml(g.key)}</th></tr>`);
    if (!r.isSummary) for (const row of g.rows) lines.push(`<tr>${cells(row)}</tr>`);
    if (r.groupBy) lines.push(totalsRow(`Total ${g.key}`, g.totals));
    body.push(`<tbody>${lines.join('')}</tbody>`);
  }
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(r.title)}</title>
<style>body{font-family:Helvetica,Arial,sans-serif;font-size:10pt}table{border-collapse:collapse}th,td{padding:2px 6px;border-bottom:1px solid #ddd;text-align:left}.num{text-align:right}.heading{color:#555;font-size:9pt}tr.group th{background:#eef}tr.total td{font-weight:bold;border-top:1px solid #888}tfoot td{font-weight:bold;border-top:2px solid #000}</style>
</head><body>
${r.heading ? `<p class="heading">${escapeHtml(headingText(r.heading))}</p>\n` : ''}<h1>${escapeHtml(r.title)}</h1>
<p class="parameters">${escapeHtml(r.subtitle)}</p>
<table>
<thead><tr>${r.columns.map((c) => `<th${isNumeric(c.type) ? ' class="num"' : ''}>${escapeHtml(c.label)}</th>`).join('')}</tr></thead>
${body.join('\n')}
<tfoot>${totalsRow('Grand Total', r.totals).replace('<tr class="total">', '<tr class="grand">')}</tfoot>
</table>
<p class="rows">${r.rowCount} rows</p>
</body></html>
`;
  return Buffer.from(html, 'utf8');
}
