import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';
import type { ModelEvent } from '../../../src/events/model-events.js';
import { idOf, q } from '../documents/document-helpers.js';
import { ACCT, bankCalls, setTodaysControl } from './bank-helpers.js';
import { Receiver } from '../webhooks/receiver.js';
import { sleep } from '../../helpers/wait.js';
import { insertRow } from '../../../src/auth/util.js';
import { pdfText } from '../../helpers/files.js';

/** C_BankStatement's AD_Table_ID. */
const STATEMENT_TABLE = 392;
const BANK = 100;
const BANK_CHARGE = 100;

describe('bank statements (CMB)', () => {
  let server: TestServer;
  let admin: string;
  let ws: string;
  const seen: string[] = [];
  const { call, ok, facts, byAccount, balance, payment } = bankCalls(() => ({ server, token: admin }));
  const statement = async (lines: Record<string, unknown>[], extra: Record<string, unknown> = {}) =>
    ok('POST', '/api/v1/models/c_bankstatement', { C_BankAccount_ID: BANK, ...extra, C_BankStatementLine: lines });
  const read = async (id: number) => {
    const r = await ok('GET', `/api/v1/models/c_bankstatement/${id}?$expand=${q('C_BankStatementLine($orderby=Line)')}`);
    return { header: r, lines: r.C_BankStatementLine as Record<string, any>[] };
  };
  const reconciled = async (paymentId: number) => (await ok('GET', `/api/v1/models/c_payment/${paymentId}?$select=IsReconciled`)).IsReconciled as boolean;
  const match = (id: number, token = admin) => call('POST', '/api/v1/processes/c_bankstatement_matcher', { 'model-name': 'c_bankstatement', 'record-id': id }, token);

  before(async () => {
    server = await startTestServer();
    ({ admin, ws } = await demoRoleTokens(server));
    for (const type of ['after-complete', 'after-void'] as const) server.services.events.on(type, 'c_bankstatement', (e: ModelEvent) => void seen.push(`${type}:${String(e.row.c_bankstatement_id)}`));
  });
  after(async () => {
    await server.close();
  });

  it('completing payments leaves the bank balance alone; a statement starts from it, follows its lines, posts bank asset against in-transit, charge and interest, reconciles its payments and moves the balance', async () => {
    const start = await balance(BANK);
    const receipt = await payment({ receipt: true, amount: 250 });
    const paid = await payment({ receipt: false, amount: 80 });
    assert.equal(await balance(BANK), start, 'payments do not move CurrentBalance (the original moves it on statement completion)');
    const s = await statement([{ C_Payment_ID: receipt.id }, { C_Payment_ID: paid.id, StmtAmt: -82.5, C_Charge_ID: BANK_CHARGE }, { StmtAmt: 3, InterestAmt: 3 }]);
    const { header, lines } = await read(s.id);
    assert.equal(idOf(header.C_DocType_ID), 146, 'the Bank Statement document type');
    assert.equal(Number(header.BeginningBalance), start);
    assert.equal(Number(header.StatementDifference), 170.5);
    assert.equal(Number(header.EndingBalance), start + 170.5);
    assert.deepEqual(
      lines.map((l) => [Number(l.StmtAmt), Number(l.TrxAmt), Number(l.ChargeAmt), Number(l.InterestAmt), idOf(l.C_BPartner_ID) ?? null]),
      [
        [250, 250, 0, 0, 117],
        [-82.5, -80, -2.5, 0, 117],
        [3, 0, 0, 3, null],
      ],
    );
    const done = await ok('PUT', `/api/v1/models/c_bankstatement/${s.id}`, { 'doc-action': 'CO' });
    assert.equal(idOf(done.DocStatus), 'CO');
    assert.equal(idOf(done.Posted), 'Y');
    const posted = await facts(STATEMENT_TABLE, s.id);
    assert.deepEqual(byAccount(posted), {
      [ACCT.bankAsset]: [253, 82.5],
      [ACCT.inTransit]: [80, 250],
      [ACCT.bankCharges]: [2.5, 0],
      [ACCT.interestRevenue]: [0, 3],
    });
    assert.deepEqual(new Set(posted.map((f) => f.line)), new Set(lines.map((l) => l.id)), 'facts name their statement lines');
    assert.equal(await balance(BANK), start + 170.5);
    assert.equal(await reconciled(receipt.id), true);
    assert.equal(await reconciled(paid.id), true);
    assert.ok(seen.includes(`after-complete:${s.id}`), 'the engine raised the document event (DACO)');
    const after = await read(s.id);
    assert.ok(after.lines.every((l) => l.Processed === true));
    const edit = await call('PUT', `/api/v1/models/c_bankstatementline/${after.lines[0]!.id}`, { StmtAmt: 1 });
    assert.equal(edit.status, 400, edit.text);

    // Its own printed form: the lines and the balances.
    const pdf = await ok('POST', '/api/v1/processes/rpt-c_bankstatement', { 'model-name': 'c_bankstatement', 'record-id': s.id });
    assert.equal(pdf.isError, false, JSON.stringify(pdf));
    assert.equal(pdf.summary, `Bank Statement ${done.DocumentNo}`);
    assert.equal(Buffer.from(pdf.reportFile, 'base64').subarray(0, 4).toString(), '%PDF');
    // The seller's letterhead, the status by name and the balances at the currency's precision.
    const printed = (await pdfText(Buffer.from(pdf.reportFile, 'base64'))).join('\n');
    assert.match(printed, /GardenWorld/);
    assert.match(printed, /Status +Completed/);
    assert.match(printed, /Ending Balance +[\d,]+\.\d\d USD/);
    const html = await ok('POST', '/api/v1/processes/rpt-c_bankstatement', { 'model-name': 'c_bankstatement', 'record-id': s.id, 'report-type': 'HTML' });
    const text = Buffer.from(html.exportFile, 'base64').toString();
    assert.match(text, new RegExp(`<td>${paid.DocumentNo}</td>`));
    assert.match(text, /-82\.50/);
  });

  it('void undoes the facts, the reconciliation and the balance, and zeroes the lines; a new statement takes the balance as it is', async () => {
    const start = await balance(BANK);
    const receipt = await payment({ receipt: true, amount: 120 });
    const s = await statement([{ C_Payment_ID: receipt.id }]);
    await ok('PUT', `/api/v1/models/c_bankstatement/${s.id}`, { 'doc-action': 'CO' });
    assert.equal(await balance(BANK), start + 120);
    const next = await statement([{ StmtAmt: -1, C_Charge_ID: BANK_CHARGE }]);
    assert.equal(Number(next.BeginningBalance), start + 120);
    const voided = await ok('PUT', `/api/v1/models/c_bankstatement/${s.id}`, { 'doc-action': 'VO' });
    assert.equal(idOf(voided.DocStatus), 'VO');
    assert.equal(Number(voided.StatementDifference), 0);
    assert.equal((await facts(STATEMENT_TABLE, s.id)).length, 0);
    assert.equal(await balance(BANK), start);
    assert.equal(await reconciled(receipt.id), false);
    const { lines } = await read(s.id);
    assert.equal(Number(lines[0]!.StmtAmt), 0);
    assert.equal(idOf(lines[0]!.C_Payment_ID) ?? null, null);
    assert.match(String(lines[0]!.Description), /Voided \(120/);
    assert.ok(seen.includes(`after-void:${s.id}`), 'DAVO');
    // The payment can be reconciled again by another statement.
    const again = await statement([{ C_Payment_ID: receipt.id }]);
    assert.equal(idOf((await ok('PUT', `/api/v1/models/c_bankstatement/${again.id}`, { 'doc-action': 'CO' })).DocStatus), 'CO');
  });

  it('the matcher finds payments by reference, by amount and partner, and by a unique amount; an unmatched line is refused at prepare', async () => {
    const byCheck = await payment({ receipt: true, amount: 77.77, checkNo: 'CHK-4711' });
    const byNumber = await payment({ receipt: false, amount: 55.55 });
    const byPartner = await payment({ receipt: true, amount: 66.66, partner: 118 });
    await payment({ receipt: true, amount: 66.66, partner: 117 });
    const s = await statement([
      { StmtAmt: 77.77, TrxAmt: 77.77, ReferenceNo: 'CHK-4711' },
      { StmtAmt: -55.55, TrxAmt: -55.55, EftReference: byNumber.DocumentNo },
      { StmtAmt: 66.66, TrxAmt: 66.66, C_BPartner_ID: 118 },
      { StmtAmt: 66.66, TrxAmt: 66.66, ReferenceNo: 'no such payment', C_BPartner_ID: 50000 },
    ]);
    const run = await match(s.id);
    assert.equal(run.status, 200, run.text);
    assert.equal(run.body.summary, 'Matched 3 of 4 lines');
    const { lines } = await read(s.id);
    assert.deepEqual(
      lines.map((l) => idOf(l.C_Payment_ID) ?? null),
      [byCheck.id, byNumber.id, byPartner.id, null],
    );
    assert.equal(idOf(lines[1]!.C_BPartner_ID), 117, 'the partner comes from the payment');
    const refused = await call('PUT', `/api/v1/models/c_bankstatement/${s.id}`, { 'doc-action': 'CO' });
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.body.detail, /action CO refused: line 40 has a transaction amount 66.66 but no payment/);
    assert.equal(idOf((await read(s.id)).header.DocStatus), 'DR');
    assert.equal(await reconciled(byCheck.id), false, 'nothing was written');
    await ok('PUT', `/api/v1/models/c_bankstatementline/${lines[3]!.id}`, { TrxAmt: 0, C_Charge_ID: BANK_CHARGE });
    const done = await ok('PUT', `/api/v1/models/c_bankstatement/${s.id}`, { 'doc-action': 'CO' });
    assert.equal(idOf(done.DocStatus), 'CO');
    assert.equal(await reconciled(byPartner.id), true);
    const rerun = await match(s.id);
    assert.equal(rerun.body.isError, true, rerun.text);
    assert.match(rerun.body.summary, /is processed: its lines cannot be matched/);
  });

  it('refuses a payment matched twice, a payment already reconciled, a charge amount without a charge, re-activation, and a closed period, writing nothing', async () => {
    const p = await payment({ receipt: true, amount: 33 });
    const twice = await statement([{ C_Payment_ID: p.id }, { C_Payment_ID: p.id }]);
    const r1 = await call('PUT', `/api/v1/models/c_bankstatement/${twice.id}`, { 'doc-action': 'CO' });
    assert.equal(r1.status, 400, r1.text);
    assert.match(r1.body.detail, new RegExp(`payment ${p.id} is matched to more than one line`));

    const first = await statement([{ C_Payment_ID: p.id }]);
    await ok('PUT', `/api/v1/models/c_bankstatement/${first.id}`, { 'doc-action': 'CO' });
    const second = await statement([{ C_Payment_ID: p.id }]);
    const r2 = await call('PUT', `/api/v1/models/c_bankstatement/${second.id}`, { 'doc-action': 'CO' });
    assert.equal(r2.status, 400, r2.text);
    assert.match(r2.body.detail, /is already reconciled/);

    const r3 = await call('POST', '/api/v1/models/c_bankstatement', { C_BankAccount_ID: BANK, C_BankStatementLine: [{ StmtAmt: -5 }] });
    assert.equal(r3.status, 400, r3.text);
    assert.match(r3.body.detail, /needs a charge \(column C_Charge_ID\)/);

    const r4 = await call('PUT', `/api/v1/models/c_bankstatement/${first.id}`, { 'doc-action': 'RE' });
    assert.equal(r4.status, 400, r4.text);
    assert.match(r4.body.detail, /does not allow re-activation/);

    const start = await balance(BANK);
    const draft = await statement([{ StmtAmt: -7, C_Charge_ID: BANK_CHARGE }]);
    await ok('PUT', '/api/v1/models/c_acctschema/101', { AutoPeriodControl: false });
    await setTodaysControl(ok, 'CMB', 'C');
    try {
      const r5 = await call('PUT', `/api/v1/models/c_bankstatement/${draft.id}`, { 'doc-action': 'CO' });
      assert.equal(r5.status, 400, r5.text);
      assert.match(r5.body.detail, /is closed for CMB/);
      const r6 = await call('PUT', `/api/v1/models/c_bankstatement/${first.id}`, { 'doc-action': 'VO' });
      assert.equal(r6.status, 400, r6.text);
      assert.equal(idOf((await read(draft.id)).header.DocStatus), 'DR');
      assert.equal((await facts(STATEMENT_TABLE, draft.id)).length, 0);
      assert.equal(await balance(BANK), start);
      assert.equal(await reconciled(p.id), true);
    } finally {
      await setTodaysControl(ok, 'CMB', 'O');
      await ok('PUT', '/api/v1/models/c_acctschema/101', { AutoPeriodControl: true });
    }
  });

  it('a webhook subscribed to completed bank statements (DACO) receives one', async () => {
    const receiver = await new Receiver().start();
    const db = server.services.db;
    await insertRow(db, 'AD_SysConfig', { name: 'REST_WEBHOOK_ENABLED', value: 'Y', configurationlevel: 'C', entitytype: 'U' }, { clientId: 11 });
    await insertRow(db, 'AD_SysConfig', { name: 'REST_WEBHOOK_ALLOWED_HOSTS', value: '127.0.0.1', configurationlevel: 'S', entitytype: 'U' }, { clientId: 0 });
    server.services.sysConfig.clear();
    try {
      const hook = await ok('POST', '/api/v1/models/REST_Webhook_Out', { Name: 'Statements', URL: `${receiver.url}/hook` });
      await ok('POST', '/api/v1/models/REST_Webhook_Out_Event', { REST_Webhook_Out_ID: hook.id, AD_Table_ID: STATEMENT_TABLE, EventModelValidator: 'DACO' });
      await sleep(50);
      const s = await statement([{ StmtAmt: -4, C_Charge_ID: BANK_CHARGE }]);
      await ok('PUT', `/api/v1/models/c_bankstatement/${s.id}`, { 'doc-action': 'CO' });
      for (let i = 0; i < 300 && receiver.received.length < 1; i++) await sleep(30);
      assert.equal(receiver.received.length, 1, 'one delivery');
      const body = JSON.parse(receiver.received[0]!.body);
      assert.equal(body.type, 'C_BankStatement.DACO');
      assert.equal(body.data.id, s.id);
      await ok('PUT', `/api/v1/models/REST_Webhook_Out/${hook.id}`, { IsActive: false });
    } finally {
      await receiver.close();
    }
  });

  it('re-activation, where the document type allows it, undoes the posting, the reconciliation and the balance and lets the lines change', async () => {
    await ok('PUT', '/api/v1/models/c_doctype/146', { IsCanBeReactivated: true });
    try {
      const start = await balance(BANK);
      const p = await payment({ receipt: true, amount: 45 });
      const s = await statement([{ C_Payment_ID: p.id }]);
      await ok('PUT', `/api/v1/models/c_bankstatement/${s.id}`, { 'doc-action': 'CO' });
      assert.equal(await balance(BANK), start + 45);
      const again = await ok('PUT', `/api/v1/models/c_bankstatement/${s.id}`, { 'doc-action': 'RE' });
      assert.equal(idOf(again.DocStatus), 'IP');
      assert.equal((await facts(STATEMENT_TABLE, s.id)).length, 0);
      assert.equal(await balance(BANK), start);
      assert.equal(await reconciled(p.id), false);
      const { lines } = await read(s.id);
      await ok('PUT', `/api/v1/models/c_bankstatementline/${lines[0]!.id}`, { StmtAmt: 46, C_Charge_ID: BANK_CHARGE });
      const done = await ok('PUT', `/api/v1/models/c_bankstatement/${s.id}`, { 'doc-action': 'CO' });
      assert.equal(idOf(done.DocStatus), 'CO');
      assert.equal(await balance(BANK), start + 46);
      assert.deepEqual(byAccount(await facts(STATEMENT_TABLE, s.id)), { [ACCT.bankAsset]: [46, 0], [ACCT.inTransit]: [0, 45], [ACCT.bankCharges]: [0, 1] });
    } finally {
      await ok('PUT', '/api/v1/models/c_doctype/146', { IsCanBeReactivated: false });
    }
  });

  it('the least privileged role cannot complete or match a statement of an organization it may not write', async () => {
    const foreign = await statement([{ StmtAmt: -2, C_Charge_ID: BANK_CHARGE }], { AD_Org_ID: 50001 });
    const r1 = await call('PUT', `/api/v1/models/c_bankstatement/${foreign.id}`, { 'doc-action': 'CO' }, ws);
    assert.ok(r1.status === 403 || r1.status === 404, r1.text);
    const r2 = await match(foreign.id, ws);
    assert.ok(r2.status === 403 || r2.status === 404, r2.text);
    assert.equal(idOf((await read(foreign.id)).header.DocStatus), 'DR');
  });
});
