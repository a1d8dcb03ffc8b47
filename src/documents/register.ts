import type { ModelEvent, ModelEvents } from '../events/model-events.js';
import { DOCUMENT_KINDS } from './document-kinds.js';
import { headerAfterChange, headerAfterNew, headerBeforeChange, headerBeforeNew } from './header-rules.js';
import { registerDocumentType } from './engine/engine.js';
import { lockParentFirst } from '../records/write/persist.js';
import { orderDocument } from './engine/order-document.js';
import { inoutDocument } from './engine/inout-document.js';
import { inoutBeforeSave, inoutLineBeforeSave } from './inout-rules.js';
import { invoiceDocument } from './engine/invoice-document.js';
import { paymentDocument } from './engine/payment-document.js';
import { allocationDocument } from './engine/allocation-document.js';
import { invoiceFromOrder, invoiceLineFromSource } from './invoice-rules.js';
import { allocationBeforeNew, allocationLineBeforeNew, paymentBeforeNew } from './payment-rules.js';
import { addPeriodControls } from './engine/period.js';
import { registerPayrunRules } from './payrun-rules.js';
import { nowTimestamp } from './row-values.js';
import { DOCUMENT_TYPE_RULES, documentTypeBeforeSave } from './document-types.js';
import { chargePaymentBeforeSave } from './charge-rules.js';
import { registerStockDocuments } from './stock/register-stock-documents.js';
import { lineAfterSave, lineBeforeDelete, lineBeforeSave, linesPrepare } from './line-rules.js';
import { registerGlJournals } from './gl-journal/register.js';
import { registerBankStatement } from './bankstatement/register.js';
import { registerCash } from './cash/register.js';
import { registerDocumentPrinter } from '../print/document-print.js';
import { printStockDocument } from './stock-print/stock-print.js';
import { printPayment } from './payment/payment-print.js';
import { registerRmaRules } from './rma/register.js';
import { prepayNotCash } from './order-subtypes/prepay-payment-rule.js';
import { registerRequisitionRules } from './requisition/register.js';
import { registerRfq } from './rfq/register.js';
import { registerPricingRules } from './pricing/register.js';
import { registerAttributeRules } from './attributes/register.js';
import { registerDepositBatches } from './depositbatch/register.js';
import { registerLandedCostRules } from './landedcost/landed-cost-rules.js';
import { registerOrderLandedCostRules } from './landedcost/order-landed-cost-rules.js';

/** A new document starts drafted, unprocessed and unposted, whatever defaults its dictionary gives. */
export function documentDefaults(e: ModelEvent): void {
  for (const [column, value] of [['docstatus', 'DR'], ['docaction', 'CO'], ['processed', 'N'], ['posted', 'N'], ['processing', 'N']] as const) {
    if (e.table.byName.has(column) && (e.row[column] === null || e.row[column] === undefined || e.row[column] === '')) e.row[column] = value;
  }
}

/**
 * Business rules of documents, hooked into the model events of their headers and lines: header
 * defaults from the partner, price list, source order and document type; line prices, taxes and
 * amounts; tax rows and totals recomputed in the same transaction after every line write; and the
 * document types whose actions the document engine runs.
 */
export function registerDocumentRules(events: ModelEvents): void {
  // Before the invoice's own defaults: a source order decides side, partner and price list.
  events.on('before-new', 'c_invoice', invoiceFromOrder);
  events.on('before-new', 'c_invoiceline', invoiceLineFromSource);
  for (const kind of DOCUMENT_KINDS) {
    events.on('before-new', kind.header, (e: ModelEvent) => headerBeforeNew(e, kind));
    events.on('after-new', kind.header, (e: ModelEvent) => headerAfterNew(e, kind));
    events.on('before-change', kind.header, (e: ModelEvent) => headerBeforeChange(e, kind));
    events.on('after-change', kind.header, (e: ModelEvent) => headerAfterChange(e, kind));
    events.onPrepareNew(kind.line, (e) => linesPrepare(e, kind));
    events.on('before-new', kind.line, (e: ModelEvent) => lineBeforeSave(e, kind));
    events.on('before-change', kind.line, (e: ModelEvent) => lineBeforeSave(e, kind));
    events.on('before-delete', kind.line, (e: ModelEvent) => lineBeforeDelete(e, kind));
    for (const type of ['after-new', 'after-change', 'after-delete'] as const) events.on(type, kind.line, (e: ModelEvent) => lineAfterSave(e, kind));
  }
  for (const table of ['c_order', 'c_invoice', 'm_inout', 'c_payment', 'c_allocationhdr']) events.on('before-new', table, documentDefaults);
  events.on('before-new', 'm_inout', inoutBeforeSave);
  events.on('before-change', 'm_inout', inoutBeforeSave);
  events.on('before-new', 'm_inoutline', inoutLineBeforeSave);
  events.on('before-change', 'm_inoutline', inoutLineBeforeSave);
  events.on('before-new', 'c_payment', chargePaymentBeforeSave);
  events.on('before-change', 'c_payment', chargePaymentBeforeSave);
  events.on('before-new', 'c_payment', paymentBeforeNew);
  events.on('before-new', 'c_allocationhdr', allocationBeforeNew);
  events.on('before-new', 'c_allocationline', allocationLineBeforeNew);
  registerStockDocuments(events);
  // Last of the header rules: the document type they kept or chose must be one of the table and side.
  for (const table of DOCUMENT_TYPE_RULES.keys()) {
    events.on('before-new', table, documentTypeBeforeSave);
    events.on('before-change', table, documentTypeBeforeSave);
  }
  for (const [line, header, key] of [
    ['c_orderline', 'c_order', 'c_order_id'],
    ['c_invoiceline', 'c_invoice', 'c_invoice_id'],
    ['m_inoutline', 'm_inout', 'm_inout_id'],
    ['c_allocationline', 'c_allocationhdr', 'c_allocationhdr_id'],
  ] as const) {
    lockParentFirst(line, header, key, key);
  }
  // A new period gets a control per document base type, never opened (as the original's period after-save).
  events.on('after-new', 'c_period', (e: ModelEvent) => addPeriodControls(e.tx, [Number(e.row.c_period_id)], 'N', e.auth.userId, nowTimestamp()));
  registerPayrunRules(events);
  for (const type of [orderDocument, inoutDocument, invoiceDocument, paymentDocument, allocationDocument]) registerDocumentType(type);
  registerGlJournals(events, documentDefaults);
  registerBankStatement(events);
  registerCash(events);
  registerDocumentPrinter('c_payment', printPayment);
  for (const table of ['m_movement', 'm_inventory']) registerDocumentPrinter(table, printStockDocument);
  registerRmaRules(events, documentDefaults);
  for (const type of ['before-new', 'before-change'] as const) events.on(type, 'c_order', prepayNotCash);
  registerRequisitionRules(events, documentDefaults);
  registerRfq(events);
  registerPricingRules(events);
  registerAttributeRules(events);
  registerDepositBatches(events, documentDefaults);
  registerLandedCostRules(events);
  registerOrderLandedCostRules(events);
}
