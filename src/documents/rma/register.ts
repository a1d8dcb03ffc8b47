import type { ModelEvent, ModelEvents } from '../../events/model-events.js';
import type { ProcessImplementations } from '../../processes/runner.js';
import { registerHeaderLineRules } from '../header-line-events.js';
import { registerDocumentType } from '../engine/engine.js';
import { GENERATE_CREDIT_MEMOS_CLASS, GENERATE_RETURNS_CLASS } from '../../seed/returns-seed.js';
import { rmaDocument } from './rma-document.js';
import { rmaBeforeSave, rmaLineAfterSave, rmaLineBeforeSave } from './rma-rules.js';
import { refreshRmaQuantities } from './rma-quantities.js';
import { generateCreditMemosFromRma, generateReturnsFromRma } from './generate-from-rma.js';

const STATUS_EVENTS = ['after-complete', 'after-void', 'after-reverse-correct', 'after-reverse-accrual', 'after-reactivate'] as const;

/** Returns by RMA: the RMA document with its rules, and its quantities kept by its returns and credit memos. */
export function registerRmaRules(events: ModelEvents, documentDefaults: (e: ModelEvent) => void): void {
  registerHeaderLineRules(events, documentDefaults, {
    header: 'm_rma',
    line: 'm_rmaline',
    key: 'm_rma_id',
    headerBeforeSave: rmaBeforeSave,
    lineBeforeSave: rmaLineBeforeSave,
    lineAfterSave: rmaLineAfterSave,
  });
  for (const type of STATUS_EVENTS) for (const table of ['m_inout', 'c_invoice']) events.on(type, table, refreshRmaQuantities);
  registerDocumentType(rmaDocument);
}

/** The processes generating an RMA's return documents and credit memos. */
export function registerRmaProcesses(impls: ProcessImplementations): void {
  impls.register(GENERATE_RETURNS_CLASS, generateReturnsFromRma);
  impls.register(GENERATE_CREDIT_MEMOS_CLASS, generateCreditMemosFromRma);
}
