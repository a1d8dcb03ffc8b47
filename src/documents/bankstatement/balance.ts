import type { Tx } from '../../db/types.js';
import type { ModelEvent, ModelEvents, Row } from '../../events/model-events.js';
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
  /** A query of the lines' total by the header's id ($1), where the lines' amounts are not simply summed (cash lines in other currencies). */
  totalSql?: string;
}

/** The header's difference (Σ amounts of its active lines) and ending balance, in one statement. */
export async function recomputeBalance(tx: Tx, doc: BalanceDocument, id: unknown): Promise<void> {
  const [h, k, l, a] = [ident(doc.header), ident(doc.key), ident(doc.line), ident(doc.amount)];
  const total = doc.totalSql ?? `SELECT COALESCE(sum(${a}), 0) AS total FROM ${l} WHERE ${k} = $1 AND isactive = 'Y'`;
  await tx.query(
    `UPDATE ${h} x SET statementdifference = t.total, endingbalance = COALESCE(x.beginningbalance, 0) + t.total
       FROM (${total}) t
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
  rules: { headerBeforeNew: (e: ModelEvent) => Promise<void>; lineBeforeSave: (e: ModelEvent) => Promise<void> | undefined },
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

/** What the operation memo's entries settled to, by entry: the lines after the first take them without waiting. */
const SETTLED = new WeakMap<Promise<unknown>, unknown>();

/** A memo entry's value when it has settled, else the promise of it (noted once it settles). */
function settledOr<T>(entry: Promise<T>): T | Promise<T> {
  if (SETTLED.has(entry)) return SETTLED.get(entry) as T;
  return entry.then((value) => {
    SETTLED.set(entry, value);
    return value;
  });
}

/**
 * The header of a line being written, read once per write operation (`sql` selects it by $1,
 * the header's id): a statement of a thousand lines reads its header once, and its lines after
 * the first have it without waiting.
 */
export function lineHeader(e: ModelEvent, doc: BalanceDocument, sql: string): Row | undefined | Promise<Row | undefined> {
  return settledOr(e.memo.get(doc.header, `line-header:${String(e.row[doc.key])}`, async () => (await e.tx.query<Row>(sql, [e.row[doc.key]])).rows[0]));
}

/**
 * A new line without a number gets the next one (the highest + 10), counted in memory for the
 * lines of one write operation; a promise only while the highest number is read.
 */
export function numberLine(e: ModelEvent, doc: BalanceDocument): Promise<void> | undefined {
  const id = e.row[doc.key];
  const counter = settledOr(
    e.memo.get(doc.line, `next-line:${String(id)}`, async () => {
      const { rows } = await e.tx.query<{ n: number }>(`SELECT COALESCE(max(line), 0) + 10 AS n FROM ${ident(doc.line)} WHERE ${ident(doc.key)} = $1`, [id]);
      return { next: Number(rows[0]?.n ?? 10) };
    }),
  );
  if (counter instanceof Promise) return counter.then((c) => takeNumber(e, c));
  takeNumber(e, counter);
  return undefined;
}

function takeNumber(e: ModelEvent, counter: { next: number }): void {
  if (e.row.line === null || e.row.line === undefined || e.row.line === '' || Number(e.row.line) === 0) e.row.line = counter.next;
  counter.next = Math.max(counter.next, Number(e.row.line) + 10);
}
