import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';
import { idOf, q } from '../documents/document-helpers.js';
import { otherClientAdmin } from '../documents/other-client.js';
import { ACCT, bankCalls } from './bank-helpers.js';

/** C_BankStatement's AD_Table_ID. */
const STATEMENT_TABLE = 392;
const BANK = 100;
const SAVINGS = 101;
const BANK_CHARGE = 100;

describe('deposit batches (C_DepositBatch)', () => {
  let server: TestServer;
  let admin: string;
  let ws: string;
  const { call, ok, facts, byAccount, balance, payment } = bankCalls(() => ({ server, token: admin }));
  const batch = (payments: number[], extra: Record<string, unknown> = {}) =>
    ok('POST', '/api/v1/models/c_depositbatch', { C_BankAccount_ID: BANK, ...extra, C_DepositBatchLine: payments.map((id) => ({ C_Payment_ID: id })) });
  const readBatch = async (id: number) => {
    const r = await ok('GET', `/api/v1/models/c_depositbatch/${id}?$expand=${q('C_DepositBatchLine($orderby=Line)')}`);
    return { header: r, lines: r.C_DepositBatchLine as Record<string, any>[] };
  };
  const completed = async (payments: number[]) => {
    const b = await batch(payments);
    const done = await ok('PUT', `/api/v1/models/c_depositbatch/${b.id}`, { 'doc-action': 'CO' });
    assert.equal(idOf(done.DocStatus), 'CO');
    return done as { id: number; DocumentNo: string; DepositAmt: number };
  };
  const statement = (lines: Record<string, unknown>[]) => ok('POST', '/api/v1/models/c_bankstatement', { C_BankAccount_ID: BANK, C_BankStatementLine: lines });
  const statementLines = async (id: number) =>
    (await ok('GET', `/api/v1/models/c_bankstatement/${id}?$expand=${q('C_BankStatementLine($orderby=Line)')}`)).C_BankStatementLine as Record<string, any>[];
  const paymentRow = (id: number) => ok('GET', `/api/v1/models/c_payment/${id}?$select=${q('IsReconciled,C_DepositBatch_ID')}`);
  const batchOf = async (id: number) => idOf((await paymentRow(id)).C_DepositBatch_ID) ?? null;
  const reconciled = async (id: number) => (await paymentRow(id)).IsReconciled as boolean;

  before(async () => {
    server = await startTestServer();
    ({ admin, ws } = await demoRoleTokens(server));
  });
  after(async () => {
    await server.close();
  });

  it('a batch sums its lines, completes marking its payments, and a statement line naming it reconciles them all and posts the deposit against bank in transit', async () => {
    const a = await payment({ receipt: true, amount: 100.25 });
    const b = await payment({ receipt: true, amount: 49.75, partner: 118 });
    const draft = await batch([a.id, b.id]);
    const { header, lines } = await readBatch(draft.id);
    assert.equal(idOf(header.DocStatus), 'DR');
    assert.equal(Number(header.DepositAmt), 150);
    assert.equal(idOf(header.C_Currency_ID), 100, "the bank account's currency");
    assert.deepEqual(lines.map((l) => [l.Line, Number(l.PayAmt)]), [[10, 100.25], [20, 49.75]]);
    assert.equal(await batchOf(a.id), null, 'a draft batch does not mark its payments yet');

    const done = await ok('PUT', `/api/v1/models/c_depositbatch/${draft.id}`, { 'doc-action': 'CO' });
    assert.equal(idOf(done.DocStatus), 'CO');
    assert.equal(done.Processed, true);
    assert.equal(await batchOf(a.id), draft.id);
    assert.equal(await batchOf(b.id), draft.id);
    assert.ok((await readBatch(draft.id)).lines.every((l) => l.Processed === true));
    const more = await call('POST', '/api/v1/models/c_depositbatchline', { C_DepositBatch_ID: draft.id, C_Payment_ID: (await payment({ receipt: true, amount: 1 })).id });
    assert.equal(more.status, 400, more.text);
    assert.match(more.body.detail, /is processed: its lines cannot change/);

    const start = await balance(BANK);
    const s = await statement([{ C_DepositBatch_ID: draft.id }]);
    const [line] = await statementLines(s.id);
    assert.deepEqual([Number(line!.StmtAmt), Number(line!.TrxAmt), Number(line!.ChargeAmt), idOf(line!.C_Payment_ID) ?? null], [150, 150, 0, null]);
    const closed = await ok('PUT', `/api/v1/models/c_bankstatement/${s.id}`, { 'doc-action': 'CO' });
    assert.equal(idOf(closed.DocStatus), 'CO');
    assert.equal(await reconciled(a.id), true);
    assert.equal(await reconciled(b.id), true);
    assert.deepEqual(byAccount(await facts(STATEMENT_TABLE, s.id)), { [ACCT.bankAsset]: [150, 0], [ACCT.inTransit]: [0, 150] });
    assert.equal(await balance(BANK), start + 150);

    // The batch cannot be voided while a statement in force shows it; voiding the statement un-reconciles the payments and lets it go.
    const r1 = await call('PUT', `/api/v1/models/c_depositbatch/${draft.id}`, { 'doc-action': 'VO' });
    assert.equal(r1.status, 400, r1.text);
    assert.match(r1.body.detail, /has a line of the batch: void the statement first/);
    await ok('PUT', `/api/v1/models/c_bankstatement/${s.id}`, { 'doc-action': 'VO' });
    assert.equal(await reconciled(a.id), false);
    assert.equal(idOf((await statementLines(s.id))[0]!.C_DepositBatch_ID) ?? null, null);
    const voided = await ok('PUT', `/api/v1/models/c_depositbatch/${draft.id}`, { 'doc-action': 'VO' });
    assert.equal(idOf(voided.DocStatus), 'VO');
    assert.equal(Number(voided.DepositAmt), 0);
    assert.equal(await batchOf(a.id), null);
    assert.equal(await batchOf(b.id), null);
    assert.ok((await readBatch(draft.id)).lines.every((l) => Number(l.PayAmt) === 0));
    // Its payments can be deposited again.
    const again = await completed([a.id, b.id]);
    assert.equal(Number(again.DepositAmt), 150);
  });

  it('refuses, writing nothing: a payment not completed, of another bank account, a vendor payment twice on a batch, one in another batch, a batch without lines, a statement line with a payment and a batch, with a draft batch or another amount, a batch shown twice', async () => {
    const draftPayment = await ok('POST', '/api/v1/models/c_payment', { C_BPartner_ID: 117, C_DocType_ID: 119, IsReceipt: true, C_BankAccount_ID: BANK, PayAmt: 5, C_Currency_ID: 100, TenderType: 'K' });
    const empty = await ok('POST', '/api/v1/models/c_depositbatch', { C_BankAccount_ID: BANK });
    const line = (paymentId: number) => call('POST', '/api/v1/models/c_depositbatchline', { C_DepositBatch_ID: empty.id, C_Payment_ID: paymentId });
    const r1 = await line(draftPayment.id);
    assert.equal(r1.status, 400, r1.text);
    assert.match(r1.body.detail, /is not completed \(status DR\) \(column C_Payment_ID\)/);
    const r2 = await line((await payment({ receipt: true, amount: 6, bankAccount: SAVINGS })).id);
    assert.equal(r2.status, 400, r2.text);
    assert.match(r2.body.detail, /is of another bank account/);
    const taken = await payment({ receipt: true, amount: 7 });
    const other = await batch([taken.id]);
    const r3 = await line(taken.id);
    assert.equal(r3.status, 400, r3.text);
    assert.match(r3.body.detail, new RegExp(`is in deposit batch ${other.DocumentNo}`));
    const vendor = await payment({ receipt: false, amount: 8 });
    await ok('POST', '/api/v1/models/c_depositbatchline', { C_DepositBatch_ID: empty.id, C_Payment_ID: vendor.id });
    const r4 = await line(vendor.id);
    assert.equal(r4.status, 400, r4.text);
    assert.match(r4.body.detail, /is already on this deposit batch/);
    assert.equal(Number((await readBatch(empty.id)).header.DepositAmt), -8, 'a vendor payment counts out of the deposit');
    const moved = await call('PUT', `/api/v1/models/c_depositbatch/${empty.id}`, { C_BankAccount_ID: SAVINGS });
    assert.equal(moved.status, 400, moved.text);
    assert.match(moved.body.detail, /bank account of a deposit batch with lines cannot change/);
    const none = await ok('POST', '/api/v1/models/c_depositbatch', { C_BankAccount_ID: BANK });
    const r5 = await call('PUT', `/api/v1/models/c_depositbatch/${none.id}`, { 'doc-action': 'CO' });
    assert.equal(r5.status, 400, r5.text);
    assert.match(r5.body.detail, /the document has no lines/);

    const p = await payment({ receipt: true, amount: 9 });
    const r6 = await call('POST', '/api/v1/models/c_bankstatement', { C_BankAccount_ID: BANK, C_BankStatementLine: [{ C_Payment_ID: p.id, C_DepositBatch_ID: other.id }] });
    assert.equal(r6.status, 400, r6.text);
    assert.match(r6.body.detail, /either a payment or a deposit batch, not both/);
    const r7 = await call('POST', '/api/v1/models/c_bankstatement', { C_BankAccount_ID: BANK, C_BankStatementLine: [{ C_DepositBatch_ID: other.id }] });
    assert.equal(r7.status, 400, r7.text);
    assert.match(r7.body.detail, new RegExp(`Deposit batch ${other.DocumentNo} is not processed \\(status DR\\)`));
    const done = await completed([p.id]);
    const r8 = await call('POST', '/api/v1/models/c_bankstatement', { C_BankAccount_ID: BANK, C_BankStatementLine: [{ C_DepositBatch_ID: done.id, TrxAmt: 10, StmtAmt: 10 }] });
    assert.equal(r8.status, 400, r8.text);
    assert.match(r8.body.detail, /transaction amount 10 is not the deposit amount 9/);
    const r9 = await call('POST', '/api/v1/models/c_bankstatement', { C_BankAccount_ID: SAVINGS, C_BankStatementLine: [{ C_DepositBatch_ID: done.id }] });
    assert.equal(r9.status, 400, r9.text);
    assert.match(r9.body.detail, /of another bank account than the statement/);
    const first = await statement([{ C_DepositBatch_ID: done.id }]);
    const r10 = await call('POST', '/api/v1/models/c_bankstatement', { C_BankAccount_ID: BANK, C_BankStatementLine: [{ C_DepositBatch_ID: done.id }] });
    assert.equal(r10.status, 400, r10.text);
    assert.match(r10.body.detail, new RegExp(`is on bank statement ${first.DocumentNo} already`));
    // Nothing of the refused writes stayed.
    const statements = await ok('GET', `/api/v1/models/c_bankstatementline?$filter=${q(`C_DepositBatch_ID eq ${done.id}`)}`);
    assert.equal(statements.records.length, 1);
    assert.equal(await batchOf(taken.id), null, 'a draft batch marks no payment');
    assert.equal(await reconciled(p.id), false);
  });

  it('the matcher matches a line to a processed batch of its amount by the deposit date or by the batch number, and leaves a line of an ambiguous amount', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const byDay = await completed([(await payment({ receipt: true, amount: 311.11 })).id]);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const b1 = await batch([(await payment({ receipt: true, amount: 422.22 })).id], { DateDeposit: yesterday });
    const byNumber = await ok('PUT', `/api/v1/models/c_depositbatch/${b1.id}`, { 'doc-action': 'CO' });
    const twin1 = await completed([(await payment({ receipt: true, amount: 533.33 })).id]);
    await completed([(await payment({ receipt: true, amount: 533.33 })).id]);
    const s = await statement([
      { StmtAmt: 311.11, TrxAmt: 311.11, StatementLineDate: today },
      { StmtAmt: 422.22, TrxAmt: 422.22, ReferenceNo: byNumber.DocumentNo },
      { StmtAmt: 533.33, TrxAmt: 533.33 },
    ]);
    const run = await call('POST', '/api/v1/processes/c_bankstatement_matcher', { 'model-name': 'c_bankstatement', 'record-id': s.id });
    assert.equal(run.status, 200, run.text);
    assert.equal(run.body.summary, 'Matched 2 of 3 lines');
    const lines = await statementLines(s.id);
    assert.deepEqual(lines.map((l) => idOf(l.C_DepositBatch_ID) ?? null), [byDay.id, byNumber.id, null]);
    assert.deepEqual(lines.map((l) => [Number(l.TrxAmt), Number(l.ChargeAmt)]), [[311.11, 0], [422.22, 0], [533.33, 0]]);
    await ok('PUT', `/api/v1/models/c_bankstatementline/${lines[2]!.id}`, { C_DepositBatch_ID: twin1.id });
    const done = await ok('PUT', `/api/v1/models/c_bankstatement/${s.id}`, { 'doc-action': 'CO' });
    assert.equal(idOf(done.DocStatus), 'CO');
  });

  it('the least privileged role cannot write a batch of an organization it may not write, and another client sees no batch of the demo', async () => {
    const foreign = await batch([(await payment({ receipt: true, amount: 12 })).id], { AD_Org_ID: 50001 });
    const r1 = await call('PUT', `/api/v1/models/c_depositbatch/${foreign.id}`, { 'doc-action': 'CO' }, ws);
    assert.ok(r1.status === 403 || r1.status === 404, r1.text);
    const r2 = await call('POST', '/api/v1/models/c_depositbatchline', { C_DepositBatch_ID: foreign.id, C_Payment_ID: (await payment({ receipt: true, amount: 13 })).id }, ws);
    assert.equal(r2.status, 403, r2.text);
    assert.equal(idOf((await readBatch(foreign.id)).header.DocStatus), 'DR');
    assert.equal((await readBatch(foreign.id)).lines.length, 1);

    const other = await otherClientAdmin(server);
    const seen = await call('GET', `/api/v1/models/c_depositbatch/${foreign.id}`, undefined, other);
    assert.ok(seen.status === 403 || seen.status === 404, seen.text);
    const list = await call('GET', '/api/v1/models/c_depositbatch', undefined, other);
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.records.length, 0);
    const r3 = await call('PUT', `/api/v1/models/c_depositbatch/${foreign.id}`, { 'doc-action': 'CO' }, other);
    assert.ok(r3.status === 403 || r3.status === 404, r3.text);
    assert.equal(idOf((await readBatch(foreign.id)).header.DocStatus), 'DR');
  });
});
