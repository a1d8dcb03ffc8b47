import type { AuthContext } from '../auth/context.js';
import type { Queryable } from '../db/types.js';
import type { Table } from '../dictionary/model.js';
import { badRequest } from '../errors.js';
import type { ReportType } from '../processes/parameters.js';
import { locationLines } from './address.js';
import { letterheadLines, loadLetterhead, type Letterhead } from './letterhead.js';
import { renderPdfForm, type TotalLine } from './pdf-form.js';
import { amountText, DOCUMENT_STATUS_LIST, listName, localeOf, quantityText, type NumberStyle } from './print-text.js';
import { renderReport, type RenderedFile } from '../reports/render-report.js';
import { buildReport, type CellValue, type ColumnType, type ReportColumn } from '../reports/report-model.js';

/** A printable document kind: its form's title, where its lines and taxes are, which print format lays it out. */
interface FormOfKind {
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

const FORMS: Record<string, FormOfKind> = {
  c_order: { title: (so) => (so ? 'Sales Order' : 'Purchase Order'), printFormat: 'Order_Header', header: 'c_order', lines: 'c_orderline', lineKey: 'c_order_id', qty: 'qtyordered', amounts: true, taxes: 'c_ordertax', date: 'dateordered' },
  c_invoice: { title: (so) => (so ? 'Invoice' : 'Vendor Invoice'), printFormat: 'Invoice_Header', header: 'c_invoice', lines: 'c_invoiceline', lineKey: 'c_invoice_id', qty: 'qtyinvoiced', amounts: true, taxes: 'c_invoicetax', date: 'dateinvoiced' },
  m_inout: { title: (so) => (so ? 'Shipment' : 'Material Receipt'), printFormat: 'Shipment_Header', header: 'm_inout', lines: 'm_inoutline', lineKey: 'm_inout_id', qty: 'movementqty', amounts: false, taxes: null, date: 'movementdate' },
};

/** An amount with two decimals and no grouping (forms written before letterheads, and CSV-like text). */
export const money = (n: number): string => n.toFixed(2);

interface HeaderRow {
  documentno: string;
  issotrx: string;
  docstatus: string | null;
  doc_date: string | null;
  poreference: string | null;
  description: string | null;
  ad_org_id: number;
  bpartner: string | null;
  bpvalue: string | null;
  c_location_id: number | null;
  contact: string | null;
  totallines: number | null;
  grandtotal: number | null;
  currency: string | null;
  c_currency_id: number | null;
  c_bpartner_id: number | null;
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
 * A document's form: the sender's letterhead, the partner's address block, the document's details
 * (label and value), notes, line columns and cells, the totals, footer lines, and how its numbers
 * are written. A form that gives only `headerLines` (a title's lines, as forms had before
 * letterheads) prints them under its title; without `numbers`, amounts have two decimals.
 */
export interface DocumentForm {
  title: string;
  columns: { label: string; type: ColumnType }[];
  cells: CellValue[][];
  footer: string[];
  headerLines?: string[];
  letterhead?: Letterhead | null;
  recipient?: string[];
  details?: [string, string][];
  notes?: string[];
  totals?: TotalLine[];
  numbers?: NumberStyle;
}

/** What every form of a document shares: its organisation's letterhead and its numbers in the user's language and the currency's precision. */
export interface FormContext {
  letterhead: Letterhead;
  numbers: NumberStyle;
}

export async function formContext(q: Queryable, auth: AuthContext, orgId: number, currencyId: number | null): Promise<FormContext> {
  const { rows } = await q.query<{ p: number }>(`SELECT stdprecision::int AS p FROM c_currency WHERE c_currency_id = $1`, [currencyId ?? 0]);
  return { letterhead: await loadLetterhead(q, auth.clientId, orgId), numbers: { locale: localeOf(auth.language), precision: rows[0]?.p ?? 2 } };
}

/** A cell of a form as printed: amounts at the currency's precision, quantities, both with grouping. */
function cellOfForm(v: CellValue, type: ColumnType, numbers: NumberStyle): string {
  if (v === null) return '';
  if (typeof v !== 'number') return String(v);
  if (type === 'amount') return amountText(v, numbers);
  if (type === 'quantity') return quantityText(v, numbers);
  return String(v);
}

/** Renders a form: a PDF with letterhead by default; HTML, CSV and spreadsheets give the same lines as a report (amount columns summed). */
export async function renderDocumentForm(f: DocumentForm, type: ReportType | null): Promise<RenderedFile> {
  const { title, columns, cells } = f;
  const numbers = f.numbers ?? { locale: 'en-US', precision: 2 };
  const notes = [...(f.headerLines ?? []), ...(f.notes ?? [])];
  if ((type ?? 'PDF') === 'PDF') {
    const data = await renderPdfForm({
      title,
      letterhead: f.letterhead ?? null,
      recipient: f.recipient ?? [],
      details: f.details ?? [],
      notes,
      headers: columns.map((c) => c.label),
      weights: columns.map((c) => (c.type === 'text' ? (c.label === 'Product' || c.label === 'Account' ? 4 : 1.2) : 1)),
      rightAligned: columns.map((c) => c.type !== 'text'),
      lines: cells.map((row) => ({ cells: row.map((v, i) => cellOfForm(v, columns[i]!.type, numbers)), style: 'detail' as const })),
      totals: f.totals ?? [],
      footer: f.footer,
    });
    return { data, contentType: 'application/pdf', extension: 'pdf' };
  }
  const subtitle = [
    ...(f.letterhead ? [f.letterhead.name, ...letterheadLines(f.letterhead)] : []),
    (f.recipient ?? []).join(', '),
    ...(f.details ?? []).map(([label, value]) => `${label}: ${value}`),
    ...notes,
    ...(f.totals ?? []).map((t) => `${t.label}: ${t.value}`),
  ].filter(Boolean);
  const reportColumns: ReportColumn[] = columns.map((c) => ({ name: c.label, label: c.label, type: c.type, sum: c.type === 'amount' && c.label !== 'Price' }));
  return renderReport(buildReport({ title, subtitle: subtitle.join('; '), columns: reportColumns, rows: cells, groupBy: null, isSummary: false }), type);
}

/** The partner's address block: its name, the contact, the lines of its location. */
export async function recipientBlock(q: Queryable, partner: string | null, contact: string | null, locationId: number | null): Promise<string[]> {
  return [partner ?? '', ...(contact ? [`Attn: ${contact}`] : []), ...(await locationLines(q, locationId))].filter(Boolean);
}

/** Printers of documents whose form is their own (registered by their document folders). */
export type DocumentPrinter = (q: Queryable, auth: AuthContext, table: Table, id: number, type: ReportType | null) => Promise<PrintedDocument>;
const PRINTERS = new Map<string, DocumentPrinter>();

export function registerDocumentPrinter(table: string, printer: DocumentPrinter): void {
  PRINTERS.set(table, printer);
}

/**
 * The printed form of a document (sales order, invoice, shipment): organisation, partner and
 * address, the document's number, date and status, its lines and, for orders and invoices, the
 * tax lines and totals. PDF by default; HTML, CSV and XLSX give the same lines as a report.
 */
export async function printDocument(q: Queryable, auth: AuthContext, table: Table, id: number, type: ReportType | null): Promise<PrintedDocument> {
  const own = PRINTERS.get(table.dbName);
  if (own) return own(q, auth, table, id, type);
  const form = FORMS[table.dbName];
  if (!form) throw badRequest('Invalid table', `${table.name} records have no printed form`);
  const amounts = form.amounts
    ? 'h.totallines::float8 AS totallines, h.grandtotal::float8 AS grandtotal, cur.iso_code AS currency, h.c_currency_id'
    : 'NULL::float8 AS totallines, NULL::float8 AS grandtotal, NULL AS currency, NULL::int AS c_currency_id';
  const { rows } = await q.query<HeaderRow>(
    `SELECT h.documentno, h.issotrx, h.docstatus, to_char(h.${form.date}, 'YYYY-MM-DD') AS doc_date, h.poreference, h.description, h.ad_org_id,
            bp.name AS bpartner, bp.value AS bpvalue, bpl.c_location_id, u.name AS contact, h.c_bpartner_id,
            ${amounts}
       FROM ${form.header} h
       LEFT JOIN c_bpartner bp ON bp.c_bpartner_id = h.c_bpartner_id
       LEFT JOIN c_bpartner_location bpl ON bpl.c_bpartner_location_id = h.c_bpartner_location_id
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
  const ctx = await formContext(q, auth, Number(h.ad_org_id), h.c_currency_id === null ? null : Number(h.c_currency_id));
  const title = `${form.title(h.issotrx === 'Y')} ${h.documentno}`;
  const details: [string, string][] = [
    ['Document No', h.documentno],
    ['Date', h.doc_date ?? ''],
    ['Status', await listName(q, DOCUMENT_STATUS_LIST, h.docstatus, auth.language)],
    ...(h.bpvalue ? [['Partner No', h.bpvalue] as [string, string]] : []),
    ...(h.poreference ? [['Reference', h.poreference] as [string, string]] : []),
    ...(h.currency ? [['Currency', h.currency] as [string, string]] : []),
  ];
  const columns: { label: string; type: ColumnType }[] = [
    { label: 'Line', type: 'number' },
    { label: 'Product', type: 'text' },
    { label: 'Quantity', type: 'quantity' },
    { label: 'Unit', type: 'text' },
    ...(form.amounts ? [{ label: 'Price', type: 'amount' as const }, { label: 'Amount', type: 'amount' as const }] : []),
  ];
  const cells: CellValue[][] = lines.rows.map((l) => [l.line, l.product, l.qty, l.uom, ...(form.amounts ? [l.price, l.amount] : [])]);
  const amount = (n: number | null): string => `${amountText(n ?? 0, ctx.numbers)} ${h.currency ?? ''}`.trim();
  const totals: TotalLine[] = form.amounts
    ? [
        { label: 'Total Lines', value: amount(h.totallines) },
        ...taxes.map((t) => ({ label: `${t.name} on ${amountText(t.base, ctx.numbers)}`, value: amount(t.amount) })),
        { label: 'Grand Total', value: amount(h.grandtotal), grand: true },
      ]
    : [];
  const name = `${form.title(h.issotrx === 'Y').replace(/\s+/g, '_')}_${h.documentno}`;
  const file = await renderDocumentForm(
    {
      title,
      letterhead: ctx.letterhead,
      recipient: await recipientBlock(q, h.bpartner, h.contact, h.c_location_id === null ? null : Number(h.c_location_id)),
      details,
      notes: h.description ? [h.description] : [],
      columns,
      cells,
      totals,
      footer: form.amounts ? [] : [`Lines: ${lines.rows.length}`],
      numbers: ctx.numbers,
    },
    type,
  );
  return { file, title, name: `${name}.${file.extension}`, printFormatName: form.printFormat, bpartnerId: h.c_bpartner_id === null ? null : Number(h.c_bpartner_id) };
}
