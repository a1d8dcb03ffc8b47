import type { ModelEvent, ModelEvents } from '../../events/model-events.js';
import type { ProcessImplementations } from '../../processes/runner.js';
import { lockParentFirst } from '../../records/write/persist.js';
import { registerDocumentType } from '../engine/engine.js';
import { GENERATE_CREDIT_MEMOS_CLASS, GENERATE_RETURNS_CLASS } from '../../seed/returns-seed.js';
import { rmaDocument } from './rma-document.js';
import { rmaBeforeSave, rmaLineAfterSave, rmaLineBeforeSave } from './rma-rules.js';
import { refreshRmaQuantities } from './rma-quantities.js';
import { generateCreditMemosFromRma, generateReturnsFromRma } from './generate-from-rma.js';

const STATUS_EVENTS = ['after-complete', 'after-void', 'after-reverse-correct', 'after-reverse-accrual', 'after-reactivate'] as const;

/** Returns by RMA: the RMA document with its rules, and its quantities kept by its returns and credit memos. */
export function registerRmaRules(events: ModelEvents, documentDefaults: (e: ModelEvent) => void): void {
  events.on('before-new', 'm_rma', documentDefaults);
  events.on('before-new', 'm_rma', rmaBeforeSave);
  events.on('before-change', 'm_rma', rmaBeforeSave);
  events.on('before-new', 'm_rmaline', rmaLineBeforeSave);
  events.on('before-change', 'm_rmaline', rmaLineBeforeSave);
  for (const type of ['after-new', 'after-change', 'after-delete'] as const) events.on(type, 'm_rmaline', rmaLineAfterSave);
  lockParentFirst('m_rmaline', 'm_rma', 'm_rma_id', 'm_rma_id');
  for (const type of STATUS_EVENTS) for (const table of ['m_inout', 'c_invoice']) events.on(type, table, refreshRmaQuantities);
  registerDocumentType(rmaDocument);
}

/** The processes generating an RMA's return documents and credit memos. */
export function registerRmaProcesses(impls: ProcessImplementations): void {
  impls.register(GENERATE_RETURNS_CLASS, generateReturnsFromRma);
  impls.register(GENERATE_CREDIT_MEMOS_CLASS, generateCreditMemosFromRma);
}
