import { readPredicate } from '../../access/access.js';
import { SqlBuilder } from '../../db/sql.js';
import { badRequest } from '../../errors.js';
import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { insertRecord } from '../../records/write/persist.js';
import { INSTALLMENTS_SQL } from '../payschedule/due-dates.js';
import { dayText, flag, idParam } from '../process-record.js';
import { dunningRunOf, refreshEntries } from './dunning-run.js';
import { add, div, mul, toText, ZERO, type Decimal } from '../decimal.js';

interface Level {
  c_dunninglevel_id: number;
  daysafterdue: string;
  daysbetweendunning: number;
  chargefee: string;
  chargeinterest: string;
  interestpercent: string | null;
  feeamt: string | null;
  isshowalldue: string;
  isshownotdue: string;
}

interface OverdueRow {
  c_invoice_id: number;
  c_invoicepayschedule_id: number | null;
  c_bpartner_id: number;
  ad_org_id: number;
  grandtotal: string;
  openamt: string;
  daysdue: number;
  isindispute: string;
  timesdunned: number;
  daysafterlast: number | null;
}

/**
 * The overdue items of a run: completed unpaid invoices (each open installment) of partners whose
 * dunning (the partner's, else its group's) is the run's, past their dunning grace; with the days
 * they are due at the run's date, how often a processed run dunned them and how many days ago.
 */
function overdueSql(c: ProcessCall, run: Record<string, unknown>, currency: number, sql: SqlBuilder): string {
  const date = `${sql.param(dayText(run.dunningdate))}::date`;
  const invoice = c.s.dictionary.current.byName.get('c_invoice')!;
  const where = [
    `i.ad_client_id = ${sql.param(c.auth.clientId)}`,
    `i.docstatus IN ('CO', 'CL')`,
    `i.ispaid = 'N'`,
    `(i.dunninggrace IS NULL OR i.dunninggrace < ${date})`,
    `(bp.dunninggrace IS NULL OR bp.dunninggrace < ${date})`,
    `COALESCE(bp.c_dunning_id, g.c_dunning_id) = ${sql.param(run.c_dunning_id)}`,
    readPredicate(c.auth, invoice, 'i', sql),
  ];
  if (!flag(c, 'IncludeInDispute', false)) where.push(`i.isindispute = 'N'`);
  if (flag(c, 'OnlySOTrx', true)) where.push(`i.issotrx = 'Y'`);
  if (!flag(c, 'IsAllCurrencies', false)) where.push(`i.c_currency_id = ${sql.param(currency)}`);
  const partner = idParam(c, 'C_BPartner_ID');
  const group = idParam(c, 'C_BP_Group_ID');
  if (partner !== null) where.push(`i.c_bpartner_id = ${sql.param(partner)}`);
  else if (group !== null) where.push(`bp.c_bp_group_id = ${sql.param(group)}`);
  const runId = sql.param(run.c_dunningrun_id);
  return `SELECT i.c_invoice_id, x.c_invoicepayschedule_id, i.c_bpartner_id, i.ad_org_id, i.grandtotal::text AS grandtotal, x.openamt::text AS openamt,
          (${date} - x.duedate::date) AS daysdue, i.isindispute, d.times AS timesdunned, (${date} - d.last) AS daysafterlast
     FROM c_invoice i JOIN c_bpartner bp ON bp.c_bpartner_id = i.c_bpartner_id LEFT JOIN c_bp_group g ON g.c_bp_group_id = bp.c_bp_group_id
     CROSS JOIN LATERAL ${INSTALLMENTS_SQL('i')} x
     CROSS JOIN LATERAL (SELECT count(*)::int AS times, max(r.dunningdate)::date AS last FROM c_dunningrunline l
         JOIN c_dunningrunentry e ON e.c_dunningrunentry_id = l.c_dunningrunentry_id JOIN c_dunningrun r ON r.c_dunningrun_id = e.c_dunningrun_id
        WHERE l.c_invoice_id = i.c_invoice_id AND r.processed = 'Y' AND r.c_dunningrun_id <> ${runId}) d
    WHERE ${where.join(' AND ')} AND x.openamt <> 0
    ORDER BY i.c_bpartner_id, x.duedate, i.c_invoice_id`;
}

/**
 * Interest of an overdue item at a level that charges it: the yearly InterestPercent of its open
 * amount for the days it is due (simple interest, 365 days a year), to the cent. The original keeps
 * the column and computes nothing.
 */
export function interestOf(level: Pick<Level, 'chargeinterest' | 'interestpercent'>, item: Pick<OverdueRow, 'openamt' | 'daysdue'>): Decimal {
  if (level.chargeinterest !== 'Y' || !level.interestpercent || item.daysdue <= 0) return ZERO;
  return div(mul(mul(item.openamt, level.interestpercent), item.daysdue), 36500, 2);
}

/** The level an item is dunned at: of the levels it is due long enough for, the one with the most days after due. */
function levelFor(levels: readonly Level[], r: OverdueRow): Level | null {
  let chosen: Level | null = null;
  for (const l of levels) {
    const reached = r.daysdue >= Number(l.daysafterdue) || l.isshowalldue === 'Y';
    const dueOrShown = r.daysdue > 0 || l.isshownotdue === 'Y';
    // Days between dunning: not dunned again before they have passed (unless the level shows all).
    const tooSoon = l.daysbetweendunning > 0 && r.timesdunned > 0 && (r.daysafterlast ?? 0) < l.daysbetweendunning && l.isshowalldue !== 'Y' && l.isshownotdue !== 'Y';
    if (reached && dueOrShown && !tooSoon && (!chosen || Number(l.daysafterdue) > Number(chosen.daysafterdue))) chosen = l;
  }
  return chosen;
}

