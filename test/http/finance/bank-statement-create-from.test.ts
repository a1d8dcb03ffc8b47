import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';
import { idOf, q } from '../documents/document-helpers.js';
import { otherClientAdmin } from '../documents/other-client.js';
import { bankCalls } from './bank-helpers.js';

const BANK = 100;
const OTHER_BANK = 101;
const CREATE_FROM = 1130000;
const SLUG = '/api/v1/processes/c_bankstatement_createfrompayments';

const daysAgo = (n: number): string => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

describe('bank statement: create lines from payments', () => {
  let server: TestServer;
  let admin: string;
  let ws: string;
  const { call, ok, payment } = bankCalls(() => ({ server, token: admin }));
  const createFrom = (id: number, range: { from?: string; to?: string } = {}, token = admin) =>
    call('POST', SLUG, { 'model-name': 'c_bankstatement', 'record-id': id, ...(range.from ? { DateTrx: range.from } : {}), ...(range.to ? { DateTrx_To: range.to } : {}) }, token);
  const lines = async (id: number) =>
    (await ok('GET', `/api/v1/models/c_bankstatementline?$filter=${q(`C_BankStatement_ID eq ${id}`)}&$orderby=Line`)).records as Record<string, any>[];
  /** A completed payment of the bank account dated some days back. */
  const datedPayment = async (o: { receipt: boolean; amount: number; days: number; bankAccount?: number }) => {
    const p = await payment(o);
    // A payment's date is today when completed through the API: tests move it back in the database.
    await server.services.db.query('UPDATE c_payment SET datetrx = $2::date, dateacct = $2::date WHERE c_payment_id = $1', [p.id, daysAgo(o.days)]);
    return p;
  };

  before(async () => {
    server = await startTestServer();
    ({ admin, ws } = await demoRoleTokens(server));
  });
  after(async () => {
    await server.close();
  });

  it('adds a line per open payment of the bank account in the date range, with its amount, partner and date, and the balance follows', async () => {
    const inRange = await datedPayment({ receipt: true, amount: 120.5, days: 40 });
    const outgoing = await datedPayment({ receipt: false, amount: 30, days: 41 });
    const tooOld = await datedPayment({ receipt: true, amount: 7, days: 90 });
    const otherAccount = await datedPayment({ receipt: true, amount: 9, days: 40, bankAccount: OTHER_BANK });
    const s = await ok('POST', '/api/v1/models/c_bankstatement', { C_BankAccount_ID: BANK });
    const run = await createFrom(s.id, { from: daysAgo(45), to: daysAgo(35) });
    assert.equal(run.status, 200, run.text);
    assert.equal(run.body.isError, false, run.text);
    const made = await lines(s.id);
    const byPayment = new Map(made.map((l) => [idOf(l.C_Payment_ID), l]));
    assert.ok(byPayment.has(outgoing.id) && byPayment.has(inRange.id), JSON.stringify(made.map((l) => idOf(l.C_Payment_ID))));
    assert.ok(!byPayment.has(tooOld.id), 'a payment before the range is left out');
    assert.ok(!byPayment.has(otherAccount.id), 'a payment of another bank account is left out');
    assert.equal(run.body.summary, `Created ${made.length} line${made.length === 1 ? '' : 's'}`);
    const first = made[0]!;
    assert.equal(idOf(first.C_Payment_ID), outgoing.id, 'oldest payment first');
    assert.deepEqual([Number(first.StmtAmt), Number(first.TrxAmt), Number(first.ChargeAmt), idOf(first.C_BPartner_ID), String(first.StatementLineDate).slice(0, 10)], [-30, -30, 0, 117, daysAgo(41)]);
    const second = byPayment.get(inRange.id)!;
    assert.deepEqual([Number(second.StmtAmt), Number(second.TrxAmt), String(second.StatementLineDate).slice(0, 10)], [120.5, 120.5, daysAgo(40)]);
    assert.deepEqual(made.map((l) => Number(l.Line)), made.map((_, i) => (i + 1) * 10));
    const header = await ok('GET', `/api/v1/models/c_bankstatement/${s.id}`);
    const total = made.reduce((sum, l) => sum + Number(l.StmtAmt), 0);
    assert.equal(Number(header.StatementDifference).toFixed(2), total.toFixed(2));
    // Run again: the payments are on a line of this statement now, so nothing is added.
    const again = await createFrom(s.id, { from: daysAgo(45), to: daysAgo(35) });
    assert.equal(again.body.summary, 'Created 0 lines', again.text);
    // Another draft statement does not show payments a statement in force already has.
    const other = await ok('POST', '/api/v1/models/c_bankstatement', { C_BankAccount_ID: BANK });
    await createFrom(other.id, { from: daysAgo(95), to: daysAgo(35) });
    const otherLines = await lines(other.id);
    assert.deepEqual(otherLines.map((l) => idOf(l.C_Payment_ID)).filter((id) => byPayment.has(id)), []);
    assert.ok(otherLines.some((l) => idOf(l.C_Payment_ID) === tooOld.id));
    // The lines complete as the matcher's would: the payments are reconciled.
    const done = await ok('PUT', `/api/v1/models/c_bankstatement/${s.id}`, { 'doc-action': 'CO' });
    assert.equal(idOf(done.DocStatus), 'CO');
    assert.equal((await ok('GET', `/api/v1/models/c_payment/${inRange.id}?$select=IsReconciled`)).IsReconciled, true);
  });

  it('refuses a completed statement and a run without a statement, writing nothing', async () => {
    const p = await datedPayment({ receipt: true, amount: 14.25, days: 20 });
    const s = await ok('POST', '/api/v1/models/c_bankstatement', { C_BankAccount_ID: BANK, C_BankStatementLine: [{ C_Payment_ID: p.id }] });
    await ok('PUT', `/api/v1/models/c_bankstatement/${s.id}`, { 'doc-action': 'CO' });
    const late = await datedPayment({ receipt: true, amount: 15.75, days: 20 });
    const refused = await createFrom(s.id, { from: daysAgo(25) });
    assert.equal(refused.body.isError, true, refused.text);
    assert.match(refused.body.summary, /is processed: no lines can be added/);
    assert.equal((await lines(s.id)).length, 1);
    const noRecord = await call('POST', SLUG, {});
    assert.ok(noRecord.status === 400 || noRecord.body?.isError === true, noRecord.text);
    const bad = await createFrom(s.id, { from: 'not a date' });
    assert.equal(bad.status, 400, bad.text);
    const draft = await ok('POST', '/api/v1/models/c_bankstatement', { C_BankAccount_ID: BANK });
    await createFrom(draft.id, { from: daysAgo(21), to: daysAgo(19) });
    assert.ok((await lines(draft.id)).some((l) => idOf(l.C_Payment_ID) === late.id));
  });

  it('the least privileged role cannot add lines to a statement of an organization it may not write, and another client cannot reach the demo statement', async () => {
    await datedPayment({ receipt: true, amount: 3.5, days: 10 });
    const foreign = await ok('POST', '/api/v1/models/c_bankstatement', { C_BankAccount_ID: BANK, AD_Org_ID: 50001 });
    const r1 = await createFrom(foreign.id, { from: daysAgo(11) }, ws);
    assert.ok(r1.status === 403 || r1.status === 404 || r1.body?.isError === true, r1.text);
    assert.equal((await lines(foreign.id)).length, 0);
    const other = await otherClientAdmin(server, [CREATE_FROM]);
    const r2 = await createFrom(foreign.id, { from: daysAgo(11) }, other);
    assert.ok(r2.status === 403 || r2.status === 404 || r2.body?.isError === true, r2.text);
    assert.equal((await lines(foreign.id)).length, 0);
    // The administrator may.
    const r3 = await createFrom(foreign.id, { from: daysAgo(11) });
    assert.equal(r3.body.isError, false, r3.text);
    assert.ok((await lines(foreign.id)).length >= 1);
  });
});
