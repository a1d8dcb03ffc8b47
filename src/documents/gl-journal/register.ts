import type { ModelEvent, ModelEvents } from '../../events/model-events.js';
import { lockParentFirst } from '../../records/write/persist.js';
import { registerDocumentType } from '../engine/engine.js';
import { registerDocumentPrinter } from '../../print/document-print.js';
import { printJournal } from './journal-print.js';
import { batchDocument } from './batch-document.js';
import { journalDocument } from './journal-document.js';
import { journalAfterChange, journalAfterSave, journalHeaderBeforeSave, journalLineAfterSave, journalLineBeforeSave, journalTypesBeforeNumbers } from './journal-rules.js';

/**
 * GL journals and their batches: the defaults of every new document, header and line rules,
 * totals, their document actions and the journal's printed form.
 */
export function registerGlJournals(events: ModelEvents, documentDefaults: (e: ModelEvent) => void): void {
  for (const table of ['gl_journalbatch', 'gl_journal']) {
    events.on('before-new', table, documentDefaults);
    events.onPrepareNew(table, journalTypesBeforeNumbers);
    events.on('before-new', table, journalHeaderBeforeSave);
    events.on('before-change', table, journalHeaderBeforeSave);
  }
  events.on('before-new', 'gl_journalline', journalLineBeforeSave);
  events.on('before-change', 'gl_journalline', journalLineBeforeSave);
  for (const type of ['after-new', 'after-change', 'after-delete'] as const) {
    events.on(type, 'gl_journalline', (e: ModelEvent) => journalLineAfterSave(e));
    events.on(type, 'gl_journal', (e: ModelEvent) => journalAfterSave(e));
  }
  events.on('after-change', 'gl_journal', journalAfterChange);
  lockParentFirst('gl_journalline', 'gl_journal', 'gl_journal_id', 'gl_journal_id');
  registerDocumentType(journalDocument);
  registerDocumentType(batchDocument);
  registerDocumentPrinter('gl_journal', printJournal);
}
