import type { ModelEvents } from '../../events/model-events.js';
import { registerDocumentPrinter } from '../../print/document-print.js';
import { printBalanceDocument } from './balance-print.js';
import { batchLineBeforeSave } from './statement-batch-lines.js';
import { registerBalanceDocument } from './balance.js';
import { bankStatementDocument } from './statement-document.js';
import { preparePaymentsOfLines, STATEMENT_BALANCE, statementBeforeNew, statementLineBeforeSave } from './statement-rules.js';

/** Bank statements: the rules of their headers and lines, and the document type. */
export function registerBankStatement(events: ModelEvents): void {
  // Before the line's own rule, which takes the charge amount from the amounts a batch sets.
  for (const type of ['before-new', 'before-change'] as const) events.on(type, 'c_bankstatementline', batchLineBeforeSave);
  events.onPrepareNew('c_bankstatementline', preparePaymentsOfLines);
  registerBalanceDocument(events, STATEMENT_BALANCE, { headerBeforeNew: statementBeforeNew, lineBeforeSave: statementLineBeforeSave }, bankStatementDocument);
  registerDocumentPrinter('c_bankstatement', printBalanceDocument);
}
