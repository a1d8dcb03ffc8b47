import type { AuthContext } from '../auth/context.js';
import type { Queryable } from '../db/types.js';
import type { Table } from '../dictionary/model.js';
import { badRequest } from '../errors.js';
import type { ReportType } from '../processes/parameters.js';
import { renderPdfTable } from '../reports/pdf-table.js';
import { renderReport, type RenderedFile } from '../reports/render-report.js';
import { buildReport, type CellValue, type ColumnType, type ReportColumn } from '../reports/report-model.js';

/** A printable document kind: its form's title, where its lines and taxes are, which print format lays it out. */
interface DocumentForm {
  title: (isSOTrx: boolean) => string;
  printFormat: string;
  header: string;
  lines: string;
  lineKey: string;
  qty: string;
  amounts: boolean;
  taxes: string | null;
  date: string;
}

const FORMS: Record<string, DocumentForm> = {
  c_order: { title: (so) => (so ? 'Sales Order' : 'Purchase Order'), printFormat: 'Order_Header', header: 'c_order', lines: 'c_orderline', lineKey: 'c_order_id', qty: 'qtyordered', amounts: true, taxes: 'c_ordertax', date: 'dateordered' },
  c_invoice: { title: (so) => (so ? 'Invoice' : 'Vendor Invoice'), printFormat: 'Invoice_Header', header: 'c_invoice', lines: 'c_invoiceline', lineKey: 'c_invoice_id', qty: 'qtyinvoiced', amounts: true, taxes: 'c_invoicetax', date: 'dateinvoiced' },
  m_inout: { title: (so) => (so ? 'Shipment' : 'Material Receipt'), printFormat: 'Shipment_Header', header: 'm_inout', lines: 'm_inoutline', lineKey: 'm_inout_id', qty: 'movementqty', amounts: false, taxes: null, date: 'movementdate' },
};

const money = (n: number): string => n.toFixed(2);

interface HeaderRow {
  documentno: string;
  issotrx: string;
  docstatus: string | null;
  doc_date: string | null;
  poreference: string | null;
  description: string | null;
  org: string | null;
  bpartner: string | null;
  bpvalue: string | null;
  address1: string | null;
  postal: string | null;
  city: string | null;
  country: string | null;
  contact: string | null;
  totallines: number | null;
  grandtotal: number | null;
  currency: string | null;
  c_bpartner_id: number | null;
}

/** A printed form: its title, header lines, the columns and cells of its lines, and footer lines. */
export interface PrintedForm {
  title: string;
  headerLines: string[];
  columns: { label: string; type: ColumnType }[];
  cells: CellValue[][];
  footer: string[];
}

/** A form as a PDF (lines in a table, amounts with two decimals), or as a report of its lines in HTML, CSV or a spreadsheet. */
export async function renderForm(f: PrintedForm, type: ReportType | null): Promise<RenderedFile> {
  const { title, headerLines, columns, cells, footer } = f;
  if ((type ?? 'PDF') === 'PDF') {
    const data = await renderPdfTable({
      title,
      subtitle: headerLines,
      headers: columns.map((c) => c.label),
      weights: columns.map((c) => (c.type === 'text' ? (c.label === 'Product' ? 4 : 1.2) : 1)),
      rightAligned: columns.map((c) => c.type !== 'text'),
      lines: cells.map((row) => ({ cells: row.map((v, i) => (v === null ? '' : typeof v === 'number' && columns[i]!.type === 'amount' ? money(v) : String(v))), style: 'detail' as const })),
      footer,
    });
    return { data, contentType: 'application/pdf', extension: 'pdf' };
  }
  const reportColumns: ReportColumn[] = columns.map((c) => ({ name: c.label, label: c.label, type: c.type, sum: c.label === 'Amount' }));
  return renderReport(buildReport({ title, subtitle: headerLines.join('; '), columns: reportColumns, rows: cells, groupBy: null, isSummary: false }), type);
}

/** Printed forms of documents laid out by their own modules (bank statements, cash journals), by table. */
const OWN_FORMS = new Map<string, (q: Queryable, table: Table, id: number, type: ReportType | null) => Promise<PrintedDocument>>();

export function registerPrintedForm(table: string, print: (q: Queryable, table: Table, id: number, type: ReportType | null) => Promise<PrintedDocument>): void {
  OWN_FORMS.set(table, print);
}

export interface PrintedDocument {
  file: RenderedFile;
  /** The form's title and number ("Sales Order 80000"). */
  title: string;
  name: string;
  printFormatName: string;
  bpartnerId: number | null;
}

/**
 * The printed form of a document (sales order, invoice, shipment): organisation, partner and
 * address, the document's number, date and status, its lines and, for orders and invoices, the
 * tax lines and totals. PDF by default; HTML, CSV and XLSX give the same lines as a report.
 */
