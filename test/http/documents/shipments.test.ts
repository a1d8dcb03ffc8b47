import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { idOf, q } from './document-helpers.js';
import { stockHelpers } from './stock-helpers.js';

describe('shipments and receipts', () => {
  let server: TestServer;
  let token: string;
  const call = (method: string, path: string, body?: unknown) => server.request(method, path, { token, body });
  const stock = stockHelpers(() => ({ server, token }));

  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('ships a completed order: stock, transactions, delivered and reserved quantities, balanced facts; a reversal moves everything back', async () => {
    const onHand = { 128: await stock.onHand(128), 133: await stock.onHand(133) };
    const reserved = { 128: await stock.reserved(128), 133: await stock.reserved(133) };
    const o = await call('POST', '/api/v1/models/c_order', {
      C_BPartner_ID: 118,
      C_DocTypeTarget_ID: 132,
      C_OrderLine: [
        { M_Product_ID: 128, QtyEntered: 5 },
        { M_Product_ID: 133, QtyEntered: 4 },
      ],
      'doc-action': 'CO',
    });
    assert.equal(o.status, 201, o.text);
    const ol = await stock.orderLines(o.body.id);
    const s = await call('POST', '/api/v1/models/m_inout', {
      C_Order_ID: o.body.id,
      M_InOutLine: [{ C_OrderLine_ID: ol[0]!.id }, { C_OrderLine_ID: ol[1]!.id, QtyEntered: 3 }],
      'doc-action': 'CO',
    });
    assert.equal(s.status, 201, s.text);
    assert.equal(idOf(s.body.DocStatus), 'CO');
    assert.equal(idOf(s.body.MovementType), 'C-');
    assert.equal(idOf(s.body.C_DocType_ID), 120, 'MM Shipment');
    assert.equal(idOf(s.body.C_BPartner_ID), 118);
    assert.equal(idOf(s.body.M_Warehouse_ID), 103);
    assert.deepEqual(s.body.M_InOutLine.map((l: any) => [idOf(l.M_Product_ID), l.MovementQty, idOf(l.M_Locator_ID)]), [
      [128, 5, 101],
      [133, 3, 101],
    ]);
    assert.equal(await stock.onHand(128), onHand[128] - 5);
    assert.equal(await stock.onHand(133), onHand[133] - 3);
    assert.equal(await stock.reserved(128), reserved[128]);
    assert.equal(await stock.reserved(133), reserved[133] + 1, 'one patio chair still owed');
    const after = await stock.orderLines(o.body.id);
    assert.deepEqual(after.map((l) => [l.QtyDelivered, l.QtyReserved]), [[5, 0], [3, 1]]);
    const tx = await call('GET', `/api/v1/models/m_transaction?$filter=${q(`M_InOutLine_ID eq ${s.body.M_InOutLine[0].id}`)}`);
    assert.deepEqual(tx.body.records.map((t: any) => [idOf(t.MovementType), t.MovementQty]), [['C-', -5]]);
    const facts = await stock.facts('m_inout', s.body.id);
    assert.equal(facts.dr, facts.cr);
    assert.equal(facts.dr, 5 * 11 + 3 * 10, 'cost at the purchase price list');

    const r = await call('PUT', `/api/v1/models/m_inout/${s.body.id}`, { 'doc-action': 'RC' });
    assert.equal(r.status, 200, r.text);
    assert.equal(idOf(r.body.DocStatus), 'RE');
    const reversal = await call('GET', `/api/v1/models/m_inout/${idOf(r.body.Reversal_ID)}`);
    assert.equal(reversal.body.DocumentNo, `${s.body.DocumentNo}^`);
    assert.equal(idOf(reversal.body.DocStatus), 'RE');
    assert.equal(await stock.onHand(128), onHand[128]);
    assert.equal(await stock.onHand(133), onHand[133]);
    assert.equal(await stock.reserved(128), reserved[128] + 5, 'the order owes its quantities again');
    const back = await stock.orderLines(o.body.id);
    assert.deepEqual(back.map((l) => [l.QtyDelivered, l.QtyReserved]), [[0, 5], [0, 4]]);
    const reversed = await stock.facts('m_inout', reversal.body.id);
    assert.equal(reversed.dr, -facts.dr);
    assert.equal(reversed.dr, reversed.cr);
    const again = await call('PUT', `/api/v1/models/m_inout/${s.body.id}`, { 'doc-action': 'RC' });
    assert.equal(again.status, 400);
    assert.match(again.body.detail, /status RE.*action RC/);
  });

  it('receives a purchase order (V+) at its price, and refuses a line of another order', async () => {
    const onHand = await stock.onHand(123);
    const expected = async () => {
      const r = await call('GET', `/api/v1/models/m_storagereservation?$filter=${q('M_Product_ID eq 123 and M_Warehouse_ID eq 103 and IsSOTrx eq false')}`);
      return r.body.records.reduce((n: number, x: { Qty: number }) => n + Number(x.Qty), 0);
    };
    const ordered = await expected();
    const po = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 114, C_DocTypeTarget_ID: 126, IsSOTrx: false, C_OrderLine: [{ M_Product_ID: 123, QtyEntered: 7 }], 'doc-action': 'CO' });
    assert.equal(po.status, 201, po.text);
    assert.equal(await expected(), ordered + 7, 'a purchase order expects its quantities (IsSOTrx N)');
    const other = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 114, C_DocTypeTarget_ID: 126, IsSOTrx: false, C_OrderLine: [{ M_Product_ID: 124, QtyEntered: 1 }], 'doc-action': 'CO' });
    const [line] = await stock.orderLines(po.body.id);
    const [otherLine] = await stock.orderLines(other.body.id);
    const wrong = await call('POST', '/api/v1/models/m_inout', { C_Order_ID: po.body.id, M_InOutLine: [{ C_OrderLine_ID: otherLine!.id }] });
    assert.equal(wrong.status, 400, wrong.text);
    assert.match(wrong.body.detail, /not a line of the shipment's order/);
    const rc = await call('POST', '/api/v1/models/m_inout', { C_Order_ID: po.body.id, M_InOutLine: [{ C_OrderLine_ID: line!.id }], 'doc-action': 'CO' });
    assert.equal(rc.status, 201, rc.text);
    assert.equal(idOf(rc.body.MovementType), 'V+');
    assert.equal(idOf(rc.body.C_DocType_ID), 122, 'MM Receipt');
    assert.equal(await stock.onHand(123), onHand + 7);
    assert.equal(await expected(), ordered, 'received: nothing more expected');
    const facts = await stock.facts('m_inout', rc.body.id);
    assert.equal(facts.dr, 7 * Number(line!.PriceActual));
    assert.deepEqual(facts.accounts.sort(), [14100, 21190]);
  });

  it('refuses to complete a shipment without lines and leaves it drafted', async () => {
    const s = await call('POST', '/api/v1/models/m_inout', { C_BPartner_ID: 118, IsSOTrx: true });
    assert.equal(s.status, 201, s.text);
    assert.equal(idOf(s.body.MovementType), 'C-');
    const r = await call('PUT', `/api/v1/models/m_inout/${s.body.id}`, { 'doc-action': 'CO' });
    assert.equal(r.status, 400);
    assert.match(r.body.detail, /M_InOut \S+ in status DR: action CO refused: the document has no lines/);
    const back = await call('GET', `/api/v1/models/m_inout/${s.body.id}`);
    assert.equal(idOf(back.body.DocStatus), 'DR');
    assert.equal(back.body.Processed, false);
  });
});
