import path from 'node:path';
import ExcelJS from 'exceljs';
import { projectRoot } from '../../src/paths.js';
import { parse as parseCsv } from 'csv-parse/sync';
import { parse as parseHtml, type DefaultTreeAdapterMap } from 'parse5';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

/** The text of a PDF, page by page (pdf.js, the viewer of the browsers, reads it). */
export async function pdfText(data: Buffer): Promise<string[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const fonts = path.join(projectRoot, 'node_modules', 'pdfjs-dist', 'standard_fonts') + path.sep;
  const doc = await pdfjs.getDocument({ data: new Uint8Array(data), useSystemFonts: false, isEvalSupported: false, standardFontDataUrl: fonts }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const content = await page.getTextContent();
    let line = '';
    const lines: string[] = [];
    for (const item of content.items) {
      if (!('str' in item)) continue;
      line += item.str;
      if (item.hasEOL) {
        lines.push(line);
        line = '';
      } else line += ' ';
    }
    if (line) lines.push(line);
    pages.push(lines.join('\n'));
  }
  await doc.destroy();
  return pages;
}

/** Rows of a CSV file, the first one being the header. */
export const csvRows = (data: Buffer): string[][] => parseCsv(data);

/** The values of the first sheet of a workbook, row by row (exceljs reads it). */
export async function xlsxRows(data: Buffer): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(data as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const rows: unknown[][] = [];
  ws.eachRow({ includeEmpty: false }, (row) => {
    const values = (row.values as unknown[]).slice(1);
    rows.push(values.map((v) => (v instanceof Date ? v.toISOString().slice(0, 10) : v === undefined ? null : v)));
  });
  return rows;
}

const isElement = (n: Node): n is Element => 'tagName' in n;

function walk(n: Node, visit: (e: Element) => void): void {
  if (isElement(n)) visit(n);
  const children = 'childNodes' in n ? n.childNodes : [];
  for (const c of children) walk(c as Node, visit);
}

const textOf = (n: Node): string => {
  if (n.nodeName === '#text') return (n as DefaultTreeAdapterMap['textNode']).value;
  return ('childNodes' in n ? n.childNodes : []).map((c) => textOf(c as Node)).join('');
};

/** An HTML document parsed by an HTML5 parser: its title and the rows of its tables (cells as text, with each row's class). */
export function htmlTable(data: Buffer): { title: string; rows: { cls: string; cells: string[] }[] } {
  const doc = parseHtml(data.toString('utf8'));
  let title = '';
  const rows: { cls: string; cells: string[] }[] = [];
  walk(doc as unknown as Node, (e) => {
    if (e.tagName === 'title') title = textOf(e);
    if (e.tagName === 'tr') {
      const cells = e.childNodes.filter((c) => isElement(c as Node) && ['td', 'th'].includes((c as Element).tagName)).map((c) => textOf(c as Node));
      rows.push({ cls: e.attrs.find((a) => a.name === 'class')?.value ?? '', cells });
    }
  });
  return { title, rows };
}
