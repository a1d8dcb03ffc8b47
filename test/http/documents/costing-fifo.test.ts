import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { booksViolations } from '../../../src/documents/invariants/books-invariants.js';
import { idOf } from './document-helpers.js';
import { ASSET, cents, COGS, costingCalls } from './costing-helpers.js';
import { otherClientAdmin } from './other-client.js';

const FIFO_ELEMENT = 102;
const LIFO_ELEMENT = 1129000;
const IPV = 58100;

describe('costing: FIFO and LIFO cost layers', () => {
  const fx = serverWithDemoRoles();
  const at = () => ({ server: fx.server, token: fx.admin });
  const c = costingCalls(at);
  const violations = () => booksViolations(fx.server.services.db, 11);

  /** The product's layers with stock (or short of it), oldest first: [quantity, price]. */
  const layers = async (product: number) =>
    (await c.records('m_costqueue', `M_Product_ID eq ${product}`, 'M_CostQueue_ID'))
      .filter((r) => Number(r.CurrentQty) !== 0)
      .map((r) => [Number(r.CurrentQty), Number(r.CurrentCostPrice)]);

  /** Checks the cost row, the layers and that the inventory account holds the layers' value. */
  const expectCost = async (product: number, element: number, price: number, qty: number, expected: number[][], step: string) => {
    const cost = await c.cost(product);
    assert.deepEqual([cost.price, cost.qty, cost.element], [price, qty, element], `${step}: the cost row`);
    const now = await layers(product);
    assert.deepEqual(now, expected, `${step}: the layers`);
    assert.equal(await c.balance(product, ASSET), cents(now.reduce((n, [q, p]) => n + q! * p!, 0)), `${step}: inventory account = the layers' value`);
  };

  const count = (product: number, qtyCount: number) =>
    c.ok('POST', '/api/v1/models/m_inventory', { M_Warehouse_ID: 103, M_InventoryLine: [{ M_Product_ID: product, M_Locator_ID: 101, QtyCount: qtyCount }], 'doc-action': 'CO' });

  const reverse = async (table: string, id: unknown) => {
    const r = await c.ok('PUT', `/api/v1/models/${table}/${id}`, { 'doc-action': 'RC' });
    assert.equal(idOf(r.DocStatus), 'RE');
  };

  /** A product costed by `method` (purchase list at 10), received 10 at 10 and 10 at 13. */
  const receivedTwice = async (method: string) => {
    const product = await c.product(method, 10);
    await c.receive(product, 10, 10);
    await c.receive(product, 10, 13);
    return product;
  };

  it('FIFO: receipts at two prices make two layers; a shipment takes the oldest first and its cost of goods sold is exactly what it took; counts, reversals and a shipment beyond the layers keep the stock value', async () => {
    const product = await receivedTwice('F');
    await expectCost(product, FIFO_ELEMENT, 10, 20, [[10, 10], [10, 13]], 'two receipts');

    const shipment = await c.ship(product, 15);
    assert.equal(await c.balance(product, COGS), 165, '10 at 10 and 5 at 13');
    await expectCost(product, FIFO_ELEMENT, 13, 5, [[5, 13]], 'shipment of 15: the price is the first layer left');

    const third = await c.receive(product, 5, 16);
    await expectCost(product, FIFO_ELEMENT, 13, 10, [[5, 13], [5, 16]], 'third receipt at 16');

    const short = await count(product, 8);
    assert.equal(short.M_InventoryLine[0].QtyBook, 10);
    assert.equal(Number(short.M_InventoryLine[0].CurrentCostPrice), 13, 'the count line carries the unit cost it went out at');
    await expectCost(product, FIFO_ELEMENT, 13, 8, [[3, 13], [5, 16]], 'a count 2 short takes them from the oldest layer');

    await reverse('m_inout', shipment.id);
    assert.equal(await c.balance(product, COGS), 0, 'the reversal takes back the cost of goods sold');
    await expectCost(product, FIFO_ELEMENT, 13, 23, [[3, 13], [5, 16], [15, 11]], 'the shipment reversed brings its 15 back at the value they left with');

    await reverse('m_inout', third.id);
    await expectCost(product, FIFO_ELEMENT, 13, 18, [[3, 13], [15, 11]], 'the third receipt reversed takes its own layer out');

    await c.ship(product, 20);
    assert.equal(await c.balance(product, COGS), 3 * 13 + 15 * 11 + 2 * 11, 'beyond the layers at the last layer price');
    await expectCost(product, FIFO_ELEMENT, 13, -2, [[-2, 11]], 'two short: a layer below zero at the price they went out at');

    const details = await c.details(product);
    assert.deepEqual(
      details.map((d) => [Number(d.Qty), Number(d.Amt)]),
      [[10, 100], [10, 130], [-15, -165], [5, 80], [-2, -26], [15, 165], [-5, -80], [-20, -226]],
    );
    assert.ok(details.every((d) => Number(idOf(d.M_CostElement_ID)) === FIFO_ELEMENT));
    const history = await c.records('m_costhistory', `M_Product_ID eq ${product}`, 'M_CostHistory_ID');
    assert.deepEqual(
      history.map((h) => [Number(h.OldQty), Number(h.OldCostPrice), Number(h.NewQty), Number(h.NewCostPrice)]),
      [[0, 0, 10, 10], [10, 10, 20, 10], [20, 10, 5, 13], [5, 13, 10, 13], [10, 13, 8, 13], [8, 13, 23, 13], [23, 13, 18, 13], [18, 13, -2, 13]],
      'a cost history row per document that changed the cost',
    );
    assert.deepEqual(history.map((h) => Number(idOf(h.M_CostDetail_ID))), details.map((d) => Number(d.id)), 'each names the cost detail of its document');
    assert.deepEqual(await violations(), []);
  });

  it('LIFO: a shipment takes the newest layer first; internal use and counts too; the price is the newest layer', async () => {
    const product = await receivedTwice('L');
    await expectCost(product, LIFO_ELEMENT, 13, 20, [[10, 10], [10, 13]], 'two receipts: the price is the newest');

    const shipment = await c.ship(product, 15);
    assert.equal(await c.balance(product, COGS), 180, '10 at 13 and 5 at 10');
    await expectCost(product, LIFO_ELEMENT, 10, 5, [[5, 10]], 'shipment of 15');

    await c.receive(product, 5, 16);
    await expectCost(product, LIFO_ELEMENT, 16, 10, [[5, 10], [5, 16]], 'third receipt at 16');

    const use = await c.ok('POST', '/api/v1/models/m_inventory', {
      M_Warehouse_ID: 103, C_DocType_ID: 200000, M_InventoryLine: [{ M_Product_ID: product, M_Locator_ID: 101, QtyInternalUse: 7, C_Charge_ID: 200000 }], 'doc-action': 'CO',
    });
    assert.equal(idOf(use.DocStatus), 'CO');
    await expectCost(product, LIFO_ELEMENT, 10, 3, [[3, 10]], 'internal use of 7: 5 at 16 and 2 at 10');
    const useFacts = await c.records('fact_acct', `AD_Table_ID eq 321 and Record_ID eq ${use.id} and Account_ID eq ${ASSET}`, 'Fact_Acct_ID');
    assert.deepEqual(useFacts.map((f) => Number(f.AmtAcctCr)), [100]);

    const more = await count(product, 5);
    await expectCost(product, LIFO_ELEMENT, 10, 5, [[3, 10], [2, 10]], 'a count 2 over comes in at the current price');

    await reverse('m_inventory', use.id);
    await expectCost(product, LIFO_ELEMENT, 14.28571429, 12, [[3, 10], [2, 10], [7, 14.28571429]], 'the internal use reversed');
    await reverse('m_inout', shipment.id);
    await expectCost(product, LIFO_ELEMENT, 12, 27, [[3, 10], [2, 10], [7, 14.28571429], [15, 12]], 'the shipment reversed');
    await reverse('m_inventory', more.id);
    await expectCost(product, LIFO_ELEMENT, 12, 25, [[3, 10], [7, 14.28571429], [15, 12]], 'the count reversed takes its own layer out');
    assert.deepEqual(await violations(), []);
  });

  it('a shipment of many lines of FIFO and average products is costed in one statement, each line exactly', async () => {
    const fifo = await c.product('F', 10);
    const average = await c.product('A', 10);
    await c.receive(fifo, 4, 10);
    await c.receive(fifo, 4, 12);
    await c.receive(average, 4, 10);
    await c.receive(average, 4, 12);
    const so = await c.ok('POST', '/api/v1/models/c_order', {
      C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, 'doc-action': 'CO',
      C_OrderLine: [{ M_Product_ID: fifo, QtyEntered: 3 }, { M_Product_ID: average, QtyEntered: 3 }, { M_Product_ID: fifo, QtyEntered: 3 }],
    });
    const lines = await c.records('c_orderline', `C_Order_ID eq ${so.id}`, 'Line');
    const shipment = await c.ok('POST', '/api/v1/models/m_inout', { C_Order_ID: so.id, M_InOutLine: lines.map((l) => ({ C_OrderLine_ID: l.id })), 'doc-action': 'CO' });
    const details = (await c.records('m_costdetail', `M_Product_ID eq ${fifo} and Qty lt 0`, 'M_InOutLine_ID')).filter((d) => d.M_InOutLine_ID);
    assert.deepEqual(details.map((d) => Number(d.Amt)), [-30, -34], 'the first line 3 at 10, the second 1 at 10 and 2 at 12');
    assert.equal(await c.balance(average, COGS), 33, '3 at the average 11');
    assert.equal(await c.balance(fifo, COGS), 64);
    await expectCost(fifo, FIFO_ELEMENT, 12, 2, [[2, 12]], 'after the shipment');
    assert.ok(shipment.id);
    assert.deepEqual(await violations(), []);
  });

  it('an invoice at another price than the order leaves the layers as received: its whole variance goes to Invoice Price Variance', async () => {
    const product = await c.product('F', 10);
    const receipt = await c.receive(product, 10, 10);
    const inv = await c.ok('POST', '/api/v1/models/c_invoice', {
      C_Order_ID: Number(idOf(receipt.C_Order_ID)), C_DocTypeTarget_ID: 123, 'doc-action': 'CO',
      C_InvoiceLine: [{ C_OrderLine_ID: Number(idOf(receipt.M_InOutLine[0].C_OrderLine_ID)), PriceEntered: 12 }],
    });
    assert.equal(idOf(inv.DocStatus), 'CO');
    assert.equal(await c.balance(product, IPV), 20, '10 × (12 − 10)');
    await expectCost(product, FIFO_ELEMENT, 10, 10, [[10, 10]], 'invoiced at 12');
    assert.equal((await c.details(product)).length, 1, 'no cost detail of the match');
    assert.deepEqual(await violations(), []);
  });

  it('cost layers are written only by documents; the least privileged role and another client see none of the demo company', async () => {
    const product = await c.product('F', 10);
    await c.receive(product, 3, 10);
    const [layer] = await c.records('m_costqueue', `M_Product_ID eq ${product}`);
    assert.ok(layer);
    assert.equal(Number(idOf(layer.AD_Client_ID)), 11);
    for (const token of [fx.admin, fx.ws]) {
      const write = await fx.server.request('PUT', `/api/v1/models/m_costqueue/${layer.id}`, { token, body: { CurrentQty: 100 } });
      assert.ok(write.status === 403 || write.status === 404, write.text);
      assert.equal(write.body.status, write.status);
      const create = await fx.server.request('POST', '/api/v1/models/m_costqueue', { token, body: { M_Product_ID: product, CurrentQty: 1, CurrentCostPrice: 1 } });
      assert.ok(create.status === 403 || create.status === 404, create.text);
      const remove = await fx.server.request('DELETE', `/api/v1/models/m_costqueue/${layer.id}`, { token });
      assert.ok(remove.status === 403 || remove.status === 404, remove.text);
    }
    assert.deepEqual(await layers(product), [[3, 10]], 'the layer is as the receipt made it');

    const ws = await fx.server.request('GET', `/api/v1/models/m_costqueue?$filter=M_Product_ID eq ${product}`, { token: fx.ws });
    if (ws.status === 200) assert.ok(ws.body.records.every((r: any) => Number(idOf(r.AD_Client_ID)) === 11));
    else assert.equal(ws.status, 403, ws.text);

    const other = await otherClientAdmin(fx.server);
    const list = await fx.server.request('GET', '/api/v1/models/m_costqueue', { token: other });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body.records, [], 'no layer of the demo company');
    const one = await fx.server.request('GET', `/api/v1/models/m_costqueue/${layer.id}`, { token: other });
    assert.ok(one.status === 403 || one.status === 404, one.text);
    assert.equal(one.body.CurrentQty, undefined, 'nothing of the layer');
    const write = await fx.server.request('PUT', `/api/v1/models/m_costqueue/${layer.id}`, { token: other, body: { CurrentQty: 100 } });
    assert.ok(write.status === 403 || write.status === 404, write.text);
    assert.deepEqual(await layers(product), [[3, 10]]);
  });
});
