import type { ModelEvent, ModelEvents } from '../../events/model-events.js';
import { INSTANCE_CHECKED_DOCUMENTS, refuseMissingInstance } from './instance-mandatory.js';
import { attributeSetBeforeSave, refreshInstanceFlag } from './attribute-set-rules.js';
import { describeInstanceAgain, instanceBeforeSave, lotBeforeNew } from './instance-rules.js';

/**
 * Lots, serial numbers and attributes: instances described and numbered as they are written (and
 * described again when their attribute values change), lots numbered by their control, the sets'
 * instance flag kept, and stock documents refused on prepare and complete (the original's
 * complete prepares again) while a line lacks the instance its product demands.
 */
export function registerAttributeRules(events: ModelEvents): void {
  for (const type of ['before-new', 'before-change'] as const) {
    events.on(type, 'm_attributesetinstance', (e: ModelEvent) => instanceBeforeSave(e));
    events.on(type, 'm_attributeset', (e: ModelEvent) => attributeSetBeforeSave(e));
  }
  events.on('before-new', 'm_lot', (e: ModelEvent) => lotBeforeNew(e));
  for (const type of ['after-new', 'after-change', 'after-delete'] as const) {
    events.on(type, 'm_attributeinstance', (e: ModelEvent) => describeInstanceAgain(e.tx, e.row.m_attributesetinstance_id, e.auth.userId));
    events.on(type, 'm_attributeuse', (e: ModelEvent) => refreshInstanceFlag(e.tx, e.row.m_attributeset_id));
  }
  for (const table of INSTANCE_CHECKED_DOCUMENTS) {
    for (const type of ['before-prepare', 'before-complete'] as const) events.on(type, table, (e: ModelEvent) => refuseMissingInstance(e));
  }
}
