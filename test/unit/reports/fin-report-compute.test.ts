import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { accountAmount, computeReport, planWindows, type AccountAmounts } from '../../../src/reports/finance/fin-report-compute.js';
import type { ReportColumnDef, ReportDef, ReportLineDef } from '../../../src/reports/finance/fin-report-definition.js';
import type { PeriodInfo } from '../../../src/reports/finance/ledger-scope.js';

const PERIODS: PeriodInfo[] = [
  { id: 1, name: 'Dec-24', startDate: '2024-12-01', endDate: '2024-12-31', yearId: 24 },
  { id: 2, name: 'Jan-25', startDate: '2025-01-01', endDate: '2025-01-31', yearId: 25 },
  { id: 3, name: 'Feb-25', startDate: '2025-02-01', endDate: '2025-02-28', yearId: 25 },
];

const line = (o: Partial<ReportLineDef> & { id: number; seqNo: number }): ReportLineDef => ({
  name: `L${o.id}`, lineType: 'S', calculationType: null, oper1: null, oper2: null, amountType: null, periodType: null, isPrinted: true, showOppositeSign: false, accountIds: [], ...o,
});
const column = (o: Partial<ReportColumnDef> & { id: number; seqNo: number }): ReportColumnDef => ({
  name: `C${o.id}`, columnType: 'R', relativePeriod: 0, amountType: 'B', periodType: 'P', postingType: 'A', calculationType: null, oper1: null, oper2: null, isPrinted: true, ...o,
});
const ACCOUNTS = new Map([
  [10, { value: '11100', name: 'Cash', accountType: 'A', accountSign: 'N' }],
  [20, { value: '41000', name: 'Revenue', accountType: 'R', accountSign: 'N' }],
  [30, { value: '51100', name: 'Cost', accountType: 'E', accountSign: 'N' }],
]);
const def = (lines: ReportLineDef[], columns: ReportColumnDef[], listSources = false): ReportDef => ({ id: 1, name: 'R', acctSchemaId: 1, calendarId: 1, listSources, lines, columns, accounts: ACCOUNTS });

/** Amounts per account and window, given per window key "P" (period), "Y" (year), "T" (total) of the plan. */
function amountsFor(d: ReportDef, at: number, byType: Record<string, Record<number, [number, number]>>): { plan: ReturnType<typeof planWindows>; amounts: AccountAmounts } {
  const plan = planWindows(d, PERIODS, at);
  const amounts: AccountAmounts = new Map();
  for (const [accountId] of ACCOUNTS) amounts.set(accountId, { dr: plan.windows.map(() => 0), cr: plan.windows.map(() => 0), qty: plan.windows.map(() => 0) });
  plan.windows.forEach((w, i) => {
    const type = w.from === null ? 'T' : w.from === PERIODS[at]!.startDate ? 'P' : 'Y';
    for (const [id, [dr, cr]] of Object.entries(byType[type] ?? {})) {
      amounts.get(Number(id))!.dr[i] = dr;
      amounts.get(Number(id))!.cr[i] = cr;
    }
  });
  return { plan, amounts };
}