export async function printDocument(q: Queryable, auth: AuthContext, table: Table, id: number, type: ReportType | null): Promise<PrintedDocument> {
  const own = OWN_FORMS.get(table.dbName);
  if (own) return own(q, table, id, type);
  const form = FORMS[table.dbName];
  if (!form) throw badRequest('Invalid table', `${table.name} records have no printed form`);
  const amounts = form.amounts ? 'h.totallines::float8 AS totallines, h.grandtotal::float8 AS grandtotal, cur.iso_code AS currency' : 'NULL::float8 AS totallines, NULL::float8 AS grandtotal, NULL AS currency';
  const { rows } = await q.query<HeaderRow>(
    `SELECT h.documentno, h.issotrx, h.docstatus, to_char(h.${form.date}, 'YYYY-MM-DD') AS doc_date, h.poreference, h.description,
            o.name AS org, bp.name AS bpartner, bp.value AS bpvalue, l.address1, l.postal, l.city, co.name AS country, u.name AS contact, h.c_bpartner_id,
            ${amounts}
       FROM ${form.header} h
       LEFT JOIN ad_org o ON o.ad_org_id = h.ad_org_id
       LEFT JOIN c_bpartner bp ON bp.c_bpartner_id = h.c_bpartner_id
       LEFT JOIN c_bpartner_location bpl ON bpl.c_bpartner_location_id = h.c_bpartner_location_id
       LEFT JOIN c_location l ON l.c_location_id = bpl.c_location_id
       LEFT JOIN c_country co ON co.c_country_id = l.c_country_id
       LEFT JOIN ad_user u ON u.ad_user_id = h.ad_user_id
       ${form.amounts ? 'LEFT JOIN c_currency cur ON cur.c_currency_id = h.c_currency_id' : ''}
      WHERE h.${form.lineKey} = $1`,
    [id],
  );
  const h = rows[0];
  if (!h) throw badRequest('Invalid record', `No ${table.name} ${id}`);
  const lineAmounts = form.amounts ? 'ln.priceactual::float8 AS price, ln.linenetamt::float8 AS amount' : 'NULL::float8 AS price, NULL::float8 AS amount';
  const lines = await q.query<{ line: number; product: string | null; qty: number; uom: string | null; price: number | null; amount: number | null }>(
    `SELECT ln.line::int AS line, coalesce(p.name, ${form.amounts ? 'ch.name, ' : ''}ln.description, '') AS product, ln.${form.qty}::float8 AS qty, uom.name AS uom, ${lineAmounts}
       FROM ${form.lines} ln LEFT JOIN m_product p ON p.m_product_id = ln.m_product_id
       ${form.amounts ? 'LEFT JOIN c_charge ch ON ch.c_charge_id = ln.c_charge_id' : ''}
       LEFT JOIN c_uom uom ON uom.c_uom_id = ln.c_uom_id
      WHERE ln.${form.lineKey} = $1 AND ln.isactive = 'Y' ORDER BY ln.line, 1`,
    [id],
  );
  const taxes = form.taxes
    ? (await q.query<{ name: string; base: number; amount: number }>(
        `SELECT t.name, x.taxbaseamt::float8 AS base, x.taxamt::float8 AS amount FROM ${form.taxes} x JOIN c_tax t ON t.c_tax_id = x.c_tax_id WHERE x.${form.lineKey} = $1 ORDER BY t.name`,
        [id],
      )).rows
    : [];
  const title = `${form.title(h.issotrx === 'Y')} ${h.documentno}`;
  const address = [h.address1, [h.postal, h.city].filter(Boolean).join(' '), h.country].filter((x) => x && String(x).trim()).join(', ');
  const headerLines = [
    `${h.org ?? ''}`,
    `Business Partner: ${h.bpartner ?? ''}${h.bpvalue ? ` (${h.bpvalue})` : ''}`,
    ...(address ? [`Address: ${address}`] : []),
    ...(h.contact ? [`Contact: ${h.contact}`] : []),
    `Date: ${h.doc_date ?? ''}   Status: ${h.docstatus ?? ''}${h.poreference ? `   Reference: ${h.poreference}` : ''}`,
    ...(h.description ? [h.description] : []),
  ];
  const columns: { label: string; type: ColumnType }[] = [
    { label: 'Line', type: 'number' },
    { label: 'Product', type: 'text' },
    { label: 'Quantity', type: 'quantity' },
    { label: 'Unit', type: 'text' },
    ...(form.amounts ? [{ label: 'Price', type: 'amount' as const }, { label: 'Amount', type: 'amount' as const }] : []),
  ];
  const cells: CellValue[][] = lines.rows.map((l) => [l.line, l.product, l.qty, l.uom, ...(form.amounts ? [l.price, l.amount] : [])]);
  const footer = form.amounts
    ? [
        `Total Lines: ${money(h.totallines ?? 0)} ${h.currency ?? ''}`.trim(),
        ...taxes.map((t) => `${t.name}: ${money(t.amount)} on ${money(t.base)}`),
        `Grand Total: ${money(h.grandtotal ?? 0)} ${h.currency ?? ''}`.trim(),
      ]
    : [`Lines: ${lines.rows.length}`];
  const name = `${form.title(h.issotrx === 'Y').replace(/\s+/g, '_')}_${h.documentno}`;
  const file = await renderForm({ title, headerLines, columns, cells, footer }, type);
  return { file, title, name: `${name}.${file.extension}`, printFormatName: form.printFormat, bpartnerId: h.c_bpartner_id === null ? null : Number(h.c_bpartner_id) };
}
