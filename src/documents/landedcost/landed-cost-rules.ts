import type { ModelEvent, ModelEvents } from '../../events/model-events.js';
import { lockParentFirst } from '../../records/write/persist.js';
import { idOf, invalid } from '../row-values.js';

const INVOICE_OF_LINE = `SELECT i.documentno, i.issotrx, i.processed, i.docstatus FROM c_invoiceline l JOIN c_invoice i ON i.c_invoice_id = l.c_invoice_id WHERE l.c_invoiceline_id = $1`;

/** The landed costs and allocations of an invoice line belong to a vendor invoice that is not processed yet. */
async function requireOpenVendorInvoice(e: ModelEvent): Promise<void> {
  const row = e.type === 'before-delete' ? (e.old ?? e.row) : e.row;
  const { rows } = await e.tx.query<{ documentno: string; issotrx: string; processed: string; docstatus: string }>(INVOICE_OF_LINE, [idOf(row.c_invoiceline_id)]);
  const invoice = rows[0];
  if (!invoice) throw invalid(`Invoice line ${String(row.c_invoiceline_id)} not found (column C_InvoiceLine_ID)`);
  if (invoice.issotrx === 'Y') throw invalid(`Invoice ${invoice.documentno} is a customer invoice: landed costs are distributed by vendor invoices only (column C_InvoiceLine_ID)`);
  if (invoice.processed === 'Y' || ['CO', 'CL', 'RE', 'VO'].includes(invoice.docstatus)) {
    throw invalid(`Invoice ${invoice.documentno} is processed: the landed costs of its lines cannot change (column C_InvoiceLine_ID)`);
  }
}

/**
 * A landed cost names where its line's amount goes: a receipt (M_InOut_ID, optionally only its
 * lines of a product), a receipt line (M_InOutLine_ID, which then names the receipt and no
 * product) or a product (M_Product_ID), as the original's landed cost before save.
 */
export async function landedCostBeforeSave(e: ModelEvent): Promise<void> {
  await requireOpenVendorInvoice(e);
  if (e.type === 'before-delete') return;
  const row = e.row;
  const lineId = idOf(row.m_inoutline_id);
  if (idOf(row.m_product_id) === null && idOf(row.m_inout_id) === null && lineId === null) {
    throw invalid('A landed cost names a receipt, a receipt line or a product to distribute to (columns M_InOut_ID, M_InOutLine_ID, M_Product_ID)');
  }
  if (lineId !== null) {
    row.m_product_id = null;
    const { rows } = await e.tx.query<{ m_inout_id: number }>('SELECT m_inout_id FROM m_inoutline WHERE m_inoutline_id = $1', [lineId]);
    if (rows[0]) row.m_inout_id = rows[0].m_inout_id;
  }
}

/** Landed costs and their allocations: children of the invoice line, written while its vendor invoice is open. */
export function registerLandedCostRules(events: ModelEvents): void {
  for (const table of ['c_landedcost', 'c_landedcostallocation']) lockParentFirst(table, 'c_invoiceline', 'c_invoiceline_id', 'c_invoiceline_id');
  for (const type of ['before-new', 'before-change', 'before-delete'] as const) {
    events.on(type, 'c_landedcost', landedCostBeforeSave);
    events.on(type, 'c_landedcostallocation', requireOpenVendorInvoice);
  }
}
