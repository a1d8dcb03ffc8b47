import type { Tx } from '../../db/types.js';
import type { ModelEvent, ModelEvents } from '../../events/model-events.js';
import { registerDocumentType } from '../engine/engine.js';
import type { DocumentType } from '../engine/document-type.js';
import { lockParentFirst } from '../../records/write/persist.js';
import { documentDefaults } from '../register.js';
import { ident } from '../../db/sql.js';
import { idOf } from '../row-values.js';
import { add, toText } from '../decimal.js';

/** A header whose StatementDifference sums an amount of its lines and whose EndingBalance follows (bank statements, cash journals). */
export interface BalanceDocument {
  header: string;
  key: string;
  line: string;
  amount: string;
}

/** The header's difference (Σ amounts of its active lines) and ending balance, in one statement. */
export async function recomputeBalance(tx: Tx, doc: BalanceDocument, id: unknown): Promise<void> {
  const [h, k, l, a] = [ident(doc.header), ident(doc.key), ident(doc.line), ident(doc.amount)];
  await tx.query(
    `UPDATE ${h} x SET statementdifference = t.total, endingbalance = COALESCE(x.beginningbalance, 0) + t.total
       FROM (SELECT COALESCE(sum(${a}), 0) AS total FROM ${l} WHERE ${k} = $1 AND isactive = 'Y') t
      WHERE x.${k} = $1`,
    [id],
  );
}

/** After a line is written or deleted, its header's balance, once per write operation. */
export function balanceAfterLineSave(e: ModelEvent, doc: BalanceDocument): void {
  const id = idOf(e.row[doc.key] ?? e.old?.[doc.key]);
  if (id === null) return;
  e.defer(`totals:${doc.header}:${id}`, async () => {
    await recomputeBalance(e.tx, doc, id);
    e.memo.forget(doc.header);
  });
}

/** A changed beginning balance moves the ending balance with it. */
export function endingBalanceBeforeChange(e: ModelEvent): void {
  if (e.changed.has('beginningbalance')) e.row.endingbalance = toText(add(e.row.beginningbalance as string, (e.row.statementdifference ?? 0) as string));
}

/**
 * Registers a balance document: document defaults and its own rule on new headers, the ending
 * balance on header changes, its line rule, the balance after line writes, header-first locking
 * of lines, and its document type.
 */
export function registerBalanceDocument(
  events: ModelEvents,
  doc: BalanceDocument,
  rules: { headerBeforeNew: (e: ModelEvent) => Promise<void>; lineBeforeSave: (e: ModelEvent) => Promise<void> },
  type: DocumentType,
): void {
  events.on('before-new', doc.header, documentDefaults);
  events.on('before-new', doc.header, rules.headerBeforeNew);
  events.on('before-change', doc.header, endingBalanceBeforeChange);
  events.on('before-new', doc.line, rules.lineBeforeSave);
  events.on('before-change', doc.line, rules.lineBeforeSave);
  for (const t of ['after-new', 'after-change', 'after-delete'] as const) events.on(t, doc.line, (e: ModelEvent) => balanceAfterLineSave(e, doc));
  lockParentFirst(doc.line, doc.header, doc.key, doc.key);
  registerDocumentType(type);
}
