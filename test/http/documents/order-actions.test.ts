import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { idOf, q } from './document-helpers.js';

describe('order actions', () => {
  let server: TestServer;
  let token: string;
  const call = (method: string, path: string, body?: unknown) => server.request(method, path, { token, body });
  const lines = [
    { M_Product_ID: 128, QtyEntered: 5, C_Tax_ID: 105 },
    { M_Product_ID: 133, QtyEntered: 4, C_Tax_ID: 107 },
  ];
  const reserved = async (product: number) => {
    const r = await call('GET', `/api/v1/models/m_storagereservation?$filter=${q(`M_Product_ID eq ${product} and M_Warehouse_ID eq 103 and IsSOTrx eq true`)}`);
    assert.equal(r.status, 200, r.text);
    return r.body.records.reduce((n: number, x: { Qty: number }) => n + Number(x.Qty), 0);
  };
  const orderLines = async (id: number) => {
    const r = await call('GET', `/api/v1/models/c_orderline?$filter=${q(`C_Order_ID eq ${id}`)}&$orderby=Line`);
    return r.body.records as Record<string, any>[];
  };

  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('completes an order sent with doc-action, reserving its quantities', async () => {
    const before128 = await reserved(128);
    const r = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: lines, 'doc-action': 'CO' });
    assert.equal(r.status, 201, r.text);
    assert.equal(idOf(r.body.DocStatus), 'CO');
    assert.equal(r.body.Processed, true);
    assert.equal(idOf(r.body.C_DocType_ID), 132, 'the target type becomes the type');
    assert.equal(r.body['doc-processmsg'], '');
    assert.equal(r.body.GrandTotal, 115 + 6.9 + 80 + 5.6);
    const saved = await orderLines(r.body.id);
    assert.deepEqual(saved.map((l) => [l.QtyReserved, l.Processed]), [[5, true], [4, true]]);
    assert.equal(await reserved(128), before128 + 5);
  });

  it('runs an action through PUT with only doc-action ({"id": ...} form), and refuses one the status does not allow', async () => {
    const o = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: lines });
    assert.equal(o.status, 201, o.text);
    const refused = await call('PUT', `/api/v1/models/c_order/${o.body.id}`, { 'doc-action': 'CL' });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.title, 'Failed Processing Document');
    assert.match(refused.body.detail, /status DR.*action CL.*not allowed/);
    const done = await call('PUT', `/api/v1/models/c_order/${o.body.id}`, { 'doc-action': { id: 'CO' } });
    assert.equal(done.status, 200, done.text);
    assert.equal(idOf(done.body.DocStatus), 'CO');
    const again = await call('PUT', `/api/v1/models/c_order/${o.body.id}`, { 'doc-action': 'CO' });
    assert.equal(again.status, 400);
    assert.match(again.body.detail, /status CO.*action CO/);
  });

  it('refuses to complete an order without lines, leaving it drafted', async () => {
    const r = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, Description: 'empty', 'doc-action': 'CO' });
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.detail, /status DR.*action CO.*no lines/);
    const list = await call('GET', `/api/v1/models/c_order?$filter=${q("Description eq 'empty'")}`);
    assert.equal(list.body.records.length, 0, 'the whole request rolled back');
  });

  it('a processed order refuses changes of its columns and of its lines', async () => {
    const r = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: lines, 'doc-action': 'CO' });
    const put = await call('PUT', `/api/v1/models/c_order/${r.body.id}`, { Description: 'changed' });
    assert.equal(put.status, 400);
    assert.match(put.body.detail, /processed/);
    const line = (await orderLines(r.body.id))[0]!;
    const putLine = await call('PUT', `/api/v1/models/c_orderline/${line.id}`, { QtyEntered: 9 });
    assert.equal(putLine.status, 400);
    const after = await call('GET', `/api/v1/models/c_order/${r.body.id}`);
    assert.equal(after.body.Description ?? null, null);
    assert.equal(after.body.GrandTotal, r.body.GrandTotal);
  });

  it('void zeroes the lines and releases the reservations; close keeps the delivered quantities', async () => {
    const start = await reserved(133);
    const a = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: lines, 'doc-action': 'CO' });
    assert.equal(await reserved(133), start + 4);
    const v = await call('PUT', `/api/v1/models/c_order/${a.body.id}`, { 'doc-action': 'VO' });
    assert.equal(v.status, 200, v.text);
    assert.equal(idOf(v.body.DocStatus), 'VO');
    assert.equal(v.body.GrandTotal, 0);
    assert.equal(v.body.TotalLines, 0);
    const voided = await orderLines(a.body.id);
    assert.deepEqual(voided.map((l) => [l.QtyOrdered, l.QtyReserved, l.LineNetAmt]), [[0, 0, 0], [0, 0, 0]]);
    assert.match(voided[0]!.Description, /Voided \(5/);
    assert.equal(await reserved(133), start);
    const b = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: lines, 'doc-action': 'CO' });
    const c = await call('PUT', `/api/v1/models/c_order/${b.body.id}`, { 'doc-action': 'CL' });
    assert.equal(c.status, 200, c.text);
    assert.equal(idOf(c.body.DocStatus), 'CL');
    const closed = await orderLines(b.body.id);
    assert.deepEqual(closed.map((l) => [l.QtyOrdered, l.QtyLostSales, l.QtyReserved]), [[0, 5, 0], [0, 4, 0]]);
    assert.equal(await reserved(133), start);
    const reopen = await call('PUT', `/api/v1/models/c_order/${b.body.id}`, { 'doc-action': 'VO' });
    assert.equal(reopen.status, 400);
    assert.match(reopen.body.detail, /status CL.*action VO/);
  });

  it('reactivates a completed standard order back to In Progress', async () => {
    const a = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: lines, 'doc-action': 'CO' });
    const r = await call('PUT', `/api/v1/models/c_order/${a.body.id}`, { 'doc-action': 'RE' });
    assert.equal(r.status, 200, r.text);
    assert.equal(idOf(r.body.DocStatus), 'IP');
    assert.equal(r.body.Processed, false);
    const put = await call('PUT', `/api/v1/models/c_order/${a.body.id}`, { Description: 'again', 'doc-action': 'CO' });
    assert.equal(put.status, 200, put.text);
    assert.equal(idOf(put.body.DocStatus), 'CO');
    assert.equal(put.body.Description, 'again');
  });

  it('runs actions inside a batch, which rolls back as a whole when one is refused', async () => {
    const r = await call('POST', '/api/v1/batch', [
      { method: 'POST', path: 'v1/models/c_order', body: { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, Description: 'batch', C_OrderLine: lines } },
      { method: 'PUT', path: 'v1/models/c_order/$0.id', body: { 'doc-action': 'CO' } },
      { method: 'PUT', path: 'v1/models/c_order/$0.id', body: { 'doc-action': 'PR' } },
    ]);
    assert.equal(r.status, 400, r.text);
    assert.equal(idOf(r.body[1].body.DocStatus), 'CO');
    assert.equal(r.body[2].statusCode, 400);
    const list = await call('GET', `/api/v1/models/c_order?$filter=${q("Description eq 'batch'")}`);
    assert.equal(list.body.records.length, 0);
  });

  it('refuses to complete in a date without an open period, naming the date', async () => {
    const r = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, DateAcct: '1999-01-04', C_OrderLine: lines, 'doc-action': 'CO' });
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.detail, /status DR: action CO refused: no open accounting period for 1999-01-04/);
  });

  it('gives the definite number of the document type on complete', async () => {
    const seq = await call('POST', '/api/v1/models/ad_sequence', { Name: 'Definite quotations', Prefix: 'Q-', StartNo: 500, CurrentNext: 500, IncrementNo: 1, IsTableID: false, IsAutoSequence: true });
    assert.equal(seq.status, 201, seq.text);
    const dt = await call('PUT', '/api/v1/models/c_doctype/128', { IsOverwriteSeqOnComplete: true, DefiniteSequence_ID: seq.body.id });
    assert.equal(dt.status, 200, dt.text);
    const a = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 128, C_OrderLine: lines });
    assert.equal(a.status, 201, a.text);
    assert.doesNotMatch(a.body.DocumentNo, /^Q-/, 'a draft keeps its first number');
    const done = await call('PUT', `/api/v1/models/c_order/${a.body.id}`, { 'doc-action': 'CO' });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.DocumentNo, 'Q-500');
    const b = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 128, C_OrderLine: lines, 'doc-action': 'CO' });
    assert.equal(b.body.DocumentNo, 'Q-501');
  });
});
