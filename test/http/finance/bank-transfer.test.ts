import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';
import { idOf, q } from '../documents/document-helpers.js';
import { ACCT, bankCalls } from './bank-helpers.js';

const PAYMENT_TABLE = 335;
const TRANSFER = '/api/v1/processes/c_bankstatement-banktransfer';

describe('bank transfer process', () => {
  let server: TestServer;
  let admin: string;
  let user: string;
  let ws: string;
  const { call, ok, facts, byAccount, balance } = bankCalls(() => ({ server, token: admin }));
  const paymentsDescribed = async (text: string) => (await ok('GET', `/api/v1/models/c_payment?$filter=${q(`Description eq '${text}'`)}&$orderby=C_Payment_ID`)).records as Record<string, any>[];

  before(async () => {
    server = await startTestServer();
    ({ admin, user, ws } = await demoRoleTokens(server));
  });
  after(async () => {
    await server.close();
  });

  it('makes a completed payment out of the source and a receipt into the target with the charge; statements of both accounts then move their balances', async () => {
    const run = await call('POST', TRANSFER, { From_C_BankAccount_ID: 100, To_C_BankAccount_ID: 101, Amount: 1000, C_BPartner_ID: 117, C_Charge_ID: 100, Description: 'to savings' }, user);
    assert.equal(run.status, 200, run.text);
    assert.equal(run.body.isError, false, run.text);
    assert.match(run.body.summary, /^Created = 2 payments/);
    const [out, into] = await paymentsDescribed('to savings');
    assert.deepEqual([out!.IsReceipt, Number(out!.PayAmt), idOf(out!.C_BankAccount_ID), idOf(out!.DocStatus), idOf(out!.C_DocType_ID), idOf(out!.TenderType)], [false, 1000, 100, 'CO', 125, 'A']);
    assert.deepEqual([into!.IsReceipt, Number(into!.PayAmt), idOf(into!.C_BankAccount_ID), idOf(into!.DocStatus), idOf(into!.C_DocType_ID)], [true, 1000, 101, 'CO', 119]);
    assert.deepEqual(byAccount(await facts(PAYMENT_TABLE, out!.id)), { [ACCT.bankCharges]: [1000, 0], [ACCT.inTransit]: [0, 1000] });
    assert.deepEqual(byAccount(await facts(PAYMENT_TABLE, into!.id)), { [ACCT.inTransit]: [1000, 0], [ACCT.bankCharges]: [0, 1000] });

    const [checking, savings] = [await balance(100), await balance(101)];
    for (const [account, p] of [
      [100, out],
      [101, into],
    ] as const) {
      const s = await ok('POST', '/api/v1/models/c_bankstatement', { C_BankAccount_ID: account, C_BankStatementLine: [{ C_Payment_ID: p!.id }] });
      assert.equal(idOf((await ok('PUT', `/api/v1/models/c_bankstatement/${s.id}`, { 'doc-action': 'CO' })).DocStatus), 'CO');
    }
    assert.equal(await balance(100), checking - 1000);
    assert.equal(await balance(101), savings + 1000);
  });

  it('refuses the same account twice, a missing or negative amount, a missing partner or charge and an unknown account, writing nothing', async () => {
    const body = { From_C_BankAccount_ID: 100, To_C_BankAccount_ID: 101, Amount: 10, C_BPartner_ID: 117, C_Charge_ID: 100, Description: 'refused transfer' };
    for (const [change, reason] of [
      [{ To_C_BankAccount_ID: 100 }, /must differ/],
      [{ Amount: -5 }, /Amount must be a positive number/],
      [{ Amount: 0 }, /Amount must be a positive number/],
      [{ C_Charge_ID: null }, /C_Charge_ID is mandatory/],
      [{ To_C_BankAccount_ID: 987654 }, /No bank accounts/],
    ] as const) {
      const r = await call('POST', TRANSFER, { ...body, ...change });
      assert.ok(r.status >= 400 || r.body.isError === true, r.text);
      assert.match(r.body.summary ?? r.body.detail, reason);
    }
    assert.equal((await paymentsDescribed('refused transfer')).length, 0);
  });

  it('a role without access to the process cannot run it', async () => {
    const r = await call('POST', TRANSFER, { From_C_BankAccount_ID: 100, To_C_BankAccount_ID: 101, Amount: 10, C_BPartner_ID: 117, C_Charge_ID: 100, Description: 'not allowed' }, ws);
    assert.ok(r.status === 403 || r.status === 404, r.text);
    assert.equal((await paymentsDescribed('not allowed')).length, 0);
  });
});
