import { badRequest } from '../../errors.js';
import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { add, compare, sub, toText, ZERO, type Decimal } from '../decimal.js';
import { completedJournal, schemaAccount, schemaOfCall, type ProcessJournalLine } from './journal-of-process.js';

interface Balance {
  ad_org_id: number;
  account_id: number;
  value: string;
  balance: string;
}

/** The first and last day of a fiscal year of the client (its periods), or null. */
async function yearRange(c: ProcessCall, yearId: number): Promise<{ first: string; last: string; name: string } | null> {
  const { rows } = await c.tx.query<{ first: string | null; last: string | null; name: string }>(
    `SELECT y.fiscalyear AS name, to_char(min(p.startdate), 'YYYY-MM-DD') AS first, to_char(max(p.enddate), 'YYYY-MM-DD') AS last
       FROM c_year y LEFT JOIN c_period p ON p.c_year_id = y.c_year_id AND p.isactive = 'Y'
      WHERE y.c_year_id = $1 AND y.ad_client_id = $2 GROUP BY y.fiscalyear`,
    [yearId, c.auth.clientId],
  );
  const r = rows[0];
  return r?.first && r.last ? { first: r.first, last: r.last, name: r.name } : null;
}

/**
 * Year End Close: the balance of every revenue and expense account (AccountType R and E) over the
 * year's actual facts up to the closing date, per organisation, is moved to retained earnings
 * (C_AcctSchema_GL.RetainedEarning_Acct) by a completed GL journal dated the closing date (the
 * year's last day unless DateAcct says otherwise). Afterwards those accounts balance to zero for
 * the year, so a second run finds nothing to close.
 */
export async function yearEndClose(c: ProcessCall): Promise<ProcessOutcome> {
  const schema = await schemaOfCall(c, c.tx);
  const yearId = c.param('C_Year_ID')?.value;
  if (typeof yearId !== 'number') throw badRequest('Invalid parameter', 'C_Year_ID is mandatory');
  const year = await yearRange(c, yearId);
  if (!year) throw badRequest('Invalid parameter', `Year ${yearId} is not a year of the client with periods (C_Year_ID)`);
  const dateParam = c.param('DateAcct')?.value;
  const date = typeof dateParam === 'string' ? dateParam.slice(0, 10) : year.last;
  if (date < year.first || date > year.last) throw badRequest('Invalid parameter', `DateAcct ${date} is not in the year ${year.name} (${year.first} to ${year.last})`);
  const retained = await schemaAccount(c.tx, schema.schemaId, 'c_acctschema_gl', 'retainedearning_acct');
  if (retained === null) throw badRequest('Invalid parameter', 'The accounting schema has no Retained Earnings account (C_AcctSchema_GL.RetainedEarning_Acct)');
  const { rows } = await c.tx.query<Balance>(
    `SELECT f.ad_org_id, f.account_id, ev.value, sum(f.amtacctdr - f.amtacctcr)::text AS balance
       FROM fact_acct f JOIN c_elementvalue ev ON ev.c_elementvalue_id = f.account_id AND ev.accounttype IN ('R', 'E')
      WHERE f.ad_client_id = $1 AND f.c_acctschema_id = $2 AND f.postingtype = 'A'
        AND f.dateacct >= $3::timestamp AND f.dateacct < $4::timestamp + interval '1 day'
      GROUP BY f.ad_org_id, f.account_id, ev.value HAVING sum(f.amtacctdr - f.amtacctcr) <> 0
      ORDER BY f.ad_org_id, ev.value`,
    [c.auth.clientId, schema.schemaId, year.first, date],
  );
  if (!rows.length) return { summary: `Nothing to close: the revenue and expense accounts of ${year.name} balance to zero up to ${date}` };
  const lines: ProcessJournalLine[] = [];
  const net = new Map<number, Decimal>();
  for (const r of rows) {
    const org = Number(r.ad_org_id);
    // The closing line takes the opposite side of the balance: an expense (debit balance) is credited, a revenue debited.
    const positive = compare(r.balance, 0) > 0;
    lines.push({ orgId: org, accountId: Number(r.account_id), dr: positive ? '0' : toText(sub(0, r.balance)), cr: positive ? r.balance : '0', description: `Year end close ${year.name}: ${r.value}` });
    net.set(org, add(net.get(org) ?? ZERO, r.balance));
  }
  for (const [org, balance] of net) {
    if (compare(balance, 0) === 0) continue;
    // A net debit balance is a loss, debited to retained earnings; a net credit balance, a profit, credited.
    const loss = compare(balance, 0) > 0;
    lines.push({ orgId: org, accountId: retained, dr: loss ? toText(balance) : '0', cr: loss ? '0' : toText(sub(0, balance)), description: `Year end close ${year.name}: ${loss ? 'loss' : 'profit'}` });
  }
  const docType = c.param('C_DocType_ID')?.value;
  const journal = await completedJournal(c, {
    orgId: lines[0]!.orgId,
    description: `Year end close ${year.name}`,
    dateAcct: date,
    docTypeId: typeof docType === 'number' ? docType : null,
    lines,
  });
  const journalTable = c.s.dictionary.current.byName.get('gl_journal')!.id;
  c.log({ msg: `Year end close ${String(journal.documentno)}`, tableId: journalTable, recordId: Number(journal.gl_journal_id) });
  const total = [...net.values()].reduce((s, v) => add(s, v), ZERO);
  return { summary: `Year ${year.name} closed by journal ${String(journal.documentno)}: ${rows.length} revenue and expense balance(s), ${compare(total, 0) > 0 ? 'loss' : 'profit'} ${toText(compare(total, 0) > 0 ? total : sub(0, total))} to retained earnings` };
}
