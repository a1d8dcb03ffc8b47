import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { ApiError } from '../../../src/errors.js';
import type { ModelEvent } from '../../../src/events/model-events.js';
import { idOf, q } from './document-helpers.js';

describe('document events, concurrency and defaults', () => {
  let server: TestServer;
  let token: string;
  const call = (method: string, path: string, body?: unknown) => server.request(method, path, { token, body });
  const seen: { type: string; status: unknown; before: unknown; changed: string[] }[] = [];
  const order = (body: Record<string, unknown> = {}) =>
    call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1 }], ...body });

  before(async () => {
    server = await startTestServer();
    token = await login(server);
    const events = server.services.events;
    for (const type of ['before-prepare', 'after-prepare', 'before-complete', 'after-complete', 'after-void', 'after-close', 'after-reactivate'] as const) {
      events.on(type, 'c_order', (e: ModelEvent) => {
        seen.push({ type, status: e.row.docstatus, before: e.old?.docstatus, changed: [...e.changed].sort() });
        if (type === 'before-complete' && e.row.description === 'refuse me') throw new ApiError(400, 'Validation Errors', 'refused by a subscriber');
      });
    }
    events.on('after-complete', 'm_inout', async (e: ModelEvent) => {
      // Runs inside the action's transaction: it sees the stock the shipment moved.
      const { rows } = await e.tx.query('SELECT count(*)::int AS n FROM m_transaction t JOIN m_inoutline l ON l.m_inoutline_id = t.m_inoutline_id WHERE l.m_inout_id = $1', [e.row.m_inout_id]);
      seen.push({ type: 'm_inout after-complete', status: e.row.docstatus, before: (rows[0] as { n: number }).n, changed: [] });
    });
  });
  after(async () => {
    await server.close();
  });

  it('raises before and after events of prepare and complete (DBPR, DAPR, DBCO, DACO), then void (DAVO)', async () => {
    seen.length = 0;
    const r = await order({ 'doc-action': 'CO' });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(
      seen.map((s) => [s.type, s.status, s.before]),
      [
        ['before-prepare', 'DR', 'DR'],
        ['after-prepare', 'IP', 'DR'],
        ['before-complete', 'IP', 'IP'],
        ['after-complete', 'CO', 'IP'],
      ],
    );
    assert.deepEqual(seen[3]!.changed, ['docaction', 'docstatus', 'processed']);
    seen.length = 0;
    await call('PUT', `/api/v1/models/c_order/${r.body.id}`, { 'doc-action': 'RE' });
    await call('PUT', `/api/v1/models/c_order/${r.body.id}`, { 'doc-action': 'VO' });
    assert.deepEqual(
      seen.map((s) => [s.type, s.status]),
      [
        ['after-reactivate', 'IP'],
        ['after-void', 'VO'],
      ],
    );
  });

  it('a before-complete subscriber that refuses rolls the whole request back', async () => {
    const r = await order({ Description: 'refuse me', 'doc-action': 'CO' });
    assert.equal(r.status, 400);
    assert.equal(r.body.detail, 'refused by a subscriber');
    const list = await call('GET', `/api/v1/models/c_order?$filter=${q("Description eq 'refuse me'")}`);
    assert.equal(list.body.records.length, 0);
  });

  it('an after-complete subscriber of shipments sees the stock moved in the same transaction', async () => {
    const o = await order({ 'doc-action': 'CO' });
    const lines = await call('GET', `/api/v1/models/c_orderline?$filter=${q(`C_Order_ID eq ${o.body.id}`)}`);
    seen.length = 0;
    const s = await call('POST', '/api/v1/models/m_inout', { C_Order_ID: o.body.id, M_InOutLine: [{ C_OrderLine_ID: lines.body.records[0].id }], 'doc-action': 'CO' });
    assert.equal(s.status, 201, s.text);
    assert.deepEqual(seen.filter((x) => x.type === 'm_inout after-complete').map((x) => [x.status, x.before]), [['CO', 1]]);
  });

  it('totals written after a line change raise the header\'s after-change with the totals changed', async () => {
    const totals: [unknown, unknown, string[]][] = [];
    server.services.events.on('after-change', 'c_order', (e: ModelEvent) => {
      if (e.changed.has('grandtotal')) totals.push([Number(e.old?.grandtotal), Number(e.row.grandtotal), [...e.changed].sort()]);
    });
    const o = await order();
    const line = (await call('GET', `/api/v1/models/c_orderline?$filter=${q(`C_Order_ID eq ${o.body.id}`)}`)).body.records[0];
    totals.length = 0;
    const r = await call('PUT', `/api/v1/models/c_orderline/${line.id}`, { QtyEntered: 3 });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(totals, [[23, 69, ['grandtotal', 'totallines', 'updated', 'updatedby']]]);
  });

  it('a value the client sent is kept even when it equals the dictionary default (PaymentRule B against the partner rule P)', async () => {
    const sent = await order({ PaymentRule: 'B' });
    assert.equal(idOf(sent.body.PaymentRule), 'B');
    const defaulted = await order();
    assert.equal(idOf(defaulted.body.PaymentRule), 'P');
  });

  it('gives distinct numbers to orders created and completed in parallel', async () => {
    const n = server.services.db.kind === 'pg' ? 50 : 10;
    const results = await Promise.all(Array.from({ length: n }, () => order({ 'doc-action': 'CO' })));
    for (const r of results) assert.equal(r.status, 201, r.text);
    const numbers = new Set(results.map((r) => r.body.DocumentNo));
    assert.equal(numbers.size, n);
    assert.ok(results.every((r) => idOf(r.body.DocStatus) === 'CO'));
  });

  it('a line and its header changed at the same time do not deadlock', async () => {
    const o = await order({ C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1 }, { M_Product_ID: 133, QtyEntered: 1 }] });
    const lines = await call('GET', `/api/v1/models/c_orderline?$filter=${q(`C_Order_ID eq ${o.body.id}`)}&$orderby=Line`);
    const [a, b] = lines.body.records;
    const work = [];
    for (let i = 0; i < 10; i++) {
      work.push(call('PUT', `/api/v1/models/c_order/${o.body.id}`, { DatePromised: `2026-0${(i % 9) + 1}-15` }));
      work.push(call('PUT', `/api/v1/models/c_orderline/${(i % 2 ? a : b).id}`, { QtyEntered: i + 2 }));
    }
    const done = await Promise.all(work);
    for (const r of done) assert.equal(r.status, 200, r.text);
    const after = await call('GET', `/api/v1/models/c_order/${o.body.id}?$expand=C_OrderLine`);
    const sum = after.body.C_OrderLine.reduce((n: number, l: any) => n + Number(l.LineNetAmt), 0);
    assert.equal(after.body.TotalLines, Math.round(sum * 100) / 100, 'the totals saw every line change');
  });
});
