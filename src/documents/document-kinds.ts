/**
 * The documents whose lines carry prices and taxes: where each keeps its header, lines, tax rows,
 * document date and line quantity. Names are physical (lower-case) table and column names. The
 * document types each takes are in DOCUMENT_TYPE_RULES (document-types.ts).
 */
export interface DocumentKind {
  /** Table name as the dictionary spells it, for messages. */
  name: string;
  header: string;
  headerKey: string;
  line: string;
  lineKey: string;
  lineName: string;
  tax: string;
  taxUu: string;
  /** The date prices and taxes are valid on. */
  dateColumn: string;
  /** The quantity in the product's unit (QtyEntered is in the line's unit). */
  qtyColumn: string;
}

export const ORDER: DocumentKind = {
  name: 'C_Order',
  header: 'c_order',
  headerKey: 'c_order_id',
  line: 'c_orderline',
  lineKey: 'c_orderline_id',
  lineName: 'C_OrderLine',
  tax: 'c_ordertax',
  taxUu: 'c_ordertax_uu',
  dateColumn: 'dateordered',
  qtyColumn: 'qtyordered',
};

export const INVOICE: DocumentKind = {
  name: 'C_Invoice',
  header: 'c_invoice',
  headerKey: 'c_invoice_id',
  line: 'c_invoiceline',
  lineKey: 'c_invoiceline_id',
  lineName: 'C_InvoiceLine',
  tax: 'c_invoicetax',
  taxUu: 'c_invoicetax_uu',
  dateColumn: 'dateinvoiced',
  qtyColumn: 'qtyinvoiced',
};

export const DOCUMENT_KINDS: readonly DocumentKind[] = [ORDER, INVOICE];
