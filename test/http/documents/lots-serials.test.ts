import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { insertSeedRows } from '../../../src/seed/insert-rows.js';
import { DEMO_LOTS } from '../../../src/seed/lots-seed.js';
import { idOf, q } from './document-helpers.js';
import { stockHelpers } from './stock-helpers.js';

const LOT = DEMO_LOTS.lotProduct;
const SERIAL = DEMO_LOTS.serialProduct;
const HQ = 101;
const STORE = 102;

describe('lots, serial numbers and attribute set instances', () => {
  const fx = serverWithDemoRoles();
  const call = (method: string, path: string, body?: unknown, token = fx.admin) => fx.server.request(method, path, { token, body });
  const ok = async (method: string, path: string, body?: unknown, token = fx.admin) => {
    const r = await call(method, path, body, token);
    assert.ok(r.status === 200 || r.status === 201, `${method} ${path}: ${r.status} ${r.text}`);
    return r.body;
  };
  const stock = stockHelpers(() => ({ server: fx.server, token: fx.admin }));
  const records = async (path: string, token = fx.admin) => (await ok('GET', path, undefined, token)).records as Record<string, any>[];
  /** On hand of a product at a locator under one instance. */
  const onHandOf = async (product: number, locator: number, asi: number) =>
    (await records(`/api/v1/models/m_storageonhand?$filter=${q(`M_Product_ID eq ${product} and M_Locator_ID eq ${locator} and M_AttributeSetInstance_ID eq ${asi}`)}`)).reduce((n, r) => n + Number(r.QtyOnHand), 0);
  const transactionCount = async (product: number) => (await records(`/api/v1/models/m_transaction?$filter=${q(`M_Product_ID eq ${product}`)}`)).length;
  const newLot = async () => {
    const lot = await ok('POST', '/api/v1/models/m_lot', { M_Product_ID: LOT });
    return ok('POST', '/api/v1/models/m_attributesetinstance', { M_AttributeSet_ID: DEMO_LOTS.lotSet, M_Lot_ID: lot.id });
  };
  const order = async (sales: boolean, product: number, qty: number) => {
    const o = await ok('POST', '/api/v1/models/c_order', {
      C_BPartner_ID: sales ? 118 : 114, C_DocTypeTarget_ID: sales ? 132 : 126, IsSOTrx: sales, C_OrderLine: [{ M_Product_ID: product, QtyEntered: qty }], 'doc-action': 'CO',
    });
    return { id: o.id as number, line: (await stock.orderLines(o.id))[0]!.id as number };
  };
  const deliver = (o: { id: number; line: number }, line: Record<string, unknown>) =>
    call('POST', '/api/v1/models/m_inout', { C_Order_ID: o.id, M_InOutLine: [{ C_OrderLine_ID: o.line, ...line }], 'doc-action': 'CO' });
  const refusedForInstance = (r: { status: number; body: any; text: string }, what: RegExp) => {
    assert.equal(r.status, 400, r.text);
    assert.deepEqual(Object.keys(r.body).sort(), ['detail', 'status', 'title']);
    assert.match(r.body.detail, /line 10: product \w+ needs .*\(column M_AttributeSetInstance_ID\)/);
    assert.match(r.body.detail, what);
  };

  /** Two lots of the lot-tracked product received at HQ (6 of the first, 4 of the second), once for the file. */
  let lots: { a: number; b: number } | null = null;
  const receiveTwoLots = async () => {
    if (lots) return lots;
    const a = (await newLot()).id as number;
    const b = (await newLot()).id as number;
    const po = await order(false, LOT, 10);
    assert.equal((await deliver(po, { MovementQty: 6, M_AttributeSetInstance_ID: a })).status, 201);
    assert.equal((await deliver(po, { MovementQty: 4, M_AttributeSetInstance_ID: b })).status, 201);
    lots = { a, b };
    return lots;
  };

  it('numbers lots and serial numbers from their controls and describes instances as the original does', async () => {
    const first = await ok('POST', '/api/v1/models/m_lot', { M_Product_ID: LOT });
    const second = await ok('POST', '/api/v1/models/m_lot', { M_Product_ID: LOT });
    assert.match(first.Name, /^LOT-\d+$/);
    assert.equal(Number(second.Name.slice(4)), Number(first.Name.slice(4)) + 1, 'IncrementNo 1');
    assert.equal(idOf(first.M_LotCtl_ID), DEMO_LOTS.lotControl, "the product's set's lot control");
    const control = await ok('GET', `/api/v1/models/m_lotctl/${DEMO_LOTS.lotControl}`);
    assert.equal(control.CurrentNext, Number(second.Name.slice(4)) + 1);

    const asi = await ok('POST', '/api/v1/models/m_attributesetinstance', { M_AttributeSet_ID: DEMO_LOTS.lotSet, M_Lot_ID: first.id });
    assert.equal(asi.Lot, first.Name);
    assert.equal(asi.Description, `\u00ab${first.Name}\u00bb`);
    const serial = await ok('POST', '/api/v1/models/m_attributesetinstance', { M_AttributeSet_ID: DEMO_LOTS.serialSet });
    assert.match(serial.SerNo, /^SN\d+$/);
    assert.equal(serial.Description, `#${serial.SerNo}`);
    const next = await ok('POST', '/api/v1/models/m_attributesetinstance', { M_AttributeSet_ID: DEMO_LOTS.serialSet });
    assert.equal(Number(next.SerNo.slice(2)), Number(serial.SerNo.slice(2)) + 1);
    const given = await ok('POST', '/api/v1/models/m_attributesetinstance', { M_AttributeSet_ID: DEMO_LOTS.serialSet, SerNo: 'X-1' });
    assert.equal(given.Description, '#X-1', 'a serial number given is kept');
    const renamed = await ok('PUT', `/api/v1/models/m_attributesetinstance/${given.id}`, { SerNo: 'X-2' });
    assert.equal(renamed.Description, '#X-2', 'rebuilt when the serial number changes');
    const plain = await ok('POST', '/api/v1/models/m_attributesetinstance', { M_AttributeSet_ID: DEMO_LOTS.lotSet });
    assert.equal(plain.Description, String(plain.id), 'nothing to describe: the id');

    const mismatch = await call('POST', '/api/v1/models/m_attributesetinstance', { M_AttributeSet_ID: DEMO_LOTS.lotSet, M_Lot_ID: first.id, Lot: 'other' });
    assert.equal(mismatch.status, 400, mismatch.text);
    assert.match(mismatch.body.detail, /column Lot/);
    const unnamed = await call('POST', '/api/v1/models/m_lot', { M_Product_ID: 128 });
    assert.equal(unnamed.status, 400, unnamed.text);
    assert.match(unnamed.body.detail, /needs a name, or a lot control/);
  });

  it("describes an instance by its set's instance attributes in their order (M_AttributeUse), and keeps the set's instance flag", async () => {
    const set = await ok('POST', '/api/v1/models/m_attributeset', { Name: `Colored ${Date.now()}`, MandatoryType: 'N' });
    assert.equal(set.IsInstanceAttribute, false);
    const attribute = (name: string) => ok('POST', '/api/v1/models/m_attribute', { Name: `${name} ${Date.now()}`, AttributeValueType: 'S', IsInstanceAttribute: true });
    const [color, size] = [await attribute('Color'), await attribute('Size')];
    const first = await ok('POST', '/api/v1/models/m_attributeuse', { M_AttributeSet_ID: set.id, M_Attribute_ID: size.id });
    assert.equal(first.SeqNo, 10);
    const second = await ok('POST', '/api/v1/models/m_attributeuse', { M_AttributeSet_ID: set.id, M_Attribute_ID: color.id, SeqNo: 5 });
    assert.equal(second.SeqNo, 5);
    assert.equal((await ok('GET', `/api/v1/models/m_attributeset/${set.id}`)).IsInstanceAttribute, true, 'it uses an instance attribute');
    await ok('PUT', `/api/v1/models/m_attributeset/${set.id}`, { IsLot: true });
    const asi = await ok('POST', '/api/v1/models/m_attributesetinstance', { M_AttributeSet_ID: set.id, Lot: 'L1' });
    assert.equal(asi.Description, '\u00abL1\u00bb');
    for (const [attr, value] of [[size, 'XL'], [color, 'Red']] as const) {
      await ok('POST', '/api/v1/models/m_attributeinstance', { M_AttributeSetInstance_ID: asi.id, M_Attribute_ID: attr.id, Value: value });
    }
    assert.equal((await ok('GET', `/api/v1/models/m_attributesetinstance/${asi.id}`)).Description, 'Red_XL_\u00abL1\u00bb', 'values by SeqNo, then the lot');
    const uses = await records(`/api/v1/models/m_attributeuse?$filter=${q(`M_AttributeSet_ID eq ${set.id}`)}&$orderby=SeqNo`, fx.ws);
    assert.deepEqual(uses.map((u) => idOf(u.M_Attribute_ID)), [color.id, size.id]);
    await ok('PUT', `/api/v1/models/m_attribute/${color.id}`, { IsInstanceAttribute: false });
    await ok('PUT', `/api/v1/models/m_attribute/${size.id}`, { IsInstanceAttribute: false });
    const plain = await ok('PUT', `/api/v1/models/m_attributeset/${set.id}`, { IsLot: false });
    assert.equal(plain.IsInstanceAttribute, false, 'no lot and no instance attribute any more');
  });

  it('refuses a receipt of a lot-tracked product without a lot, writing nothing, and keeps stock per lot', async () => {
    const before = await transactionCount(LOT);
    const po = await order(false, LOT, 5);
    refusedForInstance(await deliver(po, { MovementQty: 5 }), /LotSeed needs a lot .*Lot Tracked demands one/);
    assert.equal(await transactionCount(LOT), before, 'no transaction written');
    const drafted = await call('POST', '/api/v1/models/m_inout', { C_Order_ID: po.id, M_InOutLine: [{ C_OrderLine_ID: po.line, MovementQty: 5 }] });
    assert.equal(drafted.status, 201, 'a draft without a lot is saved: the original refuses on prepare');
    refusedForInstance(await call('PUT', `/api/v1/models/m_inout/${drafted.body.id}`, { 'doc-action': 'PR' }), /Lot Tracked/);

    const { a, b } = await receiveTwoLots();
    assert.equal(await onHandOf(LOT, HQ, a), 6);
    assert.equal(await onHandOf(LOT, HQ, b), 4);
    assert.equal(await onHandOf(LOT, HQ, 0), 0, 'nothing without an instance');
  });

  it('ships from the lot named: that lot alone goes down; a shipment without a lot is refused', async () => {
    const { a, b } = await receiveTwoLots();
    const [beforeA, beforeB] = [await onHandOf(LOT, HQ, a), await onHandOf(LOT, HQ, b)];
    const so = await order(true, LOT, 3);
    refusedForInstance(await deliver(so, { MovementQty: 3 }), /Lot Tracked/);
    const shipped = await deliver(so, { MovementQty: 3, M_AttributeSetInstance_ID: a });
    assert.equal(shipped.status, 201, shipped.text);
    assert.equal(idOf(shipped.body.DocStatus), 'CO');
    assert.equal(await onHandOf(LOT, HQ, a), beforeA - 3);
    assert.equal(await onHandOf(LOT, HQ, b), beforeB, "the other lot's stock is untouched");
  });

  it('moves and counts per lot, refusing lines without one', async () => {
    const { a, b } = await receiveTwoLots();
    const moveLine = { M_Product_ID: LOT, M_Locator_ID: HQ, M_LocatorTo_ID: STORE, MovementQty: 2 };
    refusedForInstance(await call('POST', '/api/v1/models/m_movement', { M_MovementLine: [moveLine], 'doc-action': 'CO' }), /Lot Tracked/);
    const [hqB, storeB, hqA] = [await onHandOf(LOT, HQ, b), await onHandOf(LOT, STORE, b), await onHandOf(LOT, HQ, a)];
    const moved = await call('POST', '/api/v1/models/m_movement', { M_MovementLine: [{ ...moveLine, M_AttributeSetInstance_ID: b }], 'doc-action': 'CO' });
    assert.equal(moved.status, 201, moved.text);
    assert.equal(await onHandOf(LOT, HQ, b), hqB - 2);
    assert.equal(await onHandOf(LOT, STORE, b), storeB + 2, 'the lot arrives under its own instance');
    assert.equal(await onHandOf(LOT, HQ, a), hqA);

    refusedForInstance(await call('POST', '/api/v1/models/m_inventory', { M_Warehouse_ID: 103, M_InventoryLine: [{ M_Product_ID: LOT, QtyCount: 1 }], 'doc-action': 'CO' }), /Lot Tracked/);
    const counted = await call('POST', '/api/v1/models/m_inventory', { M_Warehouse_ID: 103, M_InventoryLine: [{ M_Product_ID: LOT, M_AttributeSetInstance_ID: a, QtyCount: 1 }], 'doc-action': 'CO' });
    assert.equal(counted.status, 201, counted.text);
    const [line] = await records(`/api/v1/models/m_inventoryline?$filter=${q(`M_Inventory_ID eq ${counted.body.id}`)}`);
    assert.equal(line!.QtyBook, hqA, "the book quantity is the lot's own");
    assert.equal(await onHandOf(LOT, HQ, a), 1);
    assert.equal(await onHandOf(LOT, HQ, b), hqB - 2, 'the other lot is not counted');
  });

  it('asks a serial number when shipping only: receipts without one complete, shipments without one are refused', async () => {
    const po = await order(false, SERIAL, 2);
    const receipt = await deliver(po, { MovementQty: 2 });
    assert.equal(receipt.status, 201, receipt.text);
    assert.equal(idOf(receipt.body.DocStatus), 'CO');
    const so = await order(true, SERIAL, 1);
    refusedForInstance(await deliver(so, { MovementQty: 1 }), /SerialMower needs a serial number .*Serial Numbered/);
    const unit = await ok('POST', '/api/v1/models/m_attributesetinstance', { M_AttributeSet_ID: DEMO_LOTS.serialSet });
    const shipped = await deliver(so, { MovementQty: 1, M_AttributeSetInstance_ID: unit.id });
    assert.equal(shipped.status, 201, shipped.text);
  });

  it("reads a lot's history: its transactions, which sum to its stock", async () => {
    const { a } = await receiveTwoLots();
    const history = await records(`/api/v1/models/m_transaction?$filter=${q(`M_AttributeSetInstance_ID eq ${a}`)}&$orderby=M_Transaction_ID`);
    const types = history.map((t) => idOf(t.MovementType));
    assert.equal(types[0], 'V+', 'received first');
    assert.ok(types.includes('C-') && types.includes('I-'), types.join(','));
    assert.ok(history.every((t) => idOf(t.M_Product_ID) === LOT));
    const total = history.reduce((n, t) => n + Number(t.MovementQty), 0);
    assert.equal(total, await onHandOf(LOT, HQ, a) + (await onHandOf(LOT, STORE, a)));
  });

  it('the least privileged role reads the instances and lots of its client, not those of another client', async () => {
    const { a } = await receiveTwoLots();
    const mine = await call('GET', `/api/v1/models/m_attributesetinstance/${a}`, undefined, fx.ws);
    assert.equal(mine.status, 200, mine.text);
    const history = `/api/v1/models/m_transaction?$filter=${q(`M_AttributeSetInstance_ID eq ${a}`)}`;
    assert.equal((await records(history, fx.ws)).length, (await records(history)).length, "the lot's history as the administrator reads it");
    const { dictionary, db } = fx.server.services;
    const table = dictionary.current.byName.get('m_attributesetinstance')!;
    await insertSeedRows(db, table, [{ M_AttributeSetInstance_ID: 1117900, AD_Client_ID: 1117901, AD_Org_ID: 0, M_AttributeSet_ID: 0, Lot: 'FOREIGN', Description: 'FOREIGN' }], new Date().toISOString());
    for (const token of [fx.ws, fx.user, fx.admin]) {
      const foreign = await call('GET', '/api/v1/models/m_attributesetinstance/1117900', undefined, token);
      assert.ok([403, 404].includes(foreign.status), foreign.text);
      const listed = await records(`/api/v1/models/m_attributesetinstance?$filter=${q("Lot eq 'FOREIGN'")}`, token);
      assert.equal(listed.length, 0);
    }
    const foreignMove = await call('POST', '/api/v1/models/m_movement', {
      M_MovementLine: [{ M_Product_ID: LOT, M_Locator_ID: HQ, M_LocatorTo_ID: STORE, MovementQty: 1, M_AttributeSetInstance_ID: 1117900 }], 'doc-action': 'CO',
    });
    assert.ok(foreignMove.status >= 400 && foreignMove.status < 500, `another client's instance on a line: ${foreignMove.status} ${foreignMove.text}`);
    const lotRows = await records(`/api/v1/models/m_lot?$filter=${q(`M_Product_ID eq ${LOT}`)}`, fx.ws);
    assert.ok(lotRows.length >= 2);
    assert.ok(lotRows.every((r) => Number(idOf(r.AD_Client_ID)) === 11));
  });
});
