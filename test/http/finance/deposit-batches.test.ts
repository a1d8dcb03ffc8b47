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
});
