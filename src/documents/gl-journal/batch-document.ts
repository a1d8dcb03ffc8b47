import { ApiError } from '../../errors.js';
import { todayDate } from '../row-values.js';
import { definiteNumberAndDate, docId, requireOpenPeriod } from '../engine/common.js';
import { refuse, type DocumentContext, type DocumentType } from '../engine/document-type.js';
import { runDocumentAction } from '../engine/engine.js';
import { createReversal } from '../engine/reversal.js';
import { refreshJournalTotals } from './journal-rules.js';
import { requireControlAmount } from './journal-document.js';

interface BatchJournal {
  id: number;
  documentno: string;
  docstatus: string;
  isactive: string;
  reversal_id: number | null;
}

async function journalsOf(d: DocumentContext): Promise<BatchJournal[]> {
  const { rows } = await d.wc.tx.query<BatchJournal>(
    `SELECT gl_journal_id AS id, documentno, docstatus, isactive, reversal_id FROM gl_journal WHERE gl_journalbatch_id = $1 ORDER BY gl_journal_id`,
    [docId(d)],
  );
  return rows;
}

const DONE = new Set(['CO', 'CL', 'VO', 'RE']);

/** Runs an action on one journal of the batch; its refusal becomes the batch's, naming the journal. */
async function onJournal(d: DocumentContext, j: BatchJournal, action: string): Promise<void> {
  try {
    await runDocumentAction(d.wc, 'gl_journal', j.id, action);
  } catch (e) {
    if (e instanceof ApiError && e.status === 400) throw refuse(`journal ${j.documentno}: ${e.detail.replace(/^.*refused: /, '')}`);
    throw e;
  }
}

/** Batch totals as its journals give them now. */
async function batchTotals(d: DocumentContext): Promise<{ dr: string; cr: string }> {
  await refreshJournalTotals(d.wc.tx, [], [docId(d)]);
  const { rows } = await d.wc.tx.query<{ dr: string; cr: string }>('SELECT totaldr::text AS dr, totalcr::text AS cr FROM gl_journalbatch WHERE gl_journalbatch_id = $1', [docId(d)]);
  d.wc.memo.forget('gl_journalbatch');
  return rows[0]!;
}

/**
 * The reversal of a completed batch (as the original's MJournalBatch): a batch numbered "<no>^"
 * holding the reversal of each of its completed journals, by correction or by accrual (today).
 */
async function reverse(d: DocumentContext, accrual: boolean): Promise<void> {
  const date = accrual ? todayDate() : d.row.dateacct;
  const periodId = await requireOpenPeriod({ ...d, row: { ...d.row, dateacct: date } });
  const reversalId = await createReversal(d, [], ['controlamt'], date);
  await d.wc.tx.query('UPDATE gl_journalbatch SET c_period_id = $2 WHERE gl_journalbatch_id = $1', [reversalId, periodId]);
  for (const j of await journalsOf(d)) {
    if (j.docstatus !== 'CO' && j.docstatus !== 'CL') continue;
    await onJournal(d, j, accrual ? 'RA' : 'RC');
    await d.wc.tx.query('UPDATE gl_journal SET gl_journalbatch_id = $2 WHERE gl_journal_id = (SELECT reversal_id FROM gl_journal WHERE gl_journal_id = $1)', [j.id, reversalId]);
  }
  await refreshJournalTotals(d.wc.tx, [], [docId(d), reversalId]);
  d.wc.memo.forget('gl_journal');
  d.messages.push(`Reversal ${String(d.row.documentno)}^`);
}

/**
 * GL journal batches (GL_JournalBatch): a document processing its journals. Prepare prepares
 * every journal not yet done and checks the control amount; complete completes them (inactive
 * ones are voided); void voids them while none is completed; reverse reverses each completed one
 * into a reversal batch.
 */
export const batchDocument: DocumentType = {
  table: 'gl_journalbatch',
  details: [],

  async prepare(d) {
    await requireOpenPeriod(d);
    const journals = (await journalsOf(d)).filter((j) => j.isactive === 'Y');
    if (!journals.length) throw refuse('the batch has no journals');
    for (const j of journals) if (!DONE.has(j.docstatus) && j.docstatus !== 'IP') await onJournal(d, j, 'PR');
    const totals = await batchTotals(d);
    d.changes.totaldr = totals.dr;
    d.changes.totalcr = totals.cr;
    requireControlAmount(d, totals.dr);
  },

  async complete(d) {
    await definiteNumberAndDate(d, 'datedoc');
    for (const j of await journalsOf(d)) {
      if (DONE.has(j.docstatus)) continue;
      await onJournal(d, j, j.isactive === 'Y' ? 'CO' : 'VO');
    }
    const totals = await batchTotals(d);
    d.changes.totaldr = totals.dr;
    d.changes.totalcr = totals.cr;
    d.changes.isapproved = 'Y';
    return 'CO';
  },

  async void(d) {
    const journals = await journalsOf(d);
    const completed = journals.find((j) => j.docstatus === 'CO' || j.docstatus === 'CL');
    if (completed) throw refuse(`journal ${completed.documentno} is completed: reverse the batch instead`);
    for (const j of journals) if (!DONE.has(j.docstatus)) await onJournal(d, j, 'VO');
    const totals = await batchTotals(d);
    d.changes.totaldr = totals.dr;
    d.changes.totalcr = totals.cr;
  },

  async close(d) {
    for (const j of await journalsOf(d)) if (j.docstatus === 'CO') await onJournal(d, j, 'CL');
  },

  reverseCorrect: (d) => reverse(d, false),
  reverseAccrual: (d) => reverse(d, true),
};