describe('financial report computation', () => {
  it('an amount by type: expected sign by account type, accounted sign, debit, credit', () => {
    assert.equal(accountAmount('B', ACCOUNTS.get(10)!, 100, 30, 0), 70);
    assert.equal(accountAmount('B', ACCOUNTS.get(20)!, 10, 100, 0), 90);
    assert.equal(accountAmount('B', { accountType: 'R', accountSign: 'D' }, 10, 100, 0), -90, 'the account sign overrides the type');
    assert.equal(accountAmount('S', ACCOUNTS.get(20)!, 10, 100, 0), -90);
    assert.equal(accountAmount('D', ACCOUNTS.get(20)!, 10, 100, 0), 10);
    assert.equal(accountAmount('C', ACCOUNTS.get(20)!, 10, 100, 0), 100);
    assert.equal(accountAmount('Q', ACCOUNTS.get(20)!, 10, 100, 7), 7);
  });

  it('windows: the period, the year to date from the first period of its year, the total; natural by account type', () => {
    const d = def([line({ id: 1, seqNo: 10, accountIds: [10, 20] })], [column({ id: 1, seqNo: 10, periodType: 'N' }), column({ id: 2, seqNo: 20, periodType: 'P', relativePeriod: -1 })]);
    const plan = planWindows(d, PERIODS, 2);
    const l = d.lines[0]!;
    assert.deepEqual(plan.windows[plan.windowOf(l, d.columns[0]!, 'A')], { postingType: 'A', from: null, before: '2025-03-01' }, 'a balance sheet account: total');
    assert.deepEqual(plan.windows[plan.windowOf(l, d.columns[0]!, 'R')], { postingType: 'A', from: '2025-01-01', before: '2025-03-01' }, 'a revenue account: the year to date');
    assert.deepEqual(plan.windows[plan.windowOf(l, d.columns[1]!, 'R')], { postingType: 'A', from: '2025-01-01', before: '2025-02-01' }, 'the previous period');
    assert.throws(() => planWindows(d, PERIODS, 0), /no period -1 relative to Dec-24/);
  });

  it('lines: sources summed, calculations (subtract, add, percentage, range), opposite sign at the end, unprinted lines left out', () => {
    const d = def(
      [
        line({ id: 1, seqNo: 10, name: 'Revenue', accountIds: [20] }),
        line({ id: 2, seqNo: 20, name: 'Cost', accountIds: [30] }),
        line({ id: 3, seqNo: 30, name: 'Margin', lineType: 'C', calculationType: 'S', oper1: 1, oper2: 2 }),
        line({ id: 4, seqNo: 40, name: 'Margin %', lineType: 'C', calculationType: 'P', oper1: 3, oper2: 1 }),
        line({ id: 5, seqNo: 50, name: 'Range', lineType: 'C', calculationType: 'R', oper1: 2, oper2: 1, isPrinted: false }),
        line({ id: 6, seqNo: 60, name: 'Net (accounted)', amountType: 'S', accountIds: [20, 30], showOppositeSign: true }),
        line({ id: 7, seqNo: 70, name: 'Check', lineType: 'C', calculationType: 'A', oper1: 6, oper2: 3 }),
      ],
      [column({ id: 1, seqNo: 10 })],
    );
    const { plan, amounts } = amountsFor(d, 2, { P: { 20: [0, 200], 30: [50, 0] } });
    const rows = computeReport(d, plan, amounts, false);
    assert.deepEqual(
      rows.map((r) => [r.name, r.values[0]]),
      [['Revenue', 200], ['Cost', 50], ['Margin', 150], ['Margin %', 75], ['Net (accounted)', 150], ['Check', 0]],
    );
  });

  it('listed sources follow their line (or precede it), only accounts with an amount; calculation columns', () => {
    const d = def(
      [line({ id: 1, seqNo: 10, name: 'Total', accountIds: [10, 20, 30] })],
      [column({ id: 1, seqNo: 10, amountType: 'D' }), column({ id: 2, seqNo: 20, amountType: 'C' }), column({ id: 3, seqNo: 30, columnType: 'C', calculationType: 'S', oper1: 1, oper2: 2 })],
      true,
    );
    const { plan, amounts } = amountsFor(d, 1, { P: { 10: [120, 0], 20: [0, 120] } });
    assert.deepEqual(
      computeReport(d, plan, amounts, false).map((r) => [r.name, ...r.values]),
      [['Total', 120, 120, 0], ['11100 Cash', 120, 0, 120], ['41000 Revenue', 0, 120, -120]],
    );
    assert.deepEqual(computeReport(d, plan, amounts, true).map((r) => r.name), ['11100 Cash', '41000 Revenue', 'Total']);
  });
});
