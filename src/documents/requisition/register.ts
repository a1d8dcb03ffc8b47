import type { ModelEvent, ModelEvents } from '../../events/model-events.js';
import type { ProcessImplementations } from '../../processes/runner.js';
import { registerHeaderLineRules } from '../header-line-events.js';
import { registerDocumentType } from '../engine/engine.js';
import { CREATE_PO_FROM_REQUISITION_CLASS } from '../../seed/buying-seed.js';
import { requisitionDocument } from './requisition-document.js';
import { productPoAfterSave, requisitionBeforeSave, requisitionLineAfterSave, requisitionLineBeforeSave } from './requisition-rules.js';
import { createPoFromRequisition } from './create-po.js';

/** Buying: requisitions with their rules, and the vendor data of products. */
export function registerRequisitionRules(events: ModelEvents, documentDefaults: (e: ModelEvent) => void): void {
  registerHeaderLineRules(events, documentDefaults, {
    header: 'm_requisition',
    line: 'm_requisitionline',
    key: 'm_requisition_id',
    headerBeforeSave: requisitionBeforeSave,
    lineBeforeSave: requisitionLineBeforeSave,
    lineAfterSave: requisitionLineAfterSave,
  });
  for (const type of ['after-new', 'after-change'] as const) events.on(type, 'm_product_po', productPoAfterSave);
  registerDocumentType(requisitionDocument);
}

export function registerRequisitionProcesses(impls: ProcessImplementations): void {
  impls.register(CREATE_PO_FROM_REQUISITION_CLASS, createPoFromRequisition);
}
