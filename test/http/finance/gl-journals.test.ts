import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { idOf, q, today } from '../documents/document-helpers.js';
import type { ModelEvent } from '../../../src/events/model-events.js';
import { csvRows, pdfText } from '../../helpers/files.js';

/** Accounts (C_ElementValue_ID = C_ValidCombination_ID) of the demo chart. */
const ACCT = { checking: 11100, receivable: 12110, inventory: 14100, payable: 21100, capital: 31000, revenue: 41000, expense: 51200 } as const;
const GL_JOURNAL_TABLE = 224;

interface Fact {
  account: number;
  dr: number;
  cr: number;
  sourceDr: number;
  sourceCr: number;
  partner: unknown;
  product: unknown;
  org: unknown;
  line: number | null;
}

describe('GL journals', () => {
  const f = serverWithDemoRoles();
  const as = (token: string, method: string, path: string, body?: unknown) => f.server.request(method, path, { token, body });
  const ok = async (token: string, method: string, path: string, body?: unknown) => {
    const r = await as(token, method, path, body);
    assert.ok(r.status === 200 || r.status === 201, `${method} ${path}: ${r.status} ${r.text}`);
    return r.body;
  };
  const factsOf = async (id: number): Promise<Fact[]> => {
    const r = await ok(f.admin, 'GET', `/api/v1/models/fact_acct?$filter=${q(`AD_Table_ID eq ${GL_JOURNAL_TABLE} and Record_ID eq ${id}`)}&$orderby=Fact_Acct_ID`);
    return r.records.map((x: Record<string, unknown>) => ({
      account: Number(idOf(x.Account_ID)),
      dr: Number(x.AmtAcctDr),
      cr: Number(x.AmtAcctCr),
      sourceDr: Number(x.AmtSourceDr),
      sourceCr: Number(x.AmtSourceCr),
      partner: idOf(x.C_BPartner_ID) ?? null,
      product: idOf(x.M_Product_ID) ?? null,
      org: idOf(x.AD_Org_ID),
      line: x.Line_ID ? Number(idOf(x.Line_ID)) : null,
    }));
  };
  const journal = (lines: Record<string, unknown>[], extra: Record<string, unknown> = {}) => ({ Description: 'Accrual of rent', GL_JournalLine: lines, ...extra });
  const readJournal = (id: number) => ok(f.admin, 'GET', `/api/v1/models/gl_journal/${id}?$expand=${q('GL_JournalLine($orderby=Line)')}`);
  const linesOf = (j: Record<string, any>): Record<string, any>[] => j.GL_JournalLine ?? j.gl_journalline ?? [];

  it('a journal takes the GL Journal type, the schema, its currency and the period; line totals follow the lines; complete posts each line to its combination', async () => {
    const created = await ok(f.user, 'POST', '/api/v1/models/gl_journal', journal([
      { C_ValidCombination_ID: ACCT.expense, AmtSourceDr: 250.5, C_BPartner_ID: 118, M_Product_ID: 128, Description: 'rent' },
      { Account_ID: ACCT.payable, AmtSourceCr: 250.5 },
    ]));
    assert.equal(idOf(created.C_DocType_ID), 115);
    assert.equal(idOf(created.C_AcctSchema_ID), 101);
    assert.equal(idOf(created.C_Currency_ID), 100);
    assert.equal(idOf(created.PostingType), 'A');
    assert.equal(idOf(created.GL_Category_ID), 110, 'the category of the GL Journal type (Manual)');
    assert.equal(idOf(created.DocStatus), 'DR');
    assert.ok(Number(created.DocumentNo) >= 1000 && Number(created.DocumentNo) < 100000, `numbered by the GL Journal type's sequence: ${String(created.DocumentNo)}`);
    const read = await readJournal(created.id);
    assert.equal(read.TotalDr, 250.5);
    assert.equal(read.TotalCr, 250.5);
    const lines = linesOf(read);
    assert.deepEqual(lines.map((l) => l.Line), [10, 20]);
    assert.equal(idOf(lines[1]!.C_ValidCombination_ID), ACCT.payable, 'a line naming an account gets its combination');
    assert.equal(idOf(lines[0]!.Account_ID), ACCT.expense, 'a line naming a combination gets its account');
    assert.deepEqual(lines.map((l) => [l.AmtAcctDr, l.AmtAcctCr]), [[250.5, 0], [0, 250.5]]);

    const done = await ok(f.user, 'PUT', `/api/v1/models/gl_journal/${created.id}`, { 'doc-action': 'CO' });
    assert.equal(idOf(done.DocStatus), 'CO');
    assert.equal(idOf(done.Posted), 'Y');
    const facts = await factsOf(created.id);
    assert.deepEqual(facts.map((x) => [x.account, x.dr, x.cr]), [[ACCT.expense, 250.5, 0], [ACCT.payable, 0, 250.5]]);
    assert.equal(facts[0]!.partner, 118, 'the line dimensions go with its fact');
    assert.equal(facts[0]!.product, 128);
    assert.equal(facts[1]!.partner, null);
    assert.deepEqual(facts.map((x) => x.line), lines.map((l) => l.id));
    const edit = await as(f.user, 'PUT', `/api/v1/models/gl_journalline/${lines[0]!.id}`, { AmtSourceDr: 1 });
    assert.equal(edit.status, 400, 'a line of a completed journal does not change');
  });

  it('each fact takes its line\'s organisation and dimensions, and the journal\'s posting type', async () => {
    const done = await ok(f.admin, 'POST', '/api/v1/models/gl_journal', journal([
      { Account_ID: ACCT.expense, AmtSourceDr: 60, AD_Org_ID: 50001, M_Product_ID: 128, Qty: 3 },
      { Account_ID: ACCT.payable, AmtSourceCr: 60, C_BPartner_ID: 118 },
    ], { Description: 'Two organisations', 'doc-action': 'CO' }));
    const r = await ok(f.admin, 'GET', `/api/v1/models/fact_acct?$filter=${q(`AD_Table_ID eq ${GL_JOURNAL_TABLE} and Record_ID eq ${done.id}`)}&$orderby=Fact_Acct_ID`);
    assert.deepEqual(
      r.records.map((x: Record<string, unknown>) => [idOf(x.AD_Org_ID), idOf(x.Account_ID), idOf(x.M_Product_ID) ?? null, x.Qty ?? null, idOf(x.C_BPartner_ID) ?? null, idOf(x.PostingType)]),
      [[50001, ACCT.expense, 128, 3, null, 'A'], [11, ACCT.payable, null, null, 118, 'A']],
    );
    const statistical = await ok(f.user, 'POST', '/api/v1/models/gl_journal', journal([{ Account_ID: ACCT.expense, AmtSourceDr: 4 }, { Account_ID: ACCT.payable, AmtSourceCr: 4 }], { PostingType: 'S', 'doc-action': 'CO' }));
    const s = await ok(f.admin, 'GET', `/api/v1/models/fact_acct?$filter=${q(`AD_Table_ID eq ${GL_JOURNAL_TABLE} and Record_ID eq ${statistical.id}`)}`);
    assert.deepEqual(s.records.map((x: Record<string, unknown>) => idOf(x.PostingType)), ['S', 'S'], 'a statistical journal posts statistical facts');
  });

  it('a journal in another currency converts its lines at the rate of the accounting date', async () => {
    const created = await ok(f.user, 'POST', '/api/v1/models/gl_journal', journal([
      { Account_ID: ACCT.checking, AmtSourceDr: 100 },
      { Account_ID: ACCT.revenue, AmtSourceCr: 100 },
    ], { C_Currency_ID: 102 }));
    assert.equal(created.CurrencyRate, 1.1, 'EUR to USD at the demo rate');
    const read = await readJournal(created.id);
    assert.deepEqual(linesOf(read).map((l) => [l.AmtAcctDr, l.AmtAcctCr, idOf(l.C_Currency_ID)]), [[110, 0, 102], [0, 110, 102]]);
    await ok(f.user, 'PUT', `/api/v1/models/gl_journal/${created.id}`, { 'doc-action': 'CO' });
    const facts = await factsOf(created.id);
    assert.deepEqual(facts.map((x) => [x.sourceDr, x.sourceCr, x.dr, x.cr]), [[100, 0, 110, 0], [0, 100, 0, 110]]);
  });

  it('complete refuses an unbalanced journal and one whose line lacks an account combination; nothing is written', async () => {
    const unbalanced = await ok(f.user, 'POST', '/api/v1/models/gl_journal', journal([
      { Account_ID: ACCT.expense, AmtSourceDr: 100 },
      { Account_ID: ACCT.payable, AmtSourceCr: 90 },
    ]));
    const r = await as(f.user, 'PUT', `/api/v1/models/gl_journal/${unbalanced.id}`, { 'doc-action': 'CO' });
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.detail, /action CO refused: the journal does not balance: debit 100(\.0+)?, credit 90/);
    const still = await readJournal(unbalanced.id);
    assert.equal(idOf(still.DocStatus), 'DR');
    assert.deepEqual(await factsOf(unbalanced.id), []);

    const noAccount = await ok(f.user, 'POST', '/api/v1/models/gl_journal', journal([{ Account_ID: ACCT.expense, AmtSourceDr: 5 }, { AmtSourceCr: 5 }]));
    const r2 = await as(f.user, 'PUT', `/api/v1/models/gl_journal/${noAccount.id}`, { 'doc-action': 'CO' });
    assert.equal(r2.status, 400, r2.text);
    assert.match(r2.body.detail, /line 20 has no account combination/);

    const empty = await ok(f.user, 'POST', '/api/v1/models/gl_journal', { Description: 'no lines' });
    const r3 = await as(f.user, 'PUT', `/api/v1/models/gl_journal/${empty.id}`, { 'doc-action': 'CO' });
    assert.equal(r3.status, 400);
    assert.match(r3.body.detail, /no lines/);

    const control = await ok(f.user, 'POST', '/api/v1/models/gl_journal', journal([{ Account_ID: ACCT.expense, AmtSourceDr: 5 }, { Account_ID: ACCT.payable, AmtSourceCr: 5 }], { ControlAmt: 6 }));
    const r4 = await as(f.user, 'PUT', `/api/v1/models/gl_journal/${control.id}`, { 'doc-action': 'CO' });
    assert.equal(r4.status, 400);
    assert.match(r4.body.detail, /control amount 6 is not the total debit 5/);
  });

  it('bad input is refused with 400 and writes nothing: no period, no rate, an unknown combination, a line on a completed journal', async () => {
    const count = async () => (await ok(f.admin, 'GET', '/api/v1/models/gl_journal?$select=GL_Journal_ID')).records.length;
    const before = await count();
    const noPeriod = await as(f.user, 'POST', '/api/v1/models/gl_journal', journal([{ Account_ID: ACCT.expense, AmtSourceDr: 1 }], { DateAcct: '1990-01-01' }));
    assert.equal(noPeriod.status, 400, noPeriod.text);
    assert.match(noPeriod.body.detail, /No accounting period holds 1990-01-01/);
    const noRate = await as(f.user, 'POST', '/api/v1/models/gl_journal', journal([{ Account_ID: ACCT.expense, AmtSourceDr: 1 }], { C_Currency_ID: 101 }));
    assert.equal(noRate.status, 400, noRate.text);
    assert.match(noRate.body.detail, /conversion rate/);
    const badCombination = await as(f.user, 'POST', '/api/v1/models/gl_journal', journal([{ C_ValidCombination_ID: 999999, AmtSourceDr: 1 }]));
    assert.equal(badCombination.status, 400, badCombination.text);
    assert.equal(await count(), before, 'no journal of a refused request is left');
    const done = await ok(f.user, 'POST', '/api/v1/models/gl_journal', journal([{ Account_ID: ACCT.expense, AmtSourceDr: 1 }, { Account_ID: ACCT.payable, AmtSourceCr: 1 }], { 'doc-action': 'CO' }));
    const late = await as(f.user, 'POST', '/api/v1/models/gl_journalline', { GL_Journal_ID: done.id, Account_ID: ACCT.expense, AmtSourceDr: 5 });
    assert.equal(late.status, 400, late.text);
    assert.match(late.body.detail, /is processed: its lines cannot change/);
    assert.equal(linesOf(await readJournal(done.id)).length, 2);
  });

  it('void of a draft zeroes its amounts; a completed journal is reversed, not voided', async () => {
    const draft = await ok(f.user, 'POST', '/api/v1/models/gl_journal', journal([{ Account_ID: ACCT.expense, AmtSourceDr: 40 }, { Account_ID: ACCT.payable, AmtSourceCr: 40 }]));
    const voided = await ok(f.user, 'PUT', `/api/v1/models/gl_journal/${draft.id}`, { 'doc-action': 'VO' });
    assert.equal(idOf(voided.DocStatus), 'VO');
    const read = await readJournal(draft.id);
    assert.deepEqual([read.TotalDr, read.TotalCr], [0, 0]);
    assert.deepEqual(linesOf(read).map((l) => [l.AmtSourceDr, l.AmtSourceCr, l.AmtAcctDr, l.AmtAcctCr]), [[0, 0, 0, 0], [0, 0, 0, 0]]);
    assert.deepEqual(await factsOf(draft.id), []);

    const done = await ok(f.user, 'POST', '/api/v1/models/gl_journal', journal([{ Account_ID: ACCT.expense, AmtSourceDr: 40 }, { Account_ID: ACCT.payable, AmtSourceCr: 40 }], { 'doc-action': 'CO' }));
    const r = await as(f.user, 'PUT', `/api/v1/models/gl_journal/${done.id}`, { 'doc-action': 'VO' });
    assert.equal(r.status, 400);
    assert.match(r.body.detail, /not voided: reverse it/);
    const re = await as(f.user, 'PUT', `/api/v1/models/gl_journal/${done.id}`, { 'doc-action': 'RE' });
    assert.equal(re.status, 400, 'the demo GL Journal type does not allow re-activation');
    assert.match(re.body.detail, /IsCanBeReactivated/);
  });

  it('reverse-correct: a reversal journal with negated lines on the same date, linked both ways; the facts net to zero', async () => {
    const done = await ok(f.user, 'POST', '/api/v1/models/gl_journal', journal([{ Account_ID: ACCT.expense, AmtSourceDr: 75 }, { Account_ID: ACCT.payable, AmtSourceCr: 75 }], { 'doc-action': 'CO' }));
    const reversed = await ok(f.user, 'PUT', `/api/v1/models/gl_journal/${done.id}`, { 'doc-action': 'RC' });
    assert.equal(idOf(reversed.DocStatus), 'RE');
    const reversalId = Number(idOf(reversed.Reversal_ID));
    assert.ok(reversalId > 0);
    const reversal = await readJournal(reversalId);
    assert.equal(idOf(reversal.Reversal_ID), done.id);
    assert.equal(idOf(reversal.DocStatus), 'RE');
    assert.equal(reversal.DocumentNo, `${String(done.DocumentNo)}^`);
    assert.equal(reversal.DateAcct, done.DateAcct);
    assert.deepEqual(linesOf(reversal).map((l) => [l.AmtSourceDr, l.AmtSourceCr]), [[-75, 0], [0, -75]]);
    assert.deepEqual([reversal.TotalDr, reversal.TotalCr], [-75, -75]);
    const facts = [...(await factsOf(done.id)), ...(await factsOf(reversalId))];
    const net = new Map<number, number>();
    for (const x of facts) net.set(x.account, (net.get(x.account) ?? 0) + x.dr - x.cr);
    assert.deepEqual([...net.values()].map((v) => Math.round(v * 100) / 100), [0, 0]);
  });

  it('reverse-accrual: a reversal journal dated today with debits and credits swapped', async () => {
    const done = await ok(f.user, 'POST', '/api/v1/models/gl_journal', journal([{ Account_ID: ACCT.expense, AmtSourceDr: 30 }, { Account_ID: ACCT.payable, AmtSourceCr: 30 }], { DateAcct: '2026-01-15', 'doc-action': 'CO' }));
    assert.equal(done.DateAcct, '2026-01-15');
    const reversed = await ok(f.user, 'PUT', `/api/v1/models/gl_journal/${done.id}`, { 'doc-action': 'RA' });
    const reversal = await readJournal(Number(idOf(reversed.Reversal_ID)));
    assert.equal(reversal.DateAcct, today());
    assert.notEqual(idOf(reversal.C_Period_ID), idOf(done.C_Period_ID));
    assert.deepEqual(linesOf(reversal).map((l) => [idOf(l.Account_ID), l.AmtSourceDr, l.AmtSourceCr]), [[ACCT.expense, 0, 30], [ACCT.payable, 30, 0]]);
    const facts = await factsOf(reversal.id);
    assert.deepEqual(facts.map((x) => [x.account, x.dr, x.cr]), [[ACCT.expense, 0, 30], [ACCT.payable, 30, 0]]);
  });

  it('a batch: its totals follow its journals; complete completes them all, or none when one does not balance; reverse-correct reverses each into a reversal batch', async () => {
    const batch = await ok(f.user, 'POST', '/api/v1/models/gl_journalbatch', { Description: 'Month end' });
    assert.equal(idOf(batch.C_DocType_ID), 115);
    const a = await ok(f.user, 'POST', '/api/v1/models/gl_journal', journal([{ Account_ID: ACCT.expense, AmtSourceDr: 10 }, { Account_ID: ACCT.payable, AmtSourceCr: 10 }], { GL_JournalBatch_ID: batch.id }));
    const b = await ok(f.user, 'POST', '/api/v1/models/gl_journal', journal([{ Account_ID: ACCT.receivable, AmtSourceDr: 20 }, { Account_ID: ACCT.revenue, AmtSourceCr: 15 }], { GL_JournalBatch_ID: batch.id }));
    let read = await ok(f.user, 'GET', `/api/v1/models/gl_journalbatch/${batch.id}`);
    assert.deepEqual([read.TotalDr, read.TotalCr], [30, 25]);

    const refused = await as(f.user, 'PUT', `/api/v1/models/gl_journalbatch/${batch.id}`, { 'doc-action': 'CO' });
    assert.equal(refused.status, 400);
    assert.match(refused.body.detail, new RegExp(`journal ${String(b.DocumentNo)}: the journal does not balance`));
    const first = await ok(f.user, 'GET', `/api/v1/models/gl_journal/${a.id}`);
    assert.equal(idOf(first.DocStatus), 'DR', 'nothing of the refused batch is completed');
    assert.deepEqual(await factsOf(a.id), []);

    const bLines = linesOf(await readJournal(b.id));
    await ok(f.user, 'PUT', `/api/v1/models/gl_journalline/${bLines[1]!.id}`, { AmtSourceCr: 20 });
    read = await ok(f.user, 'GET', `/api/v1/models/gl_journalbatch/${batch.id}`);
    assert.deepEqual([read.TotalDr, read.TotalCr], [30, 30]);
    const done = await ok(f.user, 'PUT', `/api/v1/models/gl_journalbatch/${batch.id}`, { 'doc-action': 'CO' });
    assert.equal(idOf(done.DocStatus), 'CO');
    for (const j of [a, b]) {
      const x = await ok(f.user, 'GET', `/api/v1/models/gl_journal/${j.id}`);
      assert.equal(idOf(x.DocStatus), 'CO');
      assert.equal((await factsOf(j.id)).length, 2);
    }
    const late = await as(f.user, 'POST', '/api/v1/models/gl_journal', journal([{ Account_ID: ACCT.expense, AmtSourceDr: 1 }], { GL_JournalBatch_ID: batch.id }));
    assert.equal(late.status, 400, 'a processed batch takes no more journals');

    const reversed = await ok(f.user, 'PUT', `/api/v1/models/gl_journalbatch/${batch.id}`, { 'doc-action': 'RC' });
    assert.equal(idOf(reversed.DocStatus), 'RE');
    const reversalBatch = Number(idOf(reversed.Reversal_ID));
    const reversals = await ok(f.user, 'GET', `/api/v1/models/gl_journal?$filter=${q(`GL_JournalBatch_ID eq ${reversalBatch}`)}&$orderby=GL_Journal_ID`);
    assert.equal(reversals.records.length, 2);
    assert.deepEqual(reversals.records.map((r: Record<string, unknown>) => idOf(r.Reversal_ID)), [a.id, b.id]);
    const rb = await ok(f.user, 'GET', `/api/v1/models/gl_journalbatch/${reversalBatch}`);
    assert.deepEqual([rb.TotalDr, rb.TotalCr], [-30, -30]);
  });

  it('void of a draft batch voids its journals', async () => {
    const batch = await ok(f.user, 'POST', '/api/v1/models/gl_journalbatch', { Description: 'Dropped' });
    const j = await ok(f.user, 'POST', '/api/v1/models/gl_journal', journal([{ Account_ID: ACCT.expense, AmtSourceDr: 3 }, { Account_ID: ACCT.payable, AmtSourceCr: 3 }], { GL_JournalBatch_ID: batch.id }));
    const voided = await ok(f.user, 'PUT', `/api/v1/models/gl_journalbatch/${batch.id}`, { 'doc-action': 'VO' });
    assert.equal(idOf(voided.DocStatus), 'VO');
    assert.deepEqual([voided.TotalDr, voided.TotalCr], [0, 0]);
    assert.equal(idOf((await ok(f.user, 'GET', `/api/v1/models/gl_journal/${j.id}`)).DocStatus), 'VO');
  });

  it('opening balances of a new client through a journal: it posts and the trial balance of the facts sums to zero', async () => {
    const opening = await ok(f.user, 'POST', '/api/v1/models/gl_journal', journal([
      { Account_ID: ACCT.checking, AmtSourceDr: 15000 },
      { Account_ID: ACCT.receivable, AmtSourceDr: 4200.75 },
      { Account_ID: ACCT.inventory, AmtSourceDr: 8000 },
      { Account_ID: ACCT.payable, AmtSourceCr: 6200.75 },
      { Account_ID: ACCT.capital, AmtSourceCr: 21000 },
    ], { Description: 'Opening balances', DateAcct: '2026-01-01', 'doc-action': 'CO' }));
    assert.equal(idOf(opening.DocStatus), 'CO');
    const facts = await factsOf(opening.id);
    assert.deepEqual(facts.map((x) => x.account), [ACCT.checking, ACCT.receivable, ACCT.inventory, ACCT.payable, ACCT.capital]);
    const all = await ok(f.admin, 'GET', `/api/v1/models/fact_acct?$select=${q('AmtAcctDr,AmtAcctCr')}&$top=100000`);
    const sum = all.records.reduce((n: number, x: Record<string, unknown>) => n + Number(x.AmtAcctDr) - Number(x.AmtAcctCr), 0);
    assert.equal(Math.round(sum * 100) / 100, 0, 'debits equal credits over all facts');
    const capital = all.records.length;
    assert.ok(capital > 5);
  });

  it('the least privileged role cannot act on a journal of an organisation it may not write, nor read another client\'s', async () => {
    const foreign = await ok(f.admin, 'POST', '/api/v1/models/gl_journal', journal([{ Account_ID: ACCT.expense, AmtSourceDr: 9 }, { Account_ID: ACCT.payable, AmtSourceCr: 9 }], { AD_Org_ID: 50001 }));
    const refused = await as(f.ws, 'PUT', `/api/v1/models/gl_journal/${foreign.id}`, { 'doc-action': 'CO' });
    assert.equal(refused.status, 403, refused.text);
    const still = await ok(f.admin, 'GET', `/api/v1/models/gl_journal/${foreign.id}`);
    assert.equal(idOf(still.DocStatus), 'DR');
    const system = await as(f.ws, 'GET', `/api/v1/models/gl_journal?$filter=${q('AD_Client_ID eq 0')}`);
    assert.equal(system.status, 200);
    assert.equal(system.body.records.length, 0);
  });

  it('completing and reversing a journal raise the document events of completion and reversal (DACO, DARC) as for other documents', async () => {
    const seen: string[] = [];
    for (const type of ['after-complete', 'after-reverse-correct'] as const) {
      f.server.services.events.on(type, 'gl_journal', (e: ModelEvent) => {
        if (e.row.description === 'evented') seen.push(`${type} ${String(e.row.docstatus)}`);
      });
    }
    const done = await ok(f.user, 'POST', '/api/v1/models/gl_journal', journal([{ Account_ID: ACCT.expense, AmtSourceDr: 2 }, { Account_ID: ACCT.payable, AmtSourceCr: 2 }], { Description: 'evented', 'doc-action': 'CO' }));
    await ok(f.user, 'PUT', `/api/v1/models/gl_journal/${done.id}`, { 'doc-action': 'RC' });
    assert.deepEqual(seen, ['after-complete CO', 'after-reverse-correct RE']);
  });

  it('a journal is completed through the Document Action process and printed by its own form (PDF archived, CSV export)', async () => {
    const draft = await ok(f.admin, 'POST', '/api/v1/models/gl_journal', journal([
      { Account_ID: ACCT.expense, AmtSourceDr: 12.5, C_BPartner_ID: 118 },
      { Account_ID: ACCT.payable, AmtSourceCr: 12.5 },
    ], { Description: 'Printed journal' }));
    const run = await ok(f.admin, 'POST', '/api/v1/processes/rest_documentaction', { 'model-name': 'gl_journal', 'record-id': draft.id, DocAction: 'CO' });
    assert.equal(run.isError, false, JSON.stringify(run));
    assert.equal(idOf((await readJournal(draft.id)).DocStatus), 'CO');
    const pdf = await ok(f.admin, 'POST', '/api/v1/processes/rpt-gl_journal', { 'model-name': 'gl_journal', 'record-id': draft.id });
    assert.equal(pdf.isError, false, JSON.stringify(pdf));
    assert.equal(pdf.reportFileName, `GL_Journal_${String(draft.DocumentNo)}.pdf`);
    const text = (await pdfText(Buffer.from(pdf.reportFile, 'base64'))).join('\n');
    assert.match(text, new RegExp(`GL Journal ${String(draft.DocumentNo)}`));
    assert.match(text, /51200 Product Expense/);
    assert.match(text, /Total Debit +12\.50/);
    const archives = await ok(f.admin, 'GET', `/api/v1/models/gl_journal/${draft.id}/archives`);
    assert.equal(archives.archives.length, 1, 'the printed PDF is archived on the journal');
    const csv = await ok(f.admin, 'POST', '/api/v1/processes/rpt-gl_journal', { 'model-name': 'gl_journal', 'record-id': draft.id, 'report-type': 'CSV' });
    const rows = csvRows(Buffer.from(csv.exportFile, 'base64'));
    assert.ok(rows.some((r) => r.includes('21100 Accounts Payable - Trade') && r.includes('12.5')), JSON.stringify(rows));
    const wrong = await ok(f.admin, 'POST', '/api/v1/processes/rpt-gl_journal', { 'model-name': 'c_invoice', 'record-id': 104 });
    assert.equal(wrong.isError, true);
  });

  it('re-activation, where the document type allows it, removes the facts and lets the lines change; complete posts again', async () => {
    const done = await ok(f.user, 'POST', '/api/v1/models/gl_journal', journal([{ Account_ID: ACCT.expense, AmtSourceDr: 7 }, { Account_ID: ACCT.payable, AmtSourceCr: 7 }], { 'doc-action': 'CO' }));
    assert.equal((await factsOf(done.id)).length, 2);
    await ok(f.admin, 'PUT', '/api/v1/models/c_doctype/115', { IsCanBeReactivated: true });
    try {
      const re = await ok(f.user, 'PUT', `/api/v1/models/gl_journal/${done.id}`, { 'doc-action': 'RE' });
      assert.equal(idOf(re.DocStatus), 'IP');
      assert.equal(idOf(re.Posted), 'N');
      assert.deepEqual(await factsOf(done.id), []);
      const lines = linesOf(await readJournal(done.id));
      await ok(f.user, 'PUT', `/api/v1/models/gl_journalline/${lines[0]!.id}`, { AmtSourceDr: 9 });
      await ok(f.user, 'PUT', `/api/v1/models/gl_journalline/${lines[1]!.id}`, { AmtSourceCr: 9 });
      const again = await ok(f.user, 'PUT', `/api/v1/models/gl_journal/${done.id}`, { 'doc-action': 'CO' });
      assert.equal(idOf(again.DocStatus), 'CO');
      assert.deepEqual((await factsOf(done.id)).map((x) => [x.account, x.dr, x.cr]), [[ACCT.expense, 9, 0], [ACCT.payable, 0, 9]]);
    } finally {
      await ok(f.admin, 'PUT', '/api/v1/models/c_doctype/115', { IsCanBeReactivated: false });
    }
  });

  // Last: it turns the demo schema's automatic period control off.
  it('complete refuses a journal whose period is closed for GL journals; its lines follow its accounting date', async () => {
    await ok(f.admin, 'PUT', '/api/v1/models/c_acctschema/101', { AutoPeriodControl: false });
    const periods = await ok(f.admin, 'GET', `/api/v1/models/c_period?$filter=${q(`StartDate le '2026-02-10' and EndDate ge '2026-02-10'`)}`);
    const period = periods.records[0];
    const controls = await ok(f.admin, 'GET', `/api/v1/models/c_periodcontrol?$filter=${q(`C_Period_ID eq ${period.id} and DocBaseType eq 'GLJ'`)}`);
    await ok(f.admin, 'PUT', `/api/v1/models/c_periodcontrol/${controls.records[0].id}`, { PeriodAction: 'C' });
    const run = await ok(f.admin, 'POST', '/api/v1/processes/c_periodcontrol_process', { 'model-name': 'c_periodcontrol', 'record-id': controls.records[0].id });
    assert.equal(run.isError, false, JSON.stringify(run));
    const closed = await ok(f.user, 'POST', '/api/v1/models/gl_journal', journal([{ Account_ID: ACCT.expense, AmtSourceDr: 8 }, { Account_ID: ACCT.payable, AmtSourceCr: 8 }], { DateAcct: '2026-02-10' }));
    const r = await as(f.user, 'PUT', `/api/v1/models/gl_journal/${closed.id}`, { 'doc-action': 'CO' });
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.detail, new RegExp(`period ${String(period.Name)} is closed for GLJ`));
    assert.equal(idOf((await ok(f.user, 'GET', `/api/v1/models/gl_journal/${closed.id}`)).DocStatus), 'DR');
    assert.deepEqual(await factsOf(closed.id), []);

    const open = await ok(f.user, 'POST', '/api/v1/models/gl_journal', journal([{ Account_ID: ACCT.expense, AmtSourceDr: 8 }, { Account_ID: ACCT.payable, AmtSourceCr: 8 }]));
    const line = linesOf(await readJournal(open.id))[0]!;
    await ok(f.user, 'PUT', `/api/v1/models/gl_journal/${open.id}`, { DateAcct: '2026-02-10' });
    const moved = linesOf(await readJournal(open.id))[0]!;
    assert.equal(moved.DateAcct, '2026-02-10', 'the lines follow the journal date');
    assert.equal(moved.id, line.id);
  });
});
