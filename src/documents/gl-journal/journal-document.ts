import type { Row } from '../../events/model-events.js';
import { deleteFacts } from '../accounting/facts.js';
import { compare, isZero, toText } from '../decimal.js';
import { idOf, todayDate } from '../row-values.js';
import { current, definiteNumberAndDate, docId, docTypeOf, requireLines, requireOpenPeriod, zeroAmounts } from '../engine/common.js';
import { refuse, type DocumentContext, type DocumentType } from '../engine/document-type.js';
import { checkPeriod } from '../engine/period.js';
import { createReversal } from '../engine/reversal.js';
import { postJournal } from './journal-posting.js';
import { refreshJournalTotals } from './journal-rules.js';

/** The column of C_ElementValue that allows posting of each PostingType (list 125). */
const POSTING_FLAG: Record<string, string> = { A: 'postactual', B: 'postbudget', S: 'poststatistical', E: 'postencumbrance', R: 'postactual' };

const LINE_AMOUNTS = ['amtsourcedr', 'amtsourcecr', 'amtacctdr', 'amtacctcr', 'qty'] as const;

/** A line's problem that prepare refuses, in line order, or null. */
async function lineProblem(d: DocumentContext): Promise<string | null> {
  const flag = POSTING_FLAG[String(current(d, 'postingtype') ?? 'A')] ?? 'postactual';
  const { rows } = await d.wc.tx.query<Row>(
    `SELECT l.line, l.c_validcombination_id, ev.value, ev.isactive, ev.issummary, ev.isdoccontrolled, ev.${flag} AS allowed
       FROM gl_journalline l LEFT JOIN c_validcombination v ON v.c_validcombination_id = l.c_validcombination_id
       LEFT JOIN c_elementvalue ev ON ev.c_elementvalue_id = v.account_id
      WHERE l.gl_journal_id = $1 AND l.isactive = 'Y' ORDER BY l.line, l.gl_journalline_id`,
    [docId(d)],
  );
  const posting = String(current(d, 'postingtype') ?? 'A');
  for (const l of rows) {
    const line = `line ${String(l.line)}`;
    if (idOf(l.c_validcombination_id) === null) return `${line} has no account combination (C_ValidCombination_ID)`;
    if (l.value === null || l.value === undefined) return `${line}: the account of its combination is not found`;
    if (l.isactive !== 'Y') return `${line}: account ${String(l.value)} is not active`;
    if (l.issummary === 'Y') return `${line}: account ${String(l.value)} is a summary account`;
    if (l.isdoccontrolled === 'Y' && 'AER'.includes(posting)) return `${line}: account ${String(l.value)} is controlled by documents and takes no journal postings`;
    if (l.allowed === 'N') return `${line}: account ${String(l.value)} takes no postings of posting type ${posting}`;
  }
  return null;
}

/** Every accounting date of a journal's lines that differs from its own must be in an open period too. */
async function requireOpenLinePeriods(d: DocumentContext): Promise<void> {
  const { rows } = await d.wc.tx.query<{ day: string }>(
    `SELECT DISTINCT to_char(dateacct, 'YYYY-MM-DD') AS day FROM gl_journalline WHERE gl_journal_id = $1 AND isactive = 'Y' AND dateacct::date <> $2::date`,
    [docId(d), current(d, 'dateacct')],
  );
  const base = (await docTypeOf(d))?.docbasetype ?? null;
  for (const r of rows) {
    const p = await checkPeriod(d.wc.tx, d.row.ad_client_id, r.day, base);
    if (!p.open) throw refuse(`a line dated ${r.day}: ${p.reason}`);
  }
}

/** A control amount given (not zero) must be the total debit (the original's @ControlAmtError@). */
export function requireControlAmount(d: DocumentContext, totalDr: string): void {
  const control = current(d, 'controlamt');
  if (control !== null && control !== undefined && !isZero(String(control)) && compare(String(control), totalDr) !== 0) {
    throw refuse(`the control amount ${toText(String(control))} is not the total debit ${totalDr}`);
  }
}

/** A journal's totals as its lines give them now. */
async function journalTotals(d: DocumentContext): Promise<{ dr: string; cr: string }> {
  await refreshJournalTotals(d.wc.tx, [docId(d)]);
  const { rows } = await d.wc.tx.query<{ dr: string; cr: string }>('SELECT totaldr::text AS dr, totalcr::text AS cr FROM gl_journal WHERE gl_journal_id = $1', [docId(d)]);
  d.wc.memo.forget('gl_journal');
  return rows[0]!;
}

