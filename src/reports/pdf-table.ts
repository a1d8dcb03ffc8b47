// pdfkit (with its font and compression modules) loads on the first PDF, not with the service.
import type PDFDocument from 'pdfkit';

/** One line of a PDF table: its cells (already text), and how it is drawn. */
export interface PdfLine {
  cells: string[];
  style: 'detail' | 'group' | 'total' | 'grand';
}

/** The columns and lines of a table. */
export interface PdfColumns {
  headers: string[];
  /** Relative widths of the columns. */
  weights: number[];
  rightAligned: boolean[];
  lines: PdfLine[];
  /** Draws what heads a continuation page (a form's title); answers the y under it. */
  continued?: (doc: PDFKit.PDFDocument) => number;
}

/** Who ran a report and when, printed above it. */
export interface ReportHeading {
  company: string;
  runAt: string;
  user: string;
}

export interface PdfTable extends PdfColumns {
  title: string;
  subtitle: string[];
  /** Text under the table (a document's footer lines). */
  footer?: string[];
  landscape?: boolean;
  heading?: ReportHeading;
}

export const MARGIN = 36;
const ROW = 13;

/** Collects a PDFKit document into one buffer. */
export function pdfBuffer(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

/** A new A4 document whose pages stay open until they are numbered. Standard PDF fonts only: nothing to embed or load. */
export async function openPdf(title: string, landscape = false): Promise<PDFKit.PDFDocument> {
  const { default: PdfDocument }: { default: typeof PDFDocument } = await import('pdfkit');
  return new PdfDocument({ size: 'A4', layout: landscape ? 'landscape' : 'portrait', margin: MARGIN, bufferPages: true, info: { Title: title, Producer: 'Dictum', Creator: 'Dictum' } });
}

/** The lowest a line may start on a page, above the page number. */
export const pageBottom = (doc: PDFKit.PDFDocument): number => doc.page.height - MARGIN - 20;

/** Starts a new page when `height` more does not fit under y; the y to draw at. */
export function room(doc: PDFKit.PDFDocument, y: number, height: number): number {
  if (y + height <= pageBottom(doc)) return y;
  doc.addPage();
  return MARGIN;
}

/** Draws a table from y on, continued over pages with its header repeated; the y under it. */
export function drawTable(doc: PDFKit.PDFDocument, t: PdfColumns, top: number): number {
  const width = doc.page.width - 2 * MARGIN;
  const total = t.weights.reduce((a, b) => a + b, 0);
  const widths = t.weights.map((w) => (w / total) * width);
  const xs = widths.map((_, i) => MARGIN + widths.slice(0, i).reduce((a, b) => a + b, 0));
  let y = top;
  const header = (): void => {
    doc.font('Helvetica-Bold').fontSize(8);
    t.headers.forEach((h, i) => doc.text(h, xs[i]! + 2, y + 2, { width: widths[i]! - 4, align: t.rightAligned[i] ? 'right' : 'left', lineBreak: false, ellipsis: true, height: ROW }));
    y += ROW;
    doc.moveTo(MARGIN, y).lineTo(MARGIN + width, y).lineWidth(0.8).stroke();
    y += 2;
  };
  header();
  for (const line of t.lines) {
    if (y + ROW > pageBottom(doc)) {
      doc.addPage();
      y = t.continued ? t.continued(doc) : MARGIN;
      header();
    }
    if (line.style === 'total' || line.style === 'grand') {
      doc.moveTo(MARGIN, y).lineTo(MARGIN + width, y).lineWidth(line.style === 'grand' ? 1 : 0.4).stroke();
      y += 1;
    }
    doc.font(line.style === 'detail' ? 'Helvetica' : line.style === 'group' ? 'Helvetica-Oblique' : 'Helvetica-Bold').fontSize(8);
    if (line.style === 'group') doc.text(line.cells[0] ?? '', MARGIN + 2, y + 2, { width: width - 4, lineBreak: false, ellipsis: true, height: ROW });
    else line.cells.forEach((c, i) => doc.text(c, xs[i]! + 2, y + 2, { width: widths[i]! - 4, align: t.rightAligned[i] ? 'right' : 'left', lineBreak: false, ellipsis: true, height: ROW }));
    y += ROW;
  }
  return y;
}

/** Writes "Page n of m" at the foot of every page, and `left` (the sender, the report's company) opposite it. */
export function numberPages(doc: PDFKit.PDFDocument, left = ''): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const width = doc.page.width - 2 * MARGIN;
    // Text below the bottom margin would make PDFKit start a new page: lift the margin while writing the footer.
    const bottomMargin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - MARGIN + 8;
    doc.font('Helvetica').fontSize(7);
    if (left) doc.text(left, MARGIN, y, { width: width / 2, lineBreak: false, ellipsis: true, height: 10 });
    doc.text(`Page ${i + 1} of ${range.count}`, MARGIN + width / 2, y, { width: width / 2, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottomMargin;
  }
}

/**
 * Draws a report: its company with the run's date and user above the title, the parameters under
 * it, and a table that continues over pages (the header repeated on each), with page numbers at
 * the foot.
 */
export async function renderPdfTable(t: PdfTable): Promise<Buffer> {
  const doc = await openPdf(t.title, t.landscape);
  const width = doc.page.width - 2 * MARGIN;
  let top = MARGIN;
  if (t.heading) {
    doc.font('Helvetica-Bold').fontSize(9).text(t.heading.company, MARGIN, top, { width: width / 2, lineBreak: false, ellipsis: true, height: 12 });
    doc.font('Helvetica').fontSize(8).text(`Run on ${t.heading.runAt} by ${t.heading.user}`, MARGIN + width / 2, top, { width: width / 2, align: 'right', lineBreak: false, ellipsis: true, height: 12 });
    top += 16;
  }
  doc.font('Helvetica-Bold').fontSize(14).text(t.title, MARGIN, top);
  doc.font('Helvetica').fontSize(9);
  for (const s of t.subtitle) doc.text(s);
  let y = drawTable(doc, t, doc.y + 8);
  if (t.footer?.length) {
    y += 10;
    doc.font('Helvetica').fontSize(9);
    for (const f of t.footer) {
      y = room(doc, y, ROW);
      doc.text(f, MARGIN, y, { width, lineBreak: false });
      y += ROW;
    }
  }
  numberPages(doc, t.heading?.company ?? '');
  return pdfBuffer(doc);
}
