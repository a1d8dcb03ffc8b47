import type { ModelEvent, ModelEvents } from '../events/model-events.js';
import { lockParentFirst } from '../records/write/persist.js';

type Rule = (e: ModelEvent) => Promise<void> | void;

export interface HeaderLineRules {
  header: string;
  line: string;
  /** The header's key, the lines' link to it. */
  key: string;
  headerBeforeSave: Rule;
  lineBeforeSave: Rule;
  /** Totals of the header after a line is written or deleted. */
  lineAfterSave: Rule;
}

/**
 * Hooks the rules of a document with lines: a new header starts as a draft (documentDefaults),
 * header and line rules before each save, the header's totals after each line write, and the
 * header locked before its lines.
 */
export function registerHeaderLineRules(events: ModelEvents, documentDefaults: Rule, r: HeaderLineRules): void {
  events.on('before-new', r.header, documentDefaults);
  for (const type of ['before-new', 'before-change'] as const) {
    events.on(type, r.header, r.headerBeforeSave);
    events.on(type, r.line, r.lineBeforeSave);
  }
  for (const type of ['after-new', 'after-change', 'after-delete'] as const) events.on(type, r.line, r.lineAfterSave);
  lockParentFirst(r.line, r.header, r.key, r.key);
}
