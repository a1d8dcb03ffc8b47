import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { csvRows } from '../../helpers/files.js';
import { idOf, q, documentCalls } from './document-helpers.js';
import { otherClientAdmin } from './other-client.js';

const HQ = 103;
const STORE = 104;
const HQ_LOCATOR = 101;
const STORE_LOCATOR = 102;
const SEED_FARM = 120;
const PATIO_FUN = 121;
const PURCHASE_ORDER = 126;
const REQUISITION = 127;
const MATERIAL_MOVEMENT = 143;
const STANDARD_ORDER = 132;
const CUSTOMER = 117;

const HEADER = ['Search Key', 'Product', 'Replenish Type', 'Minimum Level', 'Maximum Level', 'On Hand Quantity', 'Reserved Quantity', 'Ordered Quantity', 'Business Partner', 'Minimum Order Qty', 'Order Pack Qty', 'Quantity to Order'];

describe('replenishment: levels, the replenish report and the documents it creates', () => {
  const fx = serverWithDemoRoles();
  const at = () => ({ server: fx.server, token: fx.admin });
  const { call, ok } = documentCalls(at);
  const run = (body: Record<string, unknown>, token = fx.admin) => call('POST', '/api/v1/processes/rv_t_replenish_production', body, token);
  const rows = async (table: string, filter: string) => (await ok('GET', `/api/v1/models/${table}?$filter=${q(filter)}&$orderby=${table}_ID`)).records as Record<string, any>[];
  let category = 0;
  let n = 0;

  /** The report's rows (CSV) by search key, the header checked. */
  async function report(body: Record<string, unknown>, token = fx.admin) {
    const r = await run({ M_Product_Category_ID: category, ...body, 'report-type': 'CSV' }, token);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.isError, false, r.body.summary);
    const csv = csvRows(Buffer.from(r.body.exportFile, 'base64'));
    assert.deepEqual(csv[0], HEADER);
    return { summary: r.body.summary as string, logs: r.body.logs as Record<string, any>[], rows: new Map(csv.slice(1).map((x) => [x[0]!, x.slice(2)])) };
  }

  /** A stocked product of the test's category, with levels in a warehouse and, when given, a current vendor with its minimum and pack. */
  async function product(levels: { type: string; min: number; max: number; warehouse?: number; source?: number }, vendor?: { id: number; min?: number; pack?: number }) {
    n++;
    const p = await ok('POST', '/api/v1/models/m_product', {
      Value: `RP-${Date.now()}-${n}`, Name: `Replenished ${n}`, M_Product_Category_ID: category, C_TaxCategory_ID: 107, C_UOM_ID: 100, ProductType: 'I', IsPurchased: true, IsSold: true,
    });
    if (vendor) {
      await ok('POST', '/api/v1/models/m_product_po', {
        M_Product_ID: p.id, C_BPartner_ID: vendor.id, C_Currency_ID: 100, C_UOM_ID: 100, PricePO: 4, PriceList: 5, VendorProductNo: `V${n}`, IsCurrentVendor: true,
        ...(vendor.min !== undefined ? { Order_Min: vendor.min } : {}), ...(vendor.pack !== undefined ? { Order_Pack: vendor.pack } : {}),
      });
    }
    await ok('POST', '/api/v1/models/m_replenish', {
      M_Product_ID: p.id, M_Warehouse_ID: levels.warehouse ?? HQ, ReplenishType: levels.type, Level_Min: levels.min, Level_Max: levels.max,
      ...(levels.source ? { M_WarehouseSource_ID: levels.source } : {}),
    });
    return { id: p.id as number, value: p.Value as string };
  }

  /** Puts a quantity on hand by a completed physical inventory count. */
  async function count(productId: number, qty: number, warehouse = HQ, locator = HQ_LOCATOR, org = 11) {
    await ok('POST', '/api/v1/models/m_inventory', { AD_Org_ID: org, M_Warehouse_ID: warehouse, M_InventoryLine: [{ M_Product_ID: productId, M_Locator_ID: locator, QtyCount: qty }], 'doc-action': 'CO' });
  }

  before(async () => {
    category = (await ok('POST', '/api/v1/models/m_product_category', { Value: `RPC-${Date.now()}`, Name: `Replenishment test ${Date.now()}` })).id;
  });

  it('proposes what the levels say: reorder below minimum with on hand, reserved and ordered, the vendor minimum and pack; maintain maximum; nothing above the minimum or for manual levels', async () => {
    const reorder = await product({ type: '1', min: 20, max: 50 }, { id: SEED_FARM, min: 10, pack: 5 });
    await count(reorder.id, 12);
    const so = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: CUSTOMER, C_DocTypeTarget_ID: STANDARD_ORDER, IsSOTrx: true, M_Warehouse_ID: HQ, C_OrderLine: [{ M_Product_ID: reorder.id, QtyEntered: 3, PriceEntered: 10 }], 'doc-action': 'PR' });
    assert.ok(so.id);
    await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: SEED_FARM, C_DocTypeTarget_ID: PURCHASE_ORDER, IsSOTrx: false, M_Warehouse_ID: HQ, C_OrderLine: [{ M_Product_ID: reorder.id, QtyEntered: 4 }], 'doc-action': 'CO' });
    const maintain = await product({ type: '2', min: 0, max: 30 }, { id: PATIO_FUN, min: 0, pack: 0 });
    await count(maintain.id, 7);
    const small = await product({ type: '2', min: 5, max: 8 }, { id: PATIO_FUN, min: 25 });
    const above = await product({ type: '1', min: 5, max: 40 }, { id: SEED_FARM });
    await count(above.id, 6);
    const manual = await product({ type: '0', min: 10, max: 40 }, { id: SEED_FARM });
    const noVendor = await product({ type: '1', min: 3, max: 9 });
    const swapped = await product({ type: '2', min: 15, max: 10 }, { id: SEED_FARM, pack: 4 });

    const r = await report({ M_Warehouse_ID: HQ });
    // By hand: 12 on hand - 3 reserved + 4 ordered = 13 <= 20, so 50 - 13 = 37, at least 10, up to packs of 5: 40.
    assert.deepEqual(r.rows.get(reorder.value), ['Reorder below Minimum Level', '20', '50', '12', '3', '4', 'Seed Farm Inc.', '10', '5', '40']);
    // 30 - 7 = 23; a minimum and pack of 0 count as 1.
    assert.deepEqual(r.rows.get(maintain.value), ['Maintain Maximum Level', '0', '30', '7', '0', '0', 'Patio Fun, Inc.', '1', '1', '23']);
    assert.equal(r.rows.get(small.value)?.at(-1), '25', '8 raised to the vendor minimum of 25');
    assert.equal(r.rows.has(above.value), false, '6 on hand is above the minimum of 5');
    assert.equal(r.rows.has(manual.value), false, 'manual levels are not proposed');
    assert.deepEqual(r.rows.get(noVendor.value)?.slice(6), ['', '1', '1', '9'], 'no vendor: proposed, never ordered');
    assert.deepEqual(r.rows.get(swapped.value)?.slice(1, 3), ['15', '15'], 'a maximum below the minimum counts as the minimum');
    assert.equal(r.rows.get(swapped.value)?.at(-1), '16', '15 up to packs of 4');
    assert.equal(r.rows.size, 5);
    assert.equal(r.summary, 'Replenish Report: 5 rows');

    const seedFarmOnly = await report({ M_Warehouse_ID: HQ, C_BPartner_ID: SEED_FARM });
    assert.deepEqual([...seedFarmOnly.rows.keys()].sort(), [reorder.value, swapped.value].sort(), 'only the products of the vendor');
    assert.equal((await report({ M_Warehouse_ID: STORE })).rows.size, 0, 'levels of another warehouse');
  });

  it('creates draft purchase orders per vendor, a requisition with the vendors, and nothing twice in one run', async () => {
    const a = await product({ type: '2', min: 0, max: 12 }, { id: SEED_FARM, pack: 5 });
    const b = await product({ type: '2', min: 0, max: 6 }, { id: SEED_FARM });
    const c = await product({ type: '2', min: 0, max: 3 }, { id: PATIO_FUN });
    const orders = await report({ M_Warehouse_ID: HQ, C_BPartner_ID: undefined, ReplenishmentCreate: 'POO', C_DocType_ID: PURCHASE_ORDER });
    assert.match(orders.summary, /Purchase orders created: 2 \(/);
    const created = orders.logs.filter((l) => l.tableId === 259).map((l) => l.recordId as number);
    assert.equal(created.length, 2);
    const lines = await rows('c_orderline', `C_Order_ID eq ${created[0]} or C_Order_ID eq ${created[1]}`);
    const byProduct = new Map(lines.map((l) => [idOf(l.M_Product_ID), l]));
    assert.equal(byProduct.get(a.id)?.QtyOrdered, 15, '12 up to packs of 5');
    assert.equal(byProduct.get(b.id)?.QtyOrdered, 6);
    assert.equal(byProduct.get(c.id)?.QtyOrdered, 3);
    assert.equal(byProduct.get(a.id)?.PriceEntered, 4, 'the vendor price');
    for (const id of created) {
      const po = await ok('GET', `/api/v1/models/c_order/${id}`);
      assert.deepEqual([po.IsSOTrx, idOf(po.DocStatus), idOf(po.C_DocTypeTarget_ID), idOf(po.M_Warehouse_ID), po.Description], [false, 'DR', PURCHASE_ORDER, HQ, 'Replenishment']);
    }
    assert.equal(idOf(byProduct.get(a.id)!.C_Order_ID), idOf(byProduct.get(b.id)!.C_Order_ID), 'one order per vendor');
    // Completed, the orders count as ordered: the next report proposes nothing more for them.
    for (const id of created) await ok('PUT', `/api/v1/models/c_order/${id}`, { 'doc-action': 'CO' });
    const after = await report({ M_Warehouse_ID: HQ });
    for (const p of [a, b, c]) assert.equal(after.rows.has(p.value), false, `${p.value} is ordered`);

    const d = await product({ type: '2', min: 0, max: 4 }, { id: PATIO_FUN });
    const reqs = await report({ M_Warehouse_ID: HQ, C_BPartner_ID: PATIO_FUN, ReplenishmentCreate: 'POR', C_DocType_ID: REQUISITION });
    assert.match(reqs.summary, /Requisitions created: 1 \(/);
    const reqId = reqs.logs.find((l) => l.tableId === 702)!.recordId as number;
    const reqLines = await rows('m_requisitionline', `M_Requisition_ID eq ${reqId}`);
    assert.deepEqual(reqLines.map((l) => [idOf(l.M_Product_ID), l.Qty, idOf(l.C_BPartner_ID)]), [[d.id, 4, PATIO_FUN]]);
    const req = await ok('GET', `/api/v1/models/m_requisition/${reqId}`);
    assert.deepEqual([idOf(req.DocStatus), idOf(req.C_DocType_ID), idOf(req.M_Warehouse_ID)], ['DR', REQUISITION, HQ]);
  });

  it('moves from the source warehouse what it holds, into the default locator of the warehouse replenished', async () => {
    const p = await product({ type: '2', min: 0, max: 10, source: STORE }, { id: SEED_FARM });
    await count(p.id, 6, STORE, STORE_LOCATOR, 12);
    const r = await report({ M_Warehouse_ID: HQ, ReplenishmentCreate: 'MMM', C_DocType_ID: MATERIAL_MOVEMENT });
    assert.match(r.summary, /Inventory moves created: 1 \(/);
    const moveId = r.logs.find((l) => l.tableId === 323)!.recordId as number;
    const lines = await rows('m_movementline', `M_Movement_ID eq ${moveId}`);
    assert.deepEqual(lines.map((l) => [idOf(l.M_Product_ID), l.MovementQty, idOf(l.M_Locator_ID), idOf(l.M_LocatorTo_ID), l.Description]), [[p.id, 6, STORE_LOCATOR, HQ_LOCATOR, 'Total: 10']]);
    const move = await ok('GET', `/api/v1/models/m_movement/${moveId}`);
    assert.deepEqual([idOf(move.DocStatus), idOf(move.C_DocType_ID), idOf(move.AD_Org_ID)], ['DR', MATERIAL_MOVEMENT, 12]);
    assert.equal(idOf((await ok('PUT', `/api/v1/models/m_movement/${moveId}`, { 'doc-action': 'CO' })).DocStatus), 'CO');
  });

  it('answers the report as PDF by default', async () => {
    const r = await run({ M_Warehouse_ID: HQ, M_Product_Category_ID: category });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.isError, false, r.body.summary);
    assert.equal(Buffer.from(r.body.reportFile, 'base64').subarray(0, 5).toString(), '%PDF-');
  });

  it('refuses bad parameters and creates nothing', async () => {
    const before = (await rows('c_order', `IsSOTrx eq false and Description eq 'Replenishment'`)).length;
    const missing = await run({});
    assert.equal(missing.status, 400, missing.text);
    assert.match(missing.body.detail, /M_Warehouse_ID is mandatory/);
    assert.equal((await run({ M_Warehouse_ID: 'HQ' })).status, 400);
    const expect = async (body: Record<string, unknown>, pattern: RegExp) => {
      const r = await run(body);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.isError, true, r.text);
      assert.match(r.body.summary, pattern);
    };
    await expect({ M_Warehouse_ID: 999999 }, /No warehouse 999999/);
    await expect({ M_Warehouse_ID: HQ, ReplenishmentCreate: 'POO' }, /C_DocType_ID is mandatory/);
    await expect({ M_Warehouse_ID: HQ, ReplenishmentCreate: 'POO', C_DocType_ID: REQUISITION }, /Requisition is a POR, not a POO/);
    await expect({ M_Warehouse_ID: HQ, ReplenishmentCreate: 'XYZ', C_DocType_ID: PURCHASE_ORDER }, /ReplenishmentCreate must be one of POO, POR, MMM/);
    assert.equal((await rows('c_order', `IsSOTrx eq false and Description eq 'Replenishment'`)).length, before);
  });

  it('is refused to the least privileged demo role; another client reaches neither the warehouse nor the levels of the demo company', async () => {
    const user = await run({ M_Warehouse_ID: HQ }, fx.user);
    assert.ok(user.status === 403 || user.status === 404, `${user.status} ${user.text}`);
    const other = await otherClientAdmin(fx.server, [53267]);
    const r = await run({ M_Warehouse_ID: HQ }, other);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.isError, true, r.text);
    assert.match(r.body.summary, /No warehouse 103/);
    const levels = await call('GET', `/api/v1/models/m_replenish?$filter=${q(`M_Warehouse_ID eq ${HQ}`)}`, undefined, other);
    assert.equal(levels.status, 200, levels.text);
    assert.deepEqual(levels.body.records, []);
  });
});
