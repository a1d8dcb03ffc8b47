import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { idOf, q, documentCalls } from './document-helpers.js';

const PURCHASE_ORDER = 126;
const REQUISITION = 127;
const SEED_FARM = 120;
const PATIO_FUN = 121;
const TREE_FARM = 114;
const OAK_TREE = 123;

describe('buying: vendor product data, requisitions and purchase orders created from them', () => {
  const fx = serverWithDemoRoles();
  const at = () => ({ server: fx.server, token: fx.admin });
  const { call, ok } = documentCalls(at);
  const rows = async (table: string, filter: string) => (await ok('GET', `/api/v1/models/${table}?$filter=${q(filter)}&$orderby=${table}_ID`)).records as Record<string, any>[];
  const createPo = (requisitionId: number, token = fx.admin) => call('POST', '/api/v1/processes/m_requisition_pocreate', { 'model-name': 'm_requisition', 'record-id': requisitionId }, token);
  let counter = 0;

  /** A stocked product on no price list, bought from Seed Farm (current vendor, 7.50, list 9, minimum 10, pack 5) and Patio Fun (8.00). */
  async function vendorProduct() {
    counter++;
    const product = await ok('POST', '/api/v1/models/m_product', {
      Value: `VP-${Date.now()}-${counter}`, Name: `Vendor priced ${counter}`, M_Product_Category_ID: 105, C_TaxCategory_ID: 107, C_UOM_ID: 100, ProductType: 'I', IsPurchased: true,
    });
    const vendorRow = (vendor: number, price: number, extra: Record<string, unknown>) =>
      ok('POST', '/api/v1/models/m_product_po', { M_Product_ID: product.id, C_BPartner_ID: vendor, C_Currency_ID: 100, C_UOM_ID: 100, PricePO: price, VendorProductNo: `V${vendor}-${counter}`, ...extra });
    const seedFarm = await vendorRow(SEED_FARM, 7.5, { PriceList: 9, Order_Min: 10, Order_Pack: 5, IsCurrentVendor: true });
    const patioFun = await vendorRow(PATIO_FUN, 8, { IsCurrentVendor: false });
    return { product, seedFarm, patioFun };
  }

  it('a purchase order line of a product on no price list takes its vendor price; without vendor data it is refused', async () => {
    const { product } = await vendorProduct();
    const line = async (vendor: number) => {
      const po = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: vendor, C_DocTypeTarget_ID: PURCHASE_ORDER, IsSOTrx: false, C_OrderLine: [{ M_Product_ID: product.id, QtyEntered: 2 }] });
      return (await rows('c_orderline', `C_Order_ID eq ${po.id}`))[0]!;
    };
    const seedFarm = await line(SEED_FARM);
    assert.deepEqual([seedFarm.PriceEntered, seedFarm.PriceList, seedFarm.LineNetAmt], [7.5, 9, 15]);
    assert.equal((await line(PATIO_FUN)).PriceEntered, 8);
    const none = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: TREE_FARM, C_DocTypeTarget_ID: PURCHASE_ORDER, IsSOTrx: false, C_OrderLine: [{ M_Product_ID: product.id, QtyEntered: 2 }] });
    assert.equal(none.status, 400, none.text);
    assert.match(none.body.detail, /not on the price list/);
  });

  it('a product has one current vendor: marking another current unmarks the first', async () => {
    const { seedFarm, patioFun } = await vendorProduct();
    await ok('PUT', `/api/v1/models/m_product_po/${patioFun.id}`, { IsCurrentVendor: true });
    assert.equal((await ok('GET', `/api/v1/models/m_product_po/${seedFarm.id}`)).IsCurrentVendor, false);
  });

  it('a requisition prices its lines, completes, and Create PO from Requisition orders them per vendor, at the vendor minimum and pack', async () => {
    const { product } = await vendorProduct();
    const req = await ok('POST', '/api/v1/models/m_requisition', {
      Description: 'garden restock',
      M_RequisitionLine: [
        { M_Product_ID: product.id, Qty: 12 },
        { M_Product_ID: OAK_TREE, Qty: 3, C_BPartner_ID: TREE_FARM },
        { M_Product_ID: OAK_TREE, Qty: 2, C_BPartner_ID: TREE_FARM },
      ],
      'doc-action': 'CO',
    });
    assert.equal(idOf(req.DocStatus), 'CO');
    assert.equal(idOf(req.C_DocType_ID), REQUISITION);
    assert.equal(req.IsApproved, true);
    const lines = await rows('m_requisitionline', `M_Requisition_ID eq ${req.id}`);
    assert.equal(lines[0]!.PriceActual, 7.5, 'the current vendor price of a product on no price list');
    assert.ok(Number(lines[1]!.PriceActual) > 0, 'a price list price');
    assert.equal(Number(req.TotalLines), Math.round(lines.reduce((n, l) => n + Number(l.LineNetAmt), 0) * 100) / 100);

    const r = await createPo(req.id);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.isError, false, r.body.summary);
    assert.equal(r.body.summary, 'Purchase orders created: 2');
    const after = await rows('m_requisitionline', `M_Requisition_ID eq ${req.id}`);
    assert.ok(after.every((l) => idOf(l.C_OrderLine_ID)), 'every line is ordered');
    const orderLine = async (id: unknown) => ok('GET', `/api/v1/models/c_orderline/${String(idOf(id))}`);
    const vendorLine = await orderLine(after[0]!.C_OrderLine_ID);
    assert.deepEqual([vendorLine.QtyOrdered, vendorLine.PriceEntered], [15, 7.5], '12 raised to the pack of 5');
    const oakLine = await orderLine(after[1]!.C_OrderLine_ID);
    assert.equal(idOf(after[2]!.C_OrderLine_ID), oakLine.id, 'lines of one product share an order line');
    assert.equal(oakLine.QtyOrdered, 5);
    const po = await ok('GET', `/api/v1/models/c_order/${String(idOf(vendorLine.C_Order_ID))}`);
    assert.deepEqual([idOf(po.C_BPartner_ID), po.IsSOTrx, idOf(po.DocStatus)], [SEED_FARM, false, 'DR']);
    assert.equal(idOf((await ok('PUT', `/api/v1/models/c_order/${po.id}`, { 'doc-action': 'CO' })).DocStatus), 'CO');
    assert.equal((await createPo(req.id)).body.summary, 'No open requisition lines');

    const voided = await call('PUT', `/api/v1/models/m_requisition/${req.id}`, { 'doc-action': 'VO' });
    assert.equal(voided.status, 400, voided.text);
    assert.match(voided.body.detail, /ordered/);
  });

  it('refuses a requisition without lines, a line without product or charge, and orders nothing for a product without vendor', async () => {
    const empty = await ok('POST', '/api/v1/models/m_requisition', { Description: 'empty' });
    const r = await call('PUT', `/api/v1/models/m_requisition/${empty.id}`, { 'doc-action': 'CO' });
    assert.equal(r.status, 400);
    assert.match(r.body.detail, /no lines/);
    const bad = await call('POST', '/api/v1/models/m_requisitionline', { M_Requisition_ID: empty.id, Qty: 1 });
    assert.equal(bad.status, 400);
    const noVendor = await ok('POST', '/api/v1/models/m_requisition', { M_RequisitionLine: [{ M_Product_ID: OAK_TREE, Qty: 1 }], 'doc-action': 'CO' });
    const before = (await rows('c_order', `IsSOTrx eq false and C_BPartner_ID eq ${TREE_FARM}`)).length;
    const failed = await createPo(noVendor.id);
    assert.equal(failed.body.isError, true, failed.text);
    assert.match(failed.body.summary, /No vendor for product Oak Tree/);
    assert.equal((await rows('c_order', `IsSOTrx eq false and C_BPartner_ID eq ${TREE_FARM}`)).length, before);
    assert.equal(idOf((await rows('m_requisitionline', `M_Requisition_ID eq ${noVendor.id}`))[0]!.C_OrderLine_ID) ?? null, null);
  });

  it('a role without access to the process creates no orders', async () => {
    const req = await ok('POST', '/api/v1/models/m_requisition', { M_RequisitionLine: [{ M_Product_ID: OAK_TREE, Qty: 1, C_BPartner_ID: TREE_FARM }], 'doc-action': 'CO' });
    const r = await createPo(req.id, fx.user);
    assert.ok(r.status === 403 || r.status === 404, `${r.status} ${r.text}`);
    assert.equal(idOf((await rows('m_requisitionline', `M_Requisition_ID eq ${req.id}`))[0]!.C_OrderLine_ID) ?? null, null);
  });
});
