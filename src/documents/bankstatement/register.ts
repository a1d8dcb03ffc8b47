import type { ModelEvent, ModelEvents } from '../../events/model-events.js';
import { registerDocumentType } from '../engine/engine.js';
import { lockParentFirst } from '../../records/write/persist.js';
import { documentDefaults } from '../register.js';
import { bankStatementDocument } from './statement-document.js';
import { statementBeforeChange, statementBeforeNew, statementLineAfterSave, statementLineBeforeSave } from './statement-rules.js';

/** Bank statements: the rules of their headers and lines, and the document type. */
export function registerBankStatement(events: ModelEvents): void {
  events.on('before-new', 'c_bankstatement', documentDefaults);
  events.on('before-new', 'c_bankstatement', statementBeforeNew);
  events.on('before-change', 'c_bankstatement', statementBeforeChange);
  events.on('before-new', 'c_bankstatementline', statementLineBeforeSave);
  events.on('before-change', 'c_bankstatementline', statementLineBeforeSave);
  for (const type of ['after-new', 'after-change', 'after-delete'] as const) events.on(type, 'c_bankstatementline', (e: ModelEvent) => statementLineAfterSave(e));
  lockParentFirst('c_bankstatementline', 'c_bankstatement', 'c_bankstatement_id', 'c_bankstatement_id');
  registerDocumentType(bankStatementDocument);
}