/**
 * Create Dunning Run (the original's DunningRunCreate): replaces the run's entries by one entry
 * per business partner and level with a line per overdue invoice installment (open amount, days
 * due, times dunned), and a fee line where the level charges one. The levels are the run's level,
 * else all of its dunning; an item goes to the highest level it has reached. Parameters:
 * IncludeInDispute, OnlySOTrx (default Yes), IsAllCurrencies, C_Currency_ID (default the
 * accounting currency), SalesRep_ID (default the caller), C_BPartner_ID, C_BP_Group_ID.
 */
export async function dunningRunCreate(c: ProcessCall): Promise<ProcessOutcome> {
  const { wc, run, id } = await dunningRunOf(c);
  if (run.processed === 'Y') throw badRequest('Invalid parameter', 'The dunning run is processed');
  const { rows: schema } = await c.tx.query<{ c_currency_id: number }>(`SELECT c_currency_id FROM c_acctschema WHERE ad_client_id = $1 ORDER BY c_acctschema_id LIMIT 1`, [c.auth.clientId]);
  const currency = idParam(c, 'C_Currency_ID') ?? Number(schema[0]?.c_currency_id);
  const salesRep = idParam(c, 'SalesRep_ID') ?? c.auth.userId;
  const { rows: levels } = await c.tx.query<Level>(
    `SELECT c_dunninglevel_id, daysafterdue::text AS daysafterdue, daysbetweendunning, chargefee, feeamt::text AS feeamt, chargeinterest, interestpercent::text AS interestpercent, isshowalldue, isshownotdue
       FROM c_dunninglevel WHERE c_dunning_id = $1 AND isactive = 'Y' AND ($2::bigint IS NULL OR c_dunninglevel_id = $2) ORDER BY daysafterdue, c_dunninglevel_id`,
    [run.c_dunning_id, run.c_dunninglevel_id ?? null],
  );
  if (!levels.length) throw badRequest('Invalid parameter', 'The dunning of the run has no active levels');
  await c.tx.query(`DELETE FROM c_dunningrunline WHERE c_dunningrunentry_id IN (SELECT c_dunningrunentry_id FROM c_dunningrunentry WHERE c_dunningrun_id = $1)`, [id]);
  await c.tx.query(`DELETE FROM c_dunningrunentry WHERE c_dunningrun_id = $1`, [id]);
  const sql = new SqlBuilder();
  const { rows } = await c.tx.query<OverdueRow>(overdueSql(c, run, currency, sql), sql.values);
  const dict = c.s.dictionary.current;
  const entryTable = dict.byName.get('c_dunningrunentry')!;
  const lineTable = dict.byName.get('c_dunningrunline')!;
  const entries = new Map<string, number>();
  for (const r of rows) {
    const level = levelFor(levels, r);
    if (!level) continue;
    const key = `${r.c_bpartner_id}:${level.c_dunninglevel_id}`;
    let entryId = entries.get(key);
    if (entryId === undefined) {
      const { rows: where } = await c.tx.query<{ location: number | null; contact: number | null }>(
        `SELECT (SELECT l.c_bpartner_location_id FROM c_bpartner_location l WHERE l.c_bpartner_id = $1 AND l.isactive = 'Y' ORDER BY (l.isbillto = 'Y') DESC, l.c_bpartner_location_id LIMIT 1) AS location,
                (SELECT u.ad_user_id FROM ad_user u WHERE u.c_bpartner_id = $1 AND u.isactive = 'Y' ORDER BY u.ad_user_id LIMIT 1) AS contact`,
        [r.c_bpartner_id],
      );
      if (!where[0]?.location) {
        c.log({ msg: `Skipped partner ${r.c_bpartner_id}: no active location` });
        continue;
      }
      const created = await insertRecord(wc, entryTable, {
        C_DunningRun_ID: id, AD_Org_ID: Number(run.ad_org_id), C_BPartner_ID: Number(r.c_bpartner_id), C_BPartner_Location_ID: Number(where[0].location),
        ...(where[0].contact ? { AD_User_ID: Number(where[0].contact) } : {}), C_Currency_ID: currency, SalesRep_ID: salesRep, C_DunningLevel_ID: level.c_dunninglevel_id, Amt: 0, Qty: 0,
      });
      entryId = Number(created.row.c_dunningrunentry_id);
      entries.set(key, entryId);
      if (level.chargefee === 'Y' && Number(level.feeamt ?? 0) !== 0) {
        // The fee counts once in the entry's amount: as fee, not also as an open amount.
        await insertRecord(wc, lineTable, { C_DunningRunEntry_ID: entryId, AD_Org_ID: Number(run.ad_org_id), Amt: level.feeamt, OpenAmt: 0, FeeAmt: level.feeamt, ConvertedAmt: 0,
          InterestAmt: 0, TotalAmt: level.feeamt, DaysDue: 0, TimesDunned: 0, IsInDispute: false });
      }
    }
    const interest = interestOf(level, r);
    await insertRecord(wc, lineTable, {
      C_DunningRunEntry_ID: entryId, AD_Org_ID: Number(r.ad_org_id), C_Invoice_ID: Number(r.c_invoice_id),
      ...(r.c_invoicepayschedule_id ? { C_InvoicePaySchedule_ID: Number(r.c_invoicepayschedule_id) } : {}),
      Amt: r.grandtotal, OpenAmt: r.openamt, ConvertedAmt: r.openamt, FeeAmt: 0, InterestAmt: toText(interest), TotalAmt: toText(add(r.openamt, interest)),
      DaysDue: r.daysdue, TimesDunned: r.timesdunned, IsInDispute: r.isindispute === 'Y',
    });
  }
  await wc.deferred.flush();
  await refreshEntries(wc, id);
  return { summary: `Dunning Run Entries: #${entries.size}` };
}
