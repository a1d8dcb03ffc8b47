import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { recordStatements } from '../../helpers/statements.js';
import { idOf, q, readDocument, today } from './document-helpers.js';

describe('order rules', () => {
  let server: TestServer;
  let token: string;
  const call = (method: string, path: string, body?: unknown) => server.request(method, path, { token, body });

  const read = async (id: number) => {
    const d = await readDocument(server, token, 'C_Order', 'C_OrderLine', 'C_OrderTax', id);
    return { order: d.header, lines: d.lines, taxes: d.taxes };
  };

  const newOrder = async (body: Record<string, unknown> = {}) => {
    const r = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, ...body });
    assert.equal(r.status, 201, r.text);
    return r.body;
  };

  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('creates an order from the collection body, filled from the partner, price list and login', async () => {
    const r = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132 });
    assert.equal(r.status, 201, r.text);
    const o = r.body;
    assert.equal(idOf(o.C_BPartner_Location_ID), 117, 'the partner ship-to location');
    assert.equal(idOf(o.Bill_BPartner_ID), 118);
    assert.equal(idOf(o.Bill_Location_ID), 117);
    assert.equal(idOf(o.AD_User_ID), 105, 'the partner contact');
    assert.equal(idOf(o.Bill_User_ID), 105);
    assert.equal(idOf(o.M_PriceList_ID), 101, 'the partner price list');
    assert.equal(idOf(o.C_PaymentTerm_ID), 105, 'the partner payment term');
    assert.equal(idOf(o.SalesRep_ID), 101, 'the partner sales representative');
    assert.equal(idOf(o.PaymentRule), 'P', 'the partner payment rule, not the dictionary default B');
    assert.equal(idOf(o.InvoiceRule), 'D');
    assert.equal(idOf(o.DeliveryRule), 'A');
    assert.equal(idOf(o.DeliveryViaRule), 'P');
    assert.equal(idOf(o.FreightCostRule), 'I');
    assert.equal(idOf(o.PriorityRule), '5', 'the dictionary default');
    assert.equal(o.IsSOTrx, true, 'from the document type');
    assert.equal(idOf(o.C_DocType_ID), 0, 'no document type while drafted');
    assert.equal(idOf(o.C_Currency_ID), 100, 'the price list currency');
    assert.equal(o.IsTaxIncluded, false);
    assert.equal(idOf(o.M_Warehouse_ID), 103, 'the login warehouse');
    assert.equal(o.DateOrdered, today());
    assert.equal(o.DatePromised, today());
    assert.equal(o.DateAcct, today());
    assert.equal(o.TotalLines, 0);
    assert.equal(o.GrandTotal, 0);
    assert.equal(idOf(o.DocStatus), 'DR');
  });

  it('prices a line from the price list and totals the order (the collection sequence)', async () => {
    const o = await newOrder();
    const put = await call('PUT', `/api/v1/models/c_order/${o.id}`, { C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1 }] });
    assert.equal(put.status, 200, put.text);
    const line = put.body.C_OrderLine[0];
    assert.equal(line.PriceList, 25);
    assert.equal(line.PriceEntered, 23, 'the standard price');
    assert.equal(line.PriceActual, 23);
    assert.equal(line.PriceLimit, 20);
    assert.equal(line.Discount, 8);
    assert.equal(line.QtyOrdered, 1);
    assert.equal(line.LineNetAmt, 23);
    assert.equal(idOf(line.C_Tax_ID), 104, "the default tax of the product's tax category");
    assert.equal(idOf(line.C_UOM_ID), 100);
    assert.equal(line.Line, 10);
    assert.equal(idOf(line.M_Warehouse_ID), 103);
    assert.equal(idOf(line.C_BPartner_ID), 118);
    assert.equal(idOf(line.C_Currency_ID), 100);
    assert.equal(line.DateOrdered, o.DateOrdered);
    assert.equal(put.body.TotalLines, 23, 'the answer shows the recomputed header');
    const { order, lines, taxes } = await read(o.id);
    assert.equal(lines.length, 1);
    assert.equal(order.TotalLines, 23);
    assert.equal(order.GrandTotal, 23);
    assert.deepEqual(taxes, [{ tax: 104, base: 23, amount: 0 }]);
  });

  it('keeps tax rows and totals right over a second line, a changed quantity and a deleted line', async () => {
    const o = await newOrder();
    const first = await call('PUT', `/api/v1/models/c_order/${o.id}`, { C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1 }] });
    assert.equal(first.status, 200, first.text);
    const l1 = first.body.C_OrderLine[0].id;
    const before104 = (await call('GET', `/api/v1/models/c_order/${o.id}?$expand=C_OrderTax`)).body.C_OrderTax[0].uid;

    const second = await call('PUT', `/api/v1/models/c_order/${o.id}`, { C_OrderLine: [{ M_Product_ID: 133, QtyEntered: 3, C_Tax_ID: 105 }] });
    assert.equal(second.status, 200, second.text);
    const l2 = second.body.C_OrderLine[0];
    assert.equal(l2.Line, 20);
    assert.equal(l2.PriceActual, 20);
    assert.equal(l2.LineNetAmt, 60);
    assert.equal(idOf(l2.C_Tax_ID), 105, 'a tax the client gives is kept');
    let s = await read(o.id);
    assert.equal(s.order.TotalLines, 83);
    assert.equal(s.order.GrandTotal, 86.6);
    assert.deepEqual(s.taxes, [
      { tax: 104, base: 23, amount: 0 },
      { tax: 105, base: 60, amount: 3.6 },
    ]);

    const qty = await call('PUT', `/api/v1/models/c_order/${o.id}`, { C_OrderLine: [{ id: l1, QtyEntered: 4 }] });
    assert.equal(qty.status, 200, qty.text);
    assert.equal(qty.body.C_OrderLine[0].QtyOrdered, 4);
    assert.equal(qty.body.C_OrderLine[0].LineNetAmt, 92);
    s = await read(o.id);
    assert.equal(s.order.TotalLines, 152);
    assert.equal(s.order.GrandTotal, 155.6);
    assert.deepEqual(s.taxes, [
      { tax: 104, base: 92, amount: 0 },
      { tax: 105, base: 60, amount: 3.6 },
    ]);
    const after104 = (s.order.C_OrderTax as Record<string, unknown>[]).find((t) => idOf(t.C_Tax_ID) === 104)!.uid;
    assert.equal(after104, before104, 'a tax row that stays keeps its uid');

    const del = await call('PUT', `/api/v1/models/c_order/${o.id}`, { C_OrderLine: [{ id: l2.id, '(delete)': true }] });
    assert.equal(del.status, 200, del.text);
    s = await read(o.id);
    assert.equal(s.lines.length, 1);
    assert.equal(s.order.TotalLines, 92);
    assert.equal(s.order.GrandTotal, 92);
    assert.deepEqual(s.taxes, [{ tax: 104, base: 92, amount: 0 }], 'the tax row of the deleted line goes');
  });

  it('creates an order with its lines in one POST', async () => {
    const r = await call('POST', '/api/v1/models/c_order', {
      C_BPartner_ID: 118,
      C_DocTypeTarget_ID: 132,
      C_OrderLine: [
        { M_Product_ID: 126, QtyEntered: 2, C_Tax_ID: 105 },
        { M_Product_ID: 137, QtyEntered: 3 },
      ],
    });
    assert.equal(r.status, 201, r.text);
    const [a, b] = r.body.C_OrderLine;
    assert.equal(idOf(a.C_UOM_ID), 101, "the product's unit (hours), not the default unit");
    assert.equal(a.LineNetAmt, 70);
    assert.equal(b.LineNetAmt, 22.5);
    assert.deepEqual([a.Line, b.Line], [10, 20]);
    assert.equal(r.body.TotalLines, 92.5);
    assert.equal(r.body.GrandTotal, 96.7);
    const s = await read(r.body.id);
    assert.deepEqual(s.taxes, [
      { tax: 104, base: 22.5, amount: 0 },
      { tax: 105, base: 70, amount: 4.2 },
    ]);
  });

  it('sums tax per line, rounds HALF_UP, and splits a summary tax into its child taxes', async () => {
    const r = await call('POST', '/api/v1/models/c_order', {
      C_BPartner_ID: 118,
      C_DocTypeTarget_ID: 132,
      C_OrderLine: [
        { M_Product_ID: 128, QtyEntered: 3, PriceEntered: 0.35, C_Tax_ID: 105 },
        { M_Product_ID: 128, QtyEntered: 3, PriceEntered: 0.35, C_Tax_ID: 105 },
        { M_Product_ID: 128, QtyEntered: 4, C_Tax_ID: 108 },
        { M_Product_ID: 137, QtyEntered: 3, PriceEntered: 0.335, C_Tax_ID: 109 },
      ],
    });
    assert.equal(r.status, 201, r.text);
    const lines = r.body.C_OrderLine;
    assert.equal(lines[0].PriceActual, 0.35, 'a price the client gives is kept');
    assert.equal(lines[0].PriceList, 25, 'the list price still comes from the price list');
    assert.equal(lines[0].LineNetAmt, 1.05);
    assert.equal(lines[3].LineNetAmt, 1.01, '1.005 rounds HALF_UP');
    const s = await read(r.body.id);
    assert.deepEqual(s.taxes, [
      { tax: 105, base: 2.1, amount: 0.12 },
      { tax: 106, base: 92, amount: 4.6 },
      { tax: 107, base: 92, amount: 6.44 },
      { tax: 109, base: 1.01, amount: 0 },
    ], '105: 0.06 per line (0.13 on the base); 108 split into GST and PST, no row of its own');
    assert.equal(s.order.TotalLines, 95.11);
    assert.equal(s.order.GrandTotal, 106.27);
  });

  it('writes lines directly: POST, PUT and DELETE of c_orderline keep the totals', async () => {
    const o = await newOrder();
    const created = await call('POST', '/api/v1/models/c_orderline', { C_Order_ID: o.id, M_Product_ID: 133, QtyEntered: 2, C_Tax_ID: 105 });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.LineNetAmt, 40);
    assert.equal(created.body.Line, 10);
    assert.equal(idOf(created.body.M_Warehouse_ID), 103);
    assert.equal(idOf(created.body.C_BPartner_Location_ID), 117, 'from the order');
    assert.equal(created.body.DateOrdered, o.DateOrdered, 'from the order');
    let s = await read(o.id);
    assert.equal(s.order.GrandTotal, 42.4);

    const price = await call('PUT', `/api/v1/models/c_orderline/${created.body.id}`, { PriceEntered: 15 });
    assert.equal(price.status, 200, price.text);
    assert.equal(price.body.PriceActual, 15);
    assert.equal(price.body.LineNetAmt, 30);
    s = await read(o.id);
    assert.equal(s.order.TotalLines, 30);
    assert.equal(s.order.GrandTotal, 31.8);

    const tax = await call('PUT', `/api/v1/models/c_orderline/${created.body.id}`, { C_Tax_ID: 109 });
    assert.equal(tax.status, 200, tax.text);
    s = await read(o.id);
    assert.deepEqual(s.taxes, [{ tax: 109, base: 30, amount: 0 }]);
    assert.equal(s.order.GrandTotal, 30);

    const product = await call('PUT', `/api/v1/models/c_orderline/${created.body.id}`, { M_Product_ID: 128 });
    assert.equal(product.status, 200, product.text);
    assert.equal(product.body.PriceActual, 23, 'another product brings its own price');
    assert.equal(product.body.LineNetAmt, 46);
    assert.equal(idOf(product.body.C_Tax_ID), 104, 'and its tax');

    const del = await call('DELETE', `/api/v1/models/c_orderline/${created.body.id}`);
    assert.equal(del.status, 200, del.text);
    s = await read(o.id);
    assert.equal(s.lines.length, 0);
    assert.deepEqual(s.taxes, []);
    assert.equal(s.order.TotalLines, 0);
    assert.equal(s.order.GrandTotal, 0);
  });

  it('keeps what the client sends on the header', async () => {
    const o = await newOrder({ PaymentRule: 'K', C_PaymentTerm_ID: 100, SalesRep_ID: 103, DateOrdered: '2026-01-15', DatePromised: '2026-01-20', Description: 'kept' });
    assert.equal(idOf(o.PaymentRule), 'K');
    assert.equal(idOf(o.C_PaymentTerm_ID), 100);
    assert.equal(idOf(o.SalesRep_ID), 103);
    assert.equal(o.DateOrdered, '2026-01-15');
    assert.equal(o.DatePromised, '2026-01-20');
    assert.equal(o.Description, 'kept');
    assert.equal(idOf(o.C_BPartner_Location_ID), 117);
  });

  it('without a target document type, takes the default sales or purchase order type', async () => {
    const sales = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, IsSOTrx: true });
    assert.equal(sales.status, 201, sales.text);
    assert.equal(idOf(sales.body.C_DocTypeTarget_ID), 132, 'the standard order');
    assert.equal(sales.body.IsSOTrx, true);
    const purchase = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 114, IsSOTrx: false });
    assert.equal(purchase.status, 201, purchase.text);
    assert.equal(idOf(purchase.body.C_DocTypeTarget_ID), 126, 'the purchase order');
    assert.equal(purchase.body.IsSOTrx, false);
    const given = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 126 });
    assert.equal(given.status, 201, given.text);
    assert.equal(given.body.IsSOTrx, false, 'IsSOTrx follows the document type the client gives');
  });

  it('a purchase order takes the purchase side of the partner', async () => {
    const r = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 114, C_DocTypeTarget_ID: 126, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 10 }] });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.IsSOTrx, false);
    assert.equal(idOf(r.body.M_PriceList_ID), 102, 'the partner purchase price list');
    assert.equal(idOf(r.body.C_PaymentTerm_ID), 106, 'the partner purchase payment term');
    assert.equal(idOf(r.body.PaymentRule), 'S', 'the partner purchase payment rule');
    assert.equal(idOf(r.body.SalesRep_ID), 101, 'no partner sales representative: the login user');
    assert.equal(r.body.C_OrderLine[0].PriceActual, 11);
    assert.equal(r.body.TotalLines, 110);
  });

  it('prices from a tax-included price list take the tax out of the amount', async () => {
    const pl = await call('POST', '/api/v1/models/m_pricelist', { Name: 'Gross prices', C_Currency_ID: 100, IsSOPriceList: true, IsTaxIncluded: true, EnforcePriceLimit: true, PricePrecision: 2 });
    assert.equal(pl.status, 201, pl.text);
    const version = await call('POST', '/api/v1/models/m_pricelist_version', { M_PriceList_ID: pl.body.id, Name: 'Gross 2020', ValidFrom: '2020-01-01', M_DiscountSchema_ID: 100 });
    assert.equal(version.status, 201, version.text);
    const price = await call('POST', '/api/v1/models/m_productprice', { M_PriceList_Version_ID: version.body.id, M_Product_ID: 128, PriceList: 110, PriceStd: 106, PriceLimit: 100 });
    assert.equal(price.status, 201, price.text);

    const o = await newOrder({ M_PriceList_ID: pl.body.id });
    assert.equal(idOf(o.M_PriceList_ID), pl.body.id, 'a price list the client gives is kept');
    assert.equal(o.IsTaxIncluded, true);
    const put = await call('PUT', `/api/v1/models/c_order/${o.id}`, { C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1, C_Tax_ID: 105 }] });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.C_OrderLine[0].LineNetAmt, 106);
    const s = await read(o.id);
    assert.deepEqual(s.taxes, [{ tax: 105, base: 100, amount: 6 }]);
    assert.equal(s.order.TotalLines, 106);
    assert.equal(s.order.GrandTotal, 106, 'the tax is inside the lines');

    const under = await call('PUT', `/api/v1/models/c_order/${o.id}`, { C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1, PriceEntered: 99 }] });
    assert.equal(under.status, 400, 'the price list enforces its limit price');
    assert.match(under.body.detail, /limit price/);
    const missing = await call('PUT', `/api/v1/models/c_order/${o.id}`, { C_OrderLine: [{ M_Product_ID: 133, QtyEntered: 1 }] });
    assert.equal(missing.status, 400, 'a product not on the price list needs a price');
    assert.match(missing.body.detail, /M_Product_ID/);
    const priced = await call('PUT', `/api/v1/models/c_order/${o.id}`, { C_OrderLine: [{ M_Product_ID: 133, QtyEntered: 1, PriceEntered: 53, C_Tax_ID: 105 }] });
    assert.equal(priced.status, 200, priced.text);
    assert.equal((await read(o.id)).order.GrandTotal, 159);
  });

  it('refuses an unknown partner or one without address', async () => {
    const unknown = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 999999, C_DocTypeTarget_ID: 132 });
    assert.equal(unknown.status, 400, unknown.text);
    assert.equal(unknown.body.title, 'Validation Errors');
    assert.match(unknown.body.detail, /C_BPartner_ID/);
    const bp = await call('POST', '/api/v1/models/c_bpartner', { Name: 'Partner without address' });
    assert.equal(bp.status, 201, bp.text);
    const homeless = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: bp.body.id, C_DocTypeTarget_ID: 132 });
    assert.equal(homeless.status, 400, homeless.text);
    assert.match(homeless.body.detail, /C_BPartner_Location_ID/);
  });

  it('refuses changes to the lines of a processed order', async () => {
    const count = async () => (await call('GET', `/api/v1/models/c_orderline?$filter=${q('C_Order_ID eq 102')}`)).body['row-count'];
    const lines = await count();
    const change = await call('PUT', '/api/v1/models/c_orderline/101', { QtyEntered: 9 });
    assert.equal(change.status, 400, change.text);
    const added = await call('PUT', '/api/v1/models/c_order/102', { C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1 }] });
    assert.equal(added.status, 400, added.text);
    assert.match(added.body.detail, /processed/);
    const posted = await call('POST', '/api/v1/models/c_orderline', { C_Order_ID: 102, M_Product_ID: 128, QtyEntered: 1 });
    assert.equal(posted.status, 400, posted.text);
    const removed = await call('DELETE', '/api/v1/models/c_orderline/101');
    assert.equal(removed.status, 400, removed.text);
    assert.equal(await count(), lines, 'nothing changed');
    const order = (await read(102)).order;
    assert.equal(order.TotalLines, 300, 'the demo totals stay');
    assert.equal(order.GrandTotal, 311.7);
  });

  it('refuses another price list once product lines are priced; allows it before', async () => {
    const o = await newOrder();
    const empty = await call('PUT', `/api/v1/models/c_order/${o.id}`, { M_PriceList_ID: 103 });
    assert.equal(empty.status, 200, empty.text);
    assert.equal(idOf(empty.body.C_Currency_ID), 102, 'the currency follows the price list');
    const put = await call('PUT', `/api/v1/models/c_order/${o.id}`, { C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1 }] });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.C_OrderLine[0].PriceActual, 21.16, 'priced from the export list');
    assert.equal(idOf(put.body.C_OrderLine[0].C_Currency_ID), 102);
    const change = await call('PUT', `/api/v1/models/c_order/${o.id}`, { M_PriceList_ID: 101 });
    assert.equal(change.status, 400, change.text);
    assert.match(change.body.detail, /M_PriceList_ID/);
    const sameVersion = await call('PUT', `/api/v1/models/c_order/${o.id}`, { DateOrdered: '2025-12-01', DatePromised: '2025-12-05' });
    assert.equal(sameVersion.status, 200, 'a date within the same price list version may change');
    const { lines } = await read(o.id);
    assert.equal(lines[0]!.DateOrdered, '2025-12-01', 'the lines take the header dates');
    assert.equal(lines[0]!.DatePromised, '2025-12-05');
  });

  it('a new partner on a draft order brings its address and contact, to the lines too', async () => {
    const o = await newOrder({ C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1 }] });
    const r = await call('PUT', `/api/v1/models/c_order/${o.id}`, { C_BPartner_ID: 117 });
    assert.equal(r.status, 200, r.text);
    assert.equal(idOf(r.body.C_BPartner_Location_ID), 112);
    assert.equal(idOf(r.body.Bill_BPartner_ID), 117);
    assert.equal(idOf(r.body.Bill_Location_ID), 112);
    assert.equal(idOf(r.body.AD_User_ID), 104);
    const { lines } = await read(o.id);
    assert.equal(idOf(lines[0]!.C_BPartner_ID), 117);
    assert.equal(idOf(lines[0]!.C_BPartner_Location_ID), 112);
    const bad = await call('PUT', `/api/v1/models/c_order/${o.id}`, { C_BPartner_ID: 999999 });
    assert.equal(bad.status, 400);
  });

  /** Runs fn while recording the statements the server sends. */
  const recording = <T>(fn: () => Promise<T>) => recordStatements(server.services.db, fn);

  it('recomputes the totals once for a whole request, not once per line', async () => {
    const lines = Array.from({ length: 10 }, (_, i) => ({ M_Product_ID: 122 + i, QtyEntered: i + 1 }));
    const { result: r, statements } = await recording(() => call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: lines }));
    assert.equal(r.status, 201, r.text);
    assert.equal(statements.filter((s) => s.name === 'doc_facts_c_order').length, 1);
    const { order, lines: saved } = await read(r.body.id);
    const sum = saved.reduce((n, l) => n + Number(l.LineNetAmt), 0);
    assert.equal(saved.length, 10);
    assert.equal(Number(order.TotalLines), Math.round(sum * 100) / 100, 'the one recompute saw every line');
  });

  it('writes the lines of one request with as many statements for ten lines as for two', async () => {
    const post = (count: number) =>
      recording(() =>
        call('POST', '/api/v1/models/c_order', {
          C_BPartner_ID: 118,
          C_DocTypeTarget_ID: 132,
          C_OrderLine: Array.from({ length: count }, (_, i) => ({ M_Product_ID: 122 + i, QtyEntered: 1 + i, Line: 10 * (i + 1) })),
        }),
      );
    const two = await post(2);
    const ten = await post(10);
    assert.equal(two.result.status, 201, two.result.text);
    assert.equal(ten.result.status, 201, ten.result.text);
    assert.equal(ten.result.body.C_OrderLine.length, 10);
    assert.deepEqual(
      ten.result.body.C_OrderLine.map((l: Record<string, unknown>) => l.Line),
      [10, 20, 30, 40, 50, 60, 70, 80, 90, 100],
    );
    assert.equal(ten.statements.length, two.statements.length, ten.statements.map((s) => s.text.slice(0, 60)).join('\n'));
    const inserts = ten.statements.filter((s) => /^INSERT INTO "c_orderline"/.test(s.text));
    assert.equal(inserts.length, 1, 'the lines are written by one INSERT');
  });

  it('numbers lines without Line after the ones already written, also within one request', async () => {
    const r = await call('POST', '/api/v1/models/c_order', {
      C_BPartner_ID: 118,
      C_DocTypeTarget_ID: 132,
      C_OrderLine: [{ M_Product_ID: 126, Line: 50 }, { M_Product_ID: 137 }, { M_Product_ID: 128 }],
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(
      r.body.C_OrderLine.map((l: Record<string, unknown>) => l.Line),
      [50, 60, 70],
    );
  });

  it('refuses a request whose second line names an unknown product, writing nothing', async () => {
    const before = await call('GET', `/api/v1/models/c_order?$filter=${q("Description eq 'unknown product test'")}`);
    const r = await call('POST', '/api/v1/models/c_order', {
      C_BPartner_ID: 118,
      C_DocTypeTarget_ID: 132,
      Description: 'unknown product test',
      C_OrderLine: [{ M_Product_ID: 126 }, { M_Product_ID: 999999, PriceEntered: 5 }],
    });
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.detail, /999999/);
    const after = await call('GET', `/api/v1/models/c_order?$filter=${q("Description eq 'unknown product test'")}`);
    assert.equal(after.body['row-count'], before.body['row-count']);
  });
});
