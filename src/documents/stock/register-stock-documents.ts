import type { ModelEvent, ModelEvents } from '../../events/model-events.js';
import { lockParentFirst } from '../../records/write/persist.js';
import { registerDocumentType } from '../engine/engine.js';
import { inventoryDocument } from '../inventory/inventory-document.js';
import { inventoryBeforeSave, inventoryLineBeforeSave } from '../inventory/inventory-rules.js';
import { movementDocument } from '../movement/movement-document.js';
import { movementBeforeSave, movementLineBeforeSave } from '../movement/movement-rules.js';
import { movementConfirmDocument } from '../movement/movement-confirm-document.js';
import { confirmationLineBeforeChange, refuseConfirmationCreate, refuseConfirmationLineDelete } from '../movement/movement-confirm-rules.js';

/**
 * Moves (M_Movement, with the confirmations of moves in transit) and counts (M_Inventory): their header and line rules, their lines locking
 * their header first, and their document actions. Registered before the document type checks,
 * which then see the type these rules chose.
 */
export function registerStockDocuments(events: ModelEvents): void {
  for (const [header, line, key, headerRule, lineRule] of [
    ['m_movement', 'm_movementline', 'm_movement_id', movementBeforeSave, movementLineBeforeSave],
    ['m_inventory', 'm_inventoryline', 'm_inventory_id', inventoryBeforeSave, inventoryLineBeforeSave],
  ] as const) {
    for (const type of ['before-new', 'before-change'] as const) {
      events.on(type, header, (e: ModelEvent) => headerRule(e));
      events.on(type, line, (e: ModelEvent) => lineRule(e));
    }
    lockParentFirst(line, header, key, key);
  }
  registerDocumentType(movementDocument);
  registerDocumentType(inventoryDocument);
  // Confirmations of moves in transit: created by the move's prepare, their lines confirmed through the API.
  for (const table of ['m_movementconfirm', 'm_movementlineconfirm']) events.on('before-new', table, refuseConfirmationCreate);
  events.on('before-change', 'm_movementlineconfirm', confirmationLineBeforeChange);
  events.on('before-delete', 'm_movementlineconfirm', refuseConfirmationLineDelete);
  lockParentFirst('m_movementlineconfirm', 'm_movementconfirm', 'm_movementconfirm_id', 'm_movementconfirm_id');
  registerDocumentType(movementConfirmDocument);
}
