// pdfkit (with its font and compression modules) loads on the first PDF, not with the service.
import type PDFDocument from 'pdfkit';

/** One line of a PDF table: its cells (already text), and how it is drawn. */
export interface PdfLine {
  cells: string[];
  style: 'detail' | 'group' | 'total' | 'grand';
}

export interface PdfTable {
  title: string;
  subtitle: string[];
  headers: string[];
  /** Relative widths of the columns. */
  weights: number[];
  rightAligned: boolean[];
  lines: PdfLine[];
  /** Text under the table (a document's footer lines). */
  footer?: string[];
  landscape?: boolean;
}

const MARGIN = 36;
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

/**
 * Draws a title, subtitle lines and a table that continues over pages (the header repeated on each),
 * with page numbers at the foot. Standard PDF fonts only: nothing to embed or load.
 */
export async function renderPdfTable(t: PdfTable): Promise<Buffer> {
  const { default: PdfDocument }: { default: typeof PDFDocument } = await import('pdfkit');
  const doc = new PdfDocument({ size: 'A4', layout: t.landscape ? 'landscape' : 'portrait', margin: MARGIN, bufferPages: true, info: { Title: t.title, Producer: 'Dictum', Creator: 'Dictum' } });
  const width = doc.page.width - 2 * MARGIN;
  const total = t.weights.reduce((a, b) => a + b, 0);
  const widths = t.weights.map((w) => (w / total) * width);
  const xs = widths.map((_, i) => MARGIN + widths.slice(0, i).reduce((a, b) => a + b, 0));
  const bottom = (): number => doc.page.height - MARGIN - 20;
  doc.font('Helvetica-Bold').fontSize(14).text(t.title, MARGIN, MARGIN);
  doc.font('Helvetica').fontSize(9);
  for (const s of t.subtitle) doc.text(s);
  let y = doc.y + 8;
  const header = (): void => {
    doc.font('Helvetica-Bold').fontSize(8);
    t.headers.forEach((h, i) => doc.text(h, xs[i]! + 2, y + 2, { width: widths[i]! - 4, align: t.rightAligned[i] ? 'right' : 'left', lineBreak: false, ellipsis: true, height: ROW }));
    y += ROW;
    doc.moveTo(MARGIN, y).lineTo(MARGIN + width, y).lineWidth(0.8).stroke();
    y += 2;
  };
  header();
  for (const line of t.lines) {
    if (y + ROW > bottom()) {
      doc.addPage();
      y = MARGIN;
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
  if (t.footer?.length) {
    y += 10;
    doc.font('Helvetica').fontSize(9);
    for (const f of t.footer) {
      if (y + ROW > bottom()) {
        doc.addPage();
        y = MARGIN;
      }
      doc.text(f, MARGIN, y, { width, lineBreak: false });
      y += ROW;
    }
  }
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Text below the bottom margin would make PDFKit start a new page: lift the margin while writing the footer.
    const bottomMargin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('Helvetica').fontSize(7).text(`Page ${i + 1} of ${range.count}`, MARGIN, doc.page.height - MARGIN + 8, { width, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottomMargin;
  }
  return pdfBuffer(doc);
}