/**
 * The reversal of a completed journal, as the original's MJournal: by correction a copy with the
 * same date and negated amounts; by accrual a copy dated today with debits and credits swapped;
 * linked to the original through Reversal_ID both ways, in the same batch, and posted.
 */
async function reverse(d: DocumentContext, accrual: boolean): Promise<void> {
  const date = accrual ? todayDate() : d.row.dateacct;
  const periodId = await requireOpenPeriod({ ...d, row: { ...d.row, dateacct: date } });
  const negate = accrual ? [] : LINE_AMOUNTS;
  const reversalId = await createReversal(d, [{ table: 'gl_journalline', link: 'gl_journal_id', negate }], accrual ? [] : ['controlamt'], date);
  if (accrual) {
    await d.wc.tx.query(
      `UPDATE gl_journalline SET amtsourcedr = amtsourcecr, amtsourcecr = amtsourcedr, amtacctdr = amtacctcr, amtacctcr = amtacctdr, dateacct = $2::timestamp WHERE gl_journal_id = $1`,
      [reversalId, date],
    );
  }
  const { rows } = await d.wc.tx.query<Row>(
    `UPDATE gl_journal SET c_period_id = $2, datedoc = CASE WHEN $3 THEN $4::timestamp ELSE datedoc END WHERE gl_journal_id = $1 RETURNING *`,
    [reversalId, periodId, accrual, date],
  );
  await refreshJournalTotals(d.wc.tx, [reversalId]);
  await postJournal({ ...d, row: rows[0]!, changes: {} }, periodId);
  await d.wc.tx.query(`UPDATE gl_journal SET posted = 'Y' WHERE gl_journal_id = $1`, [reversalId]);
  for (const t of ['gl_journal', 'gl_journalline', 'gl_journalbatch']) d.wc.memo.forget(t);
  d.messages.push(`Reversal ${String(d.row.documentno)}^`);
}

/**
 * GL journals (GL_Journal, DocBaseType GLJ): prepare checks the period of the journal and of its
 * lines, the lines, their accounts and that debits equal credits; complete posts each line to
 * the account of its combination; a draft is voided (its amounts zeroed), a completed one is
 * reversed by correction or accrual, or re-activated where its document type allows it.
 */
export const journalDocument: DocumentType = {
  table: 'gl_journal',
  details: [{ table: 'gl_journalline', link: 'gl_journal_id' }],

  async refusal(d) {
    if (d.action === 'VO' && (d.row.docstatus === 'CO' || d.row.docstatus === 'CL')) return 'a completed journal is not voided: reverse it (RC or RA)';
    if (d.action === 'RE' && (await docTypeOf(d))?.iscanbereactivated !== 'Y') return 'its document type does not allow re-activation (IsCanBeReactivated)';
    return null;
  },

  async prepare(d) {
    await requireOpenPeriod(d);
    await requireOpenLinePeriods(d);
    await requireLines(d, 'gl_journalline');
    const problem = await lineProblem(d);
    if (problem) throw refuse(problem);
    const totals = await journalTotals(d);
    d.changes.totaldr = totals.dr;
    d.changes.totalcr = totals.cr;
    requireControlAmount(d, totals.dr);
    if (compare(totals.dr, totals.cr) !== 0) throw refuse(`the journal does not balance: debit ${totals.dr}, credit ${totals.cr}`);
  },

  async complete(d) {
    await definiteNumberAndDate(d, 'datedoc');
    const periodId = await requireOpenPeriod(d);
    await postJournal({ ...d, row: { ...d.row, ...d.changes } }, periodId);
    d.changes.posted = 'Y';
    d.changes.isapproved = 'Y';
    return 'CO';
  },

  async void(d) {
    await zeroAmounts(d, 'gl_journalline', 'gl_journal_id', LINE_AMOUNTS);
    // Totals of the journal (zero now) and of its batch follow the lines.
    await refreshJournalTotals(d.wc.tx, [docId(d)]);
    d.changes.controlamt = 0;
  },

  async close() {},

  async reactivate(d) {
    await requireOpenPeriod(d);
    await deleteFacts(d);
  },

  reverseCorrect: (d) => reverse(d, false),
  reverseAccrual: (d) => reverse(d, true),
};
