import { ident } from '../../db/sql.js';
import type { Row } from '../../events/model-events.js';
import { takeFromSequence } from '../../records/write/document-number.js';
import { idOf, nowTimestamp, todayDate } from '../row-values.js';
import { docTypeMemoKey, documentTypeRow, type DocTypeRow } from '../document-types.js';
import { refuse, type DocumentContext } from './document-type.js';
import { checkPeriod, docTypeAndPeriod, type PeriodCheck } from './period.js';

export type { DocTypeRow } from '../document-types.js';

/** The id of the document being processed. */
export const docId = (d: DocumentContext): number => Number(d.row[d.table.keyColumn!.dbName]);

/** A header value as it will be after this action (its pending change, else the row's). */
export const current = (d: DocumentContext, column: string): unknown => (column in d.changes ? d.changes[column] : d.row[column]);

/**
 * The document type of the document: C_DocTypeTarget_ID where the table has one, else C_DocType_ID.
 * Its first read in an operation also checks the period of the document's accounting date (where
 * the table has one), in the same statement: the actions that need the type need that period too.
 */
export async function docTypeOf(d: DocumentContext): Promise<DocTypeRow | null> {
  const id = idOf(current(d, 'c_doctypetarget_id')) ?? idOf(current(d, 'c_doctype_id'));
  if (id === null) return null;
  const date = d.table.byName.has('dateacct') ? current(d, 'dateacct') : null;
  if (date === null || date === undefined || d.wc.memo.peek('c_doctype', docTypeMemoKey(id))) return documentTypeRow(d.wc.tx, d.wc.memo, id);
  return d.wc.memo.get('c_doctype', docTypeMemoKey(id), async () => {
    const found = await docTypeAndPeriod(d.wc.tx, d.row.ad_client_id, date, id);
    if (found) d.wc.memo.set('c_periodcontrol', periodKey(d, date, found.docType.docbasetype), found.period);
    return found?.docType ?? null;
  });
}

/** The memo key of a period check: one per client, date and document base type. */
const periodKey = (d: DocumentContext, date: unknown, base: string | null): string =>
  `period:${String(d.row.ad_client_id)}:${date instanceof Date ? date.toISOString() : String(date)}:${base ?? ''}`;

/**
 * Whether the period of the document's accounting date is open for its document base type (see
 * period.ts); one statement per date and base type in a request (none when docTypeOf checked it).
 */
export async function periodOf(d: DocumentContext, dateColumn = 'dateacct'): Promise<PeriodCheck> {
  const date = current(d, dateColumn) ?? current(d, 'dateacct');
  const base = (await docTypeOf(d))?.docbasetype ?? null;
  return d.wc.memo.get('c_periodcontrol', periodKey(d, date, base), () => checkPeriod(d.wc.tx, d.row.ad_client_id, date, base));
}

/** Refuses when the period of the document's accounting date is missing or not open for its document base type. */
export async function requireOpenPeriod(d: DocumentContext, dateColumn = 'dateacct'): Promise<number> {
  const p = await periodOf(d, dateColumn);
  if (!p.open) throw refuse(p.reason);
  return p.periodId;
}

/** Void of a completed document reverses it: by accrual (today) when its own period is no longer open, else by correction, as the original. */
export async function accrualOnVoid(d: DocumentContext): Promise<boolean> {
  return !(await periodOf(d)).open;
}

/** The original re-activates only orders (and payments, by reverse-correct); other document types refuse it. */
export async function noReactivation(d: DocumentContext): Promise<string | null> {
  return d.action === 'RE' ? `${d.table.name} documents cannot be re-activated; void or reverse the document instead` : null;
}

/** The refusal of a document without lines (the original's @NoLines@). */
export const NO_LINES = 'the document has no lines';

/** Refuses a document without lines (the original's @NoLines@). */
export async function requireLines(d: DocumentContext, lineTable: string): Promise<void> {
  const key = d.table.keyColumn!.dbName;
  const { rows } = await d.wc.tx.query(`SELECT 1 FROM ${ident(lineTable)} WHERE ${ident(key)} = $1 AND isactive = 'Y' LIMIT 1`, [docId(d)]);
  if (!rows.length) throw refuse(NO_LINES);
}

/**
 * Complete gives the definite number and date where the document type asks for them
 * (IsOverwriteSeqOnComplete with a DefiniteSequence_ID; IsOverwriteDateOnComplete).
 */
export async function definiteNumberAndDate(d: DocumentContext, dateColumn: string): Promise<void> {
  const dt = await docTypeOf(d);
  if (!dt) return;
  if (dt.isoverwritedateoncomplete === 'Y') {
    d.changes[dateColumn] = todayDate();
    if (d.table.byName.has('dateacct')) d.changes.dateacct = todayDate();
  }
  const seq = idOf(dt.definitesequence_id);
  if (dt.isoverwriteseqoncomplete === 'Y' && seq !== null) {
    const no = await takeFromSequence(d.wc.tx, seq, { ...d.row, ...d.changes } as Row);
    if (no !== null) d.changes.documentno = no;
  }
}

/** Header columns and document number of a reversal (the original marks it with ^). */
export function reversalNumber(row: Row): string {
  return `${String(row.documentno ?? '')}^`;
}

/** Voiding an unprocessed document zeroes its amounts (rows of `table` linked through `link`). */
export async function zeroAmounts(d: DocumentContext, table: string, link: string, columns: readonly string[]): Promise<void> {
  const sets = columns.map((c) => `${ident(c)} = 0`).join(', ');
  await d.wc.tx.query(`UPDATE ${ident(table)} SET ${sets}, updated = $2::timestamp, updatedby = $3 WHERE ${ident(link)} = $1`, [docId(d), nowTimestamp(), d.wc.auth.userId]);
}
