import { drawTable, MARGIN, numberPages, openPdf, pageBottom, pdfBuffer, type PdfColumns } from '../reports/pdf-table.js';
import { letterheadLines, type Letterhead } from './letterhead.js';

/** One line of a form's totals block: a label and its amount, the grand total in bold under a rule. */
export interface TotalLine {
  label: string;
  value: string;
  grand?: boolean;
}

/** A document form as the PDF draws it (all values already text). */
export interface PdfForm extends PdfColumns {
  title: string;
  letterhead: Letterhead | null;
  /** The partner's address block: name first. */
  recipient: string[];
  /** Label and value pairs beside the address block (number, date, status...). */
  details: [string, string][];
  /** Free lines above the table (a description). */
  notes: string[];
  totals: TotalLine[];
  /** Lines under the totals. */
  footer: string[];
}

const LOGO_WIDTH = 140;
const LOGO_HEIGHT = 56;
const TOTALS_WIDTH = 230;

/**
 * Draws a document form: the sender's letterhead (logo at the left, name, address, tax id and
 * contacts at the right), the partner's address block at the left beside the title and the
 * document's details, the lines, then the totals right-aligned at the right margin, and
 * "Page n of m" at the foot of every page.
 */
export async function renderPdfForm(f: PdfForm): Promise<Buffer> {
  const doc = await openPdf(f.title);
  const width = doc.page.width - 2 * MARGIN;
  const right = MARGIN + width;
  let y = MARGIN;
  if (f.letterhead) {
    const l = f.letterhead;
    let logoBottom = y;
    if (l.logo) {
      try {
        doc.image(l.logo, MARGIN, y, { fit: [LOGO_WIDTH, LOGO_HEIGHT] });
        logoBottom = y + LOGO_HEIGHT;
      } catch {
        // An image PDFKit cannot read leaves the letterhead without its logo rather than failing the print.
      }
    }
    const textX = MARGIN + LOGO_WIDTH + 10;
    const textWidth = right - textX;
    doc.font('Helvetica-Bold').fontSize(12).text(l.name, textX, y, { width: textWidth, align: 'right' });
    doc.font('Helvetica').fontSize(8);
    for (const line of letterheadLines(l)) doc.text(line, textX, doc.y, { width: textWidth, align: 'right' });
    y = Math.max(logoBottom, doc.y) + 8;
    doc.moveTo(MARGIN, y).lineTo(right, y).lineWidth(0.5).stroke();
    y += 14;
  }
  const columnWidth = width / 2 - 10;
  const detailsX = MARGIN + width / 2 + 10;
  let left = y;
  f.recipient.forEach((line, i) => {
    doc.font(i === 0 ? 'Helvetica-Bold' : 'Helvetica').fontSize(i === 0 ? 10 : 9).text(line, MARGIN, left, { width: columnWidth });
    left = doc.y;
  });
  doc.font('Helvetica-Bold').fontSize(14).text(f.title, detailsX, y, { width: columnWidth, align: 'right' });
  let rightY = doc.y + 4;
  for (const [label, value] of f.details) {
    doc.font('Helvetica').fontSize(8).text(label, detailsX, rightY, { width: columnWidth * 0.35, lineBreak: false, ellipsis: true, height: 11 });
    doc.font('Helvetica-Bold').fontSize(8).text(value, detailsX + columnWidth * 0.35, rightY, { width: columnWidth * 0.65, align: 'right', lineBreak: false, ellipsis: true, height: 11 });
    rightY += 11;
  }
  y = Math.max(left, rightY) + 12;
  doc.font('Helvetica').fontSize(9);
  for (const note of f.notes) {
    doc.text(note, MARGIN, y, { width });
    y = doc.y + 2;
  }
  const continued = (d: PDFKit.PDFDocument): number => {
    d.font('Helvetica-Bold').fontSize(9).text(`${f.title} (continued)`, MARGIN, MARGIN, { width, lineBreak: false });
    return MARGIN + 18;
  };
  y = drawTable(doc, { ...f, continued }, y + 4) + 8;
  /** Room for `height` more under y, else a continuation page. */
  const keep = (height: number): void => {
    if (y + height <= pageBottom(doc)) return;
    doc.addPage();
    y = continued(doc);
  };
  // The totals stay together.
  keep(f.totals.length * 13 + 4);
  const labelX = right - TOTALS_WIDTH;
  for (const t of f.totals) {
    if (t.grand) {
      doc.moveTo(labelX, y).lineTo(right, y).lineWidth(1).stroke();
      y += 3;
    }
    doc.font(t.grand ? 'Helvetica-Bold' : 'Helvetica').fontSize(t.grand ? 10 : 9);
    doc.text(t.label, labelX, y, { width: TOTALS_WIDTH * 0.55, lineBreak: false, ellipsis: true, height: 13 });
    doc.text(t.value, labelX + TOTALS_WIDTH * 0.55, y, { width: TOTALS_WIDTH * 0.45, align: 'right', lineBreak: false, height: 13 });
    y += 13;
  }
  y += 6;
  doc.font('Helvetica').fontSize(9);
  for (const line of f.footer) {
    keep(13);
    doc.text(line, MARGIN, y, { width, lineBreak: false });
    y += 13;
  }
  numberPages(doc, f.letterhead?.name ?? '');
  return pdfBuffer(doc);
}
