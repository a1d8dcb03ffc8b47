import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { booksViolations } from '../../../src/documents/invariants/books-invariants.js';
import { idOf } from './document-helpers.js';
import { ASSET, average, cents, COGS, costingCalls } from './costing-helpers.js';

const AVERAGE_PO_ELEMENT = 103;
const STANDARD_ELEMENT = 100;


describe('costing: cost details, costs and the inventory account', () => {
  const fx = serverWithDemoRoles();
  const at = () => ({ server: fx.server, token: fx.admin });
  const c = costingCalls(at);
  const violations = () => booksViolations(fx.server.services.db, 11);

  it('average PO: received at two prices, moved, counted with a difference, used internally, received again and shipped; the cost after each step is the weighted average and the inventory account the stock value', async () => {
    const product = await c.product('A', 10);
    const expectValue = async (price: number, qty: number, step: string) => {
      const cost = await c.cost(product);
      assert.deepEqual([cost.price, cost.qty, cost.element], [price, qty, AVERAGE_PO_ELEMENT], step);
      assert.equal(await c.balance(product, ASSET), cents(price * qty), `${step}: inventory account = stock value`);
    };

    await c.receive(product, 10, 10);
    let price = 10;
    await expectValue(price, 10, 'first receipt at 10');

    await c.receive(product, 10, 13);
    price = average(price, 10, 130, 10);
    assert.equal(price, 11.5);
    await expectValue(price, 20, 'second receipt at 13');

    const move = await c.ok('POST', '/api/v1/models/m_movement', {
      M_MovementLine: [{ M_Product_ID: product, M_Locator_ID: 101, M_LocatorTo_ID: 102, MovementQty: 5 }], 'doc-action': 'CO',
    });
    assert.equal(idOf(move.DocStatus), 'CO');
    await expectValue(price, 20, 'a move between organizations keeps the cost');
    const moveFacts = await c.records('fact_acct', `AD_Table_ID eq 323 and Record_ID eq ${move.id}`, 'Fact_Acct_ID');
    assert.deepEqual(moveFacts.map((f) => [Number(f.AmtAcctDr), Number(f.AmtAcctCr)]).sort(), [[0, 57.5], [57.5, 0]], '5 at 11.50');

    const count = await c.ok('POST', '/api/v1/models/m_inventory', { M_Warehouse_ID: 103, M_InventoryLine: [{ M_Product_ID: product, M_Locator_ID: 101, QtyCount: 13 }], 'doc-action': 'CO' });
    assert.equal(idOf(count.DocStatus), 'CO');
    assert.equal(count.M_InventoryLine[0].QtyBook, 15);
    await expectValue(price, 18, 'a count 2 short takes 2 out at the average');

    const use = await c.ok('POST', '/api/v1/models/m_inventory', {
      M_Warehouse_ID: 103, C_DocType_ID: 200000, M_InventoryLine: [{ M_Product_ID: product, M_Locator_ID: 101, QtyInternalUse: 3, C_Charge_ID: 200000 }], 'doc-action': 'CO',
    });
    assert.equal(idOf(use.DocStatus), 'CO');
    await expectValue(price, 15, 'internal use of 3');

    const third = await c.receive(product, 5, 16);
    price = average(price, 15, 80, 5);
    assert.equal(price, 12.625);
    await expectValue(price, 20, 'third receipt at 16');

    const shipment = await c.ship(product, 4);
    await expectValue(price, 16, 'a shipment takes 4 out at the average');
    assert.equal(await c.balance(product, COGS), cents(4 * price), 'cost of goods sold at the average');

    const details = await c.details(product);
    assert.deepEqual(
      details.map((d) => [Number(d.Qty), Number(d.Amt)]),
      [[10, 100], [10, 130], [-2, -23], [-3, -34.5], [5, 80], [-4, -50.5]],
      'one cost detail per receipt, count, internal use and shipment line; none for a move inside the client',
    );
    assert.ok(details.every((d) => Number(idOf(d.M_CostElement_ID)) === AVERAGE_PO_ELEMENT));

    const rs = await c.ok('PUT', `/api/v1/models/m_inout/${shipment.id}`, { 'doc-action': 'RC' });
    assert.equal(idOf(rs.DocStatus), 'RE');
    await expectValue(average(price, 16, 50.5, 4), 20, 'the shipment reversed brings back what it took');

    const rr = await c.ok('PUT', `/api/v1/models/m_inout/${third.id}`, { 'doc-action': 'RC' });
    assert.equal(idOf(rr.DocStatus), 'RE');
    price = average(12.625, 20, -80, -5);
    assert.equal(price, 11.5, 'reversing the last receipt restores the average before it');
    await expectValue(price, 15, 'the third receipt reversed');

    const ru = await c.ok('PUT', `/api/v1/models/m_inventory/${use.id}`, { 'doc-action': 'RC' });
    assert.equal(idOf(ru.DocStatus), 'RE');
    await expectValue(average(price, 15, 34.5, 3), 18, 'the internal use reversed brings its 3 back at the value they left with');
    assert.equal((await c.details(product)).length, 9, 'six documents and three reversals, a cost detail each');
    assert.equal(await c.balance(product, COGS), 0);
    assert.deepEqual(await violations(), []);
  });

  it('standard cost: a receipt comes in at the standard cost whatever its order price, shipments go out at it, the price stays', async () => {
    const before = await c.cost(128);
    assert.deepEqual([before.price, before.element], [11, STANDARD_ELEMENT], 'the demo is costed at standard, its opening cost from the purchase list');
    const receipt = await c.receive(128, 4, 15);
    const facts = await c.records('fact_acct', `AD_Table_ID eq 319 and Record_ID eq ${receipt.id} and Account_ID eq ${ASSET}`, 'Fact_Acct_ID');
    assert.deepEqual(facts.map((f) => Number(f.AmtAcctDr)), [44], '4 at the standard 11, not the order price 15');
    const after = await c.cost(128);
    assert.deepEqual([after.price, after.qty], [11, before.qty + 4]);
    await c.ship(128, 2);
    assert.deepEqual([(await c.cost(128)).price, (await c.cost(128)).qty], [11, before.qty + 2]);
    assert.deepEqual(await violations(), []);
  });

  it('a new product costed for the first time at standard takes its purchase list price', async () => {
    const product = await c.product('S', 7.25);
    await c.receive(product, 8, 9);
    const cost = await c.cost(product);
    assert.deepEqual([cost.price, cost.qty, cost.element], [7.25, 8, STANDARD_ELEMENT]);
    assert.equal(await c.balance(product, ASSET), 58);
  });

  it('cost details are written only by documents, by no role; the least privileged role reads the costs of its own client only; a refused document costs nothing', async () => {
    const [detail] = await c.details(128);
    assert.ok(detail);
    for (const token of [fx.admin, fx.ws]) {
      const write = await fx.server.request('PUT', `/api/v1/models/m_costdetail/${detail.id}`, { token, body: { Amt: 1 } });
      assert.equal(write.status, 403, write.text);
      assert.equal(write.body.status, 403);
      const create = await fx.server.request('POST', '/api/v1/models/m_costdetail', { token, body: { M_Product_ID: 128, Amt: 1, Qty: 1 } });
      assert.equal(create.status, 403, create.text);
    }
    const ws = await fx.server.request('GET', '/api/v1/models/m_cost?$top=500', { token: fx.ws });
    assert.equal(ws.status, 200, ws.text);
    assert.ok(ws.body.records.length > 0);
    assert.ok(ws.body.records.every((r: any) => Number(idOf(r.AD_Client_ID)) === 11), 'no cost of another client');
    assert.equal(ws.body['row-count'], (await fx.server.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM m_cost WHERE ad_client_id = 11')).rows[0]!.n);

    const product = await c.product('A', 10);
    await c.receive(product, 2, 10);
    const tooMany = await c.call('POST', '/api/v1/models/m_movement', {
      M_MovementLine: [{ M_Product_ID: product, M_Locator_ID: 101, M_LocatorTo_ID: 102, MovementQty: 1 }, { M_Product_ID: 999999999, M_Locator_ID: 101, M_LocatorTo_ID: 102, MovementQty: 1 }],
      'doc-action': 'CO',
    });
    assert.ok(tooMany.status >= 400 && tooMany.status < 500, `${tooMany.status} ${tooMany.text}`);
    const count = await c.call('POST', '/api/v1/models/m_inventory', {
      M_Warehouse_ID: 103, M_InventoryLine: [{ M_Product_ID: product, M_Locator_ID: 101, QtyCount: 1 }, { M_Product_ID: 128, M_Locator_ID: 101, QtyCount: 1, QtyInternalUse: 5 }], 'doc-action': 'CO',
    });
    assert.ok(count.status >= 400 && count.status < 500, `${count.status} ${count.text}`);
    assert.deepEqual([(await c.cost(product)).qty, (await c.details(product)).length], [2, 1], 'the refused documents left the cost as it was');
  });
});
