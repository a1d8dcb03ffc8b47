import type { ModelEvent, ModelEvents } from '../../events/model-events.js';
import { registerHeaderLineRules } from '../header-line-events.js';
import { registerDocumentType } from '../engine/engine.js';
import { depositBatchDocument } from './deposit-batch-document.js';
import { depositAmountAfterLineSave, depositBatchBeforeSave, depositBatchLineBeforeSave } from './deposit-batch-rules.js';

/** Deposit batches: the rules of their headers and lines, and the document type. */
export function registerDepositBatches(events: ModelEvents, documentDefaults: (e: ModelEvent) => void): void {
  registerHeaderLineRules(events, documentDefaults, {
    header: 'c_depositbatch',
    line: 'c_depositbatchline',
    key: 'c_depositbatch_id',
    headerBeforeSave: depositBatchBeforeSave,
    lineBeforeSave: depositBatchLineBeforeSave,
    lineAfterSave: depositAmountAfterLineSave,
  });
  registerDocumentType(depositBatchDocument);
}
