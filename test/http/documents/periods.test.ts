import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { idOf, q, today, documentCalls } from './document-helpers.js';
import { stockHelpers } from './stock-helpers.js';

const INVOICE = { C_BPartner_ID: 118, C_DocTypeTarget_ID: 116, C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 2, C_Tax_ID: 105 }] };

/** The first day of the month before this one. */
const lastMonth = () => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
};

describe('period control', () => {
  let server: TestServer;
  let token: string;
  let userToken: string;
  const stock = stockHelpers(() => ({ server, token }));
  const { call, ok } = documentCalls(() => ({ server, token }));
  /** The period control of the period holding `date`, for a document base type. */
  const control = async (date: string, base: string) => {
    const periods = await ok('GET', `/api/v1/models/c_period?$filter=${q(`StartDate le '${date}' and EndDate ge '${date}'`)}`);
    assert.equal(periods.records.length, 1, `one period holds ${date}`);
    const period = periods.records[0];
    const controls = await ok('GET', `/api/v1/models/c_periodcontrol?$filter=${q(`C_Period_ID eq ${period.id} and DocBaseType eq '${base}'`)}`);
    assert.equal(controls.records.length, 1, `a control of ${period.Name} for ${base}`);
    return { period, control: controls.records[0] };
  };
  const setControl = async (date: string, base: string, action: string) => {
    const { period, control: c } = await control(date, base);
    await ok('PUT', `/api/v1/models/c_periodcontrol/${c.id}`, { PeriodAction: action });
    const run = await ok('POST', '/api/v1/processes/c_periodcontrol_process', { 'model-name': 'c_periodcontrol', 'record-id': c.id });
    assert.equal(run.isError, false, JSON.stringify(run));
    return { period, control: await ok('GET', `/api/v1/models/c_periodcontrol/${c.id}`) };
  };

  before(async () => {
    server = await startTestServer();
    token = await login(server);
    userToken = await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 });
  });
  after(async () => {
    await server.close();
  });

  it('every period of the demo has an open control per document base type; the demo schema controls periods automatically', async () => {
    const { control: c } = await control(today(), 'ARI');
    assert.equal(idOf(c.PeriodStatus), 'O');
    assert.equal(idOf(c.PeriodAction), 'N');
    const schema = await ok('GET', '/api/v1/models/c_acctschema/101');
    assert.equal(schema.AutoPeriodControl, true);
  });

  it('with automatic period control a closed control does not matter; without it, complete, reverse and void refuse in a closed period and change nothing', async () => {
    const before = await ok('POST', '/api/v1/models/c_invoice', { ...INVOICE, 'doc-action': 'CO' });
    assert.equal(idOf(before.DocStatus), 'CO');
    const draft = await ok('POST', '/api/v1/models/c_invoice', INVOICE);
    const { period, control: closed } = await setControl(today(), 'ARI', 'C');
    assert.equal(idOf(closed.PeriodStatus), 'C');
    assert.equal(idOf(closed.PeriodAction), 'N', 'the action is reset to No Action');
    const auto = await ok('POST', '/api/v1/models/c_invoice', { ...INVOICE, 'doc-action': 'CO' });
    assert.equal(idOf(auto.DocStatus), 'CO', 'AutoPeriodControl looks at the open window only');

    await ok('PUT', '/api/v1/models/c_acctschema/101', { AutoPeriodControl: false });
    const complete = await call('PUT', `/api/v1/models/c_invoice/${draft.id}`, { 'doc-action': 'CO' });
    assert.equal(complete.status, 400, complete.text);
    assert.equal(complete.body.title, 'Failed Processing Document');
    assert.match(complete.body.detail, new RegExp(`status DR: action CO refused: period ${period.Name} is closed for ARI`));
    const still = await ok('GET', `/api/v1/models/c_invoice/${draft.id}`);
    assert.equal(idOf(still.DocStatus), 'DR');
    assert.equal(still.Processed, false);
    assert.equal((await stock.facts('c_invoice', draft.id)).count, 0);

    const created = await call('POST', '/api/v1/models/c_invoice', { ...INVOICE, Description: 'refused in a closed period', 'doc-action': 'CO' });
    assert.equal(created.status, 400, created.text);
    const none = await ok('GET', `/api/v1/models/c_invoice?$filter=${q(`Description eq 'refused in a closed period'`)}`);
    assert.equal(none.records.length, 0, 'the refused create left no invoice');

    for (const action of ['RC', 'RA', 'VO']) {
      const r = await call('PUT', `/api/v1/models/c_invoice/${before.id}`, { 'doc-action': action });
      assert.equal(r.status, 400, `${action}: ${r.text}`);
      assert.match(r.body.detail, new RegExp(`status CO: action ${action} refused: period ${period.Name} is closed for ARI`));
    }
    const unchanged = await ok('GET', `/api/v1/models/c_invoice/${before.id}`);
    assert.equal(idOf(unchanged.DocStatus), 'CO');
    assert.equal(unchanged.Reversal_ID ?? null, null);

    const order = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1 }], 'doc-action': 'CO' });
    assert.equal(idOf(order.DocStatus), 'CO', 'the control of SOO is still open');

    await setControl(today(), 'ARI', 'O');
    const reopened = await ok('PUT', `/api/v1/models/c_invoice/${draft.id}`, { 'doc-action': 'CO' });
    assert.equal(idOf(reopened.DocStatus), 'CO');
  });

  it('void of a completed invoice whose period closed since reverses it by accrual, dated today', async () => {
    await ok('PUT', '/api/v1/models/c_acctschema/101', { AutoPeriodControl: false });
    const date = lastMonth();
    const inv = await ok('POST', '/api/v1/models/c_invoice', { ...INVOICE, DateInvoiced: date, DateAcct: date, 'doc-action': 'CO' });
    assert.equal(idOf(inv.DocStatus), 'CO');
    await setControl(date, 'ARI', 'C');
    const voided = await ok('PUT', `/api/v1/models/c_invoice/${inv.id}`, { 'doc-action': 'VO' });
    assert.equal(idOf(voided.DocStatus), 'VO');
    const reversal = await ok('GET', `/api/v1/models/c_invoice/${idOf(voided.Reversal_ID)}`);
    assert.equal(reversal.DateAcct, today(), 'accrual: the reversal is dated today');
    const facts = await stock.facts('c_invoice', reversal.id);
    assert.equal(facts.dr, facts.cr);
    assert.ok(facts.rows.every((f) => String(f.DateAcct).slice(0, 10) === today()));
    await setControl(date, 'ARI', 'O');
  });

  it('a new period gets never-opened controls; Open/Close All opens them; a permanently closed control stays closed', async () => {
    await ok('PUT', '/api/v1/models/c_acctschema/101', { AutoPeriodControl: false });
    const year = await ok('POST', '/api/v1/models/c_year', { C_Calendar_ID: 102, FiscalYear: '2031' });
    const period = await ok('POST', '/api/v1/models/c_period', { C_Year_ID: year.id, Name: 'Jan-31', PeriodNo: 1, StartDate: '2031-01-01', EndDate: '2031-01-31' });
    const controls = await ok('GET', `/api/v1/models/c_periodcontrol?$filter=${q(`C_Period_ID eq ${period.id}`)}`);
    assert.ok(controls.records.length >= 10, 'a control per document base type');
    assert.ok(controls.records.every((c: any) => idOf(c.PeriodStatus) === 'N'));
    const dated = { ...INVOICE, DateInvoiced: '2031-01-15', DateAcct: '2031-01-15' };
    const never = await call('POST', '/api/v1/models/c_invoice', { ...dated, 'doc-action': 'CO' });
    assert.equal(never.status, 400);
    assert.match(never.body.detail, /period Jan-31 is never opened for ARI/);

    const denied = await call('POST', '/api/v1/processes/c_period_process', { 'model-name': 'c_period', 'record-id': period.id, PeriodAction: 'O' }, userToken);
    assert.equal(denied.status, 403, denied.text);
    const open = await ok('POST', '/api/v1/processes/c_period_process', { 'model-name': 'c_period', 'record-id': period.id, PeriodAction: 'O' });
    assert.equal(open.isError, false, JSON.stringify(open));
    const inv = await ok('POST', '/api/v1/models/c_invoice', { ...dated, 'doc-action': 'CO' });
    assert.equal(idOf(inv.DocStatus), 'CO');

    const { control: p } = await setControl('2031-01-15', 'API', 'P');
    assert.equal(idOf(p.PeriodStatus), 'P');
    await ok('PUT', `/api/v1/models/c_periodcontrol/${p.id}`, { PeriodAction: 'O' });
    const again = await ok('POST', '/api/v1/processes/c_periodcontrol_process', { 'model-name': 'c_periodcontrol', 'record-id': p.id });
    assert.equal(again.isError, true, 'a permanently closed control does not open');
    const all = await ok('POST', '/api/v1/processes/c_period_process', { 'model-name': 'c_period', 'record-id': period.id, PeriodAction: 'C' });
    assert.equal(all.isError, false);
    const after = await ok('GET', `/api/v1/models/c_periodcontrol?$filter=${q(`C_Period_ID eq ${period.id}`)}`);
    assert.ok(after.records.every((c: any) => idOf(c.PeriodStatus) === (c.id === p.id ? 'P' : 'C')));
    const status = await call('PUT', `/api/v1/models/c_periodcontrol/${p.id}`, { PeriodStatus: 'O' });
    assert.equal(status.status, 400, 'PeriodStatus is set by the processes only');
  });
});
