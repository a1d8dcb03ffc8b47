import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { idOf, q, documentCalls } from './document-helpers.js';
import { otherClientAdmin } from './other-client.js';

const HQ = 103;
const STORE = 104;
const NORTH = 50003;
const NORTH_ORG = 50002;

/** The stock view M_Product_Stock_v: on hand, reserved, ordered and available per product and warehouse. */
describe('stock per product and warehouse (M_Product_Stock_v)', () => {
  const fx = serverWithDemoRoles();
  const at = () => ({ server: fx.server, token: fx.admin });
  const { call, ok } = documentCalls(at);
  let product = 0;
  let value = '';

  /** The view's rows of the test product by warehouse: [on hand, reserved, ordered, available]. */
  const stock = async (token = fx.admin, extra = '') => {
    const r = await call('GET', `/api/v1/models/m_product_stock_v?$filter=${q(`M_Product_ID eq ${product}${extra}`)}&$orderby=M_Warehouse_ID`, undefined, token);
    assert.equal(r.status, 200, r.text);
    return new Map((r.body.records as Record<string, any>[]).map((x) => [Number(idOf(x.M_Warehouse_ID)), [x.QtyOnHand, x.QtyReserved, x.QtyOrdered, x.QtyAvailable]]));
  };

  before(async () => {
    const p = await ok('POST', '/api/v1/models/m_product', { Value: `SV-${Date.now()}`, Name: `Stock view ${Date.now()}`, M_Product_Category_ID: 105, C_TaxCategory_ID: 107, C_UOM_ID: 100, ProductType: 'I', IsPurchased: true, IsSold: true });
    product = p.id;
    value = p.Value;
    await ok('POST', '/api/v1/models/m_product_po', { M_Product_ID: product, C_BPartner_ID: 120, C_Currency_ID: 100, C_UOM_ID: 100, PricePO: 4, VendorProductNo: value, IsCurrentVendor: true });
    const count = (warehouse: number, locator: number, org: number, qty: number) =>
      ok('POST', '/api/v1/models/m_inventory', { AD_Org_ID: org, M_Warehouse_ID: warehouse, M_InventoryLine: [{ M_Product_ID: product, M_Locator_ID: locator, QtyCount: qty }], 'doc-action': 'CO' });
    await count(HQ, 101, 11, 12);
    await count(STORE, 102, 12, 5);
    await count(NORTH, 50003, NORTH_ORG, 9);
    await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 117, C_DocTypeTarget_ID: 132, IsSOTrx: true, M_Warehouse_ID: HQ, C_OrderLine: [{ M_Product_ID: product, QtyEntered: 3, PriceEntered: 10 }], 'doc-action': 'PR' });
    await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 120, C_DocTypeTarget_ID: 126, IsSOTrx: false, M_Warehouse_ID: HQ, C_OrderLine: [{ M_Product_ID: product, QtyEntered: 4 }], 'doc-action': 'CO' });
  });

  it('reads on hand, reserved (sales), ordered (purchases) and available per product and warehouse in one read', async () => {
    const rows = await stock();
    assert.deepEqual(rows.get(HQ), [12, 3, 4, 9]);
    assert.deepEqual(rows.get(STORE), [5, 0, 0, 5]);
    assert.deepEqual(rows.get(NORTH), [9, 0, 0, 9]);
    assert.equal(rows.size, 3);
    const one = await stock(fx.admin, ` and M_Warehouse_ID eq ${STORE}`);
    assert.deepEqual([...one.keys()], [STORE]);
    const available = await call('GET', `/api/v1/models/m_product_stock_v?$filter=${q(`M_Product_ID eq ${product} and QtyAvailable gt 6`)}&$orderby=M_Warehouse_ID`);
    assert.deepEqual(available.body.records.map((x: any) => idOf(x.M_Warehouse_ID)), [HQ, NORTH]);
    const uu = available.body.records[0].uid;
    assert.match(String(uu), /^[0-9a-f-]{36}$/);
    const byUuid = await call('GET', `/api/v1/models/m_product_stock_v/${uu}`);
    assert.equal(byUuid.status, 200, byUuid.text);
    assert.deepEqual([idOf(byUuid.body.M_Product_ID), idOf(byUuid.body.M_Warehouse_ID), byUuid.body.QtyOnHand], [product, HQ, 12], 'a row keeps its UUID');
  });

  it('follows the documents: a shipment of the reserved quantity lowers on hand and reserved', async () => {
    const so = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 117, C_DocTypeTarget_ID: 132, IsSOTrx: true, M_Warehouse_ID: STORE, AD_Org_ID: 12, C_OrderLine: [{ M_Product_ID: product, QtyEntered: 2, PriceEntered: 10 }], 'doc-action': 'PR' });
    assert.deepEqual((await stock()).get(STORE), [5, 2, 0, 3]);
    await ok('PUT', `/api/v1/models/c_order/${so.id}`, { 'doc-action': 'VO' });
    assert.deepEqual((await stock()).get(STORE), [5, 0, 0, 5], 'a voided order reserves nothing');
  });

  it('shows a role only the warehouses of its organizations, and is read-only', async () => {
    const user = await stock(fx.user);
    assert.deepEqual([...user.keys()].sort(), [HQ, STORE], 'GardenUser has no access to Store North');
    assert.equal((await stock(await otherClientAdmin(fx.server))).size, 0, 'another client sees no stock of the demo company');
    const write = await call('POST', '/api/v1/models/m_product_stock_v', { M_Product_ID: product, M_Warehouse_ID: HQ, QtyOnHand: 1 });
    assert.ok(write.status >= 400 && write.status < 500, `${write.status} ${write.text}`);
    assert.equal(typeof write.body.detail, 'string');
  });

  it('gives the Product Info window the quantities of each product', async () => {
    const r = await call('GET', `/api/v1/infos/product-info?$parameters=${q(JSON.stringify({ Value: value }))}`);
    assert.equal(r.status, 200, r.text);
    const row = r.body['infowindow-records'].find((x: any) => x.Value === value);
    assert.ok(row, r.text);
    assert.deepEqual([row.QtyAvailable, row.QtyOnHand, row.QtyReserved, row.QtyOrdered], [23, 26, 3, 4]);
  });
});
