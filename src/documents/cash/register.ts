import type { ModelEvents } from '../../events/model-events.js';
import { registerDocumentPrinter } from '../../print/document-print.js';
import { printBalanceDocument } from '../bankstatement/balance-print.js';
import { registerBalanceDocument } from '../bankstatement/balance.js';
import { cashDocument } from './cash-document.js';
import { CASH_BALANCE, cashBeforeNew, cashLineBeforeSave } from './cash-rules.js';

/** Cash journals: the rules of their headers and lines, and the document type. */
export function registerCash(events: ModelEvents): void {
  registerBalanceDocument(events, CASH_BALANCE, { headerBeforeNew: cashBeforeNew, lineBeforeSave: cashLineBeforeSave }, cashDocument);
  registerDocumentPrinter('c_cash', printBalanceDocument);
}
