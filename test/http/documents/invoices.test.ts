import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { idOf, readDocument, today } from './document-helpers.js';

/** A customer invoice of BP 118: five Azalea Bushes at CT Sales tax and two of product 126 at its category's tax. */
const TWO_LINE_INVOICE = {
  C_BPartner_ID: 118,
  C_DocTypeTarget_ID: 116,
  C_InvoiceLine: [
    { M_Product_ID: 128, QtyEntered: 5, C_Tax_ID: 105 },
    { M_Product_ID: 126, QtyEntered: 2 },
  ],
};

describe('invoice rules', () => {
  let server: TestServer;
  let token: string;
  const call = (method: string, path: string, body?: unknown) => server.request(method, path, { token, body });

  const read = async (id: number) => {
    const d = await readDocument(server, token, 'C_Invoice', 'C_InvoiceLine', 'C_InvoiceTax', id);
    return { invoice: d.header, lines: d.lines, taxes: d.taxes };
  };

  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('creates a customer invoice with lines: header defaults, line amounts, tax rows and totals', async () => {
    const r = await call('POST', '/api/v1/models/c_invoice', TWO_LINE_INVOICE);
    assert.equal(r.status, 201, r.text);
    const inv = r.body;
    assert.equal(inv.IsSOTrx, true, 'from the document type');
    assert.equal(idOf(inv.C_DocType_ID), 0);
    assert.equal(idOf(inv.C_BPartner_Location_ID), 117);
    assert.equal(idOf(inv.AD_User_ID), 105);
    assert.equal(idOf(inv.M_PriceList_ID), 101);
    assert.equal(idOf(inv.C_Currency_ID), 100);
    assert.equal(idOf(inv.C_PaymentTerm_ID), 105);
    assert.equal(idOf(inv.PaymentRule), 'P');
    assert.equal(idOf(inv.SalesRep_ID), 101);
    assert.equal(inv.DateInvoiced, today());
    const [a, b] = inv.C_InvoiceLine;
    assert.equal(a.PriceList, 25);
    assert.equal(a.PriceEntered, 23);
    assert.equal(a.PriceActual, 23);
    assert.equal(a.QtyInvoiced, 5);
    assert.equal(a.LineNetAmt, 115);
    assert.equal(a.TaxAmt, 6.9);
    assert.equal(a.LineTotalAmt, 121.9);
    assert.equal(a.Line, 10);
    assert.equal(idOf(b.C_UOM_ID), 101, "the product's unit");
    assert.equal(idOf(b.C_Tax_ID), 104, "the default tax of the product's category");
    assert.equal(b.LineNetAmt, 70);
    assert.equal(b.TaxAmt, 0);
    assert.equal(b.LineTotalAmt, 70);
    assert.equal(b.Line, 20);
    const s = await read(inv.id);
    assert.equal(s.invoice.TotalLines, 185);
    assert.equal(s.invoice.GrandTotal, 191.9);
    assert.deepEqual(s.taxes, [
      { tax: 104, base: 70, amount: 0 },
      { tax: 105, base: 115, amount: 6.9 },
    ]);
  });

  it('a changed quantity and a deleted line keep the invoice totals right', async () => {
    const r = await call('POST', '/api/v1/models/c_invoice', TWO_LINE_INVOICE);
    assert.equal(r.status, 201, r.text);
    const [a, b] = r.body.C_InvoiceLine;
    const qty = await call('PUT', `/api/v1/models/c_invoice/${r.body.id}`, { C_InvoiceLine: [{ id: a.id, QtyEntered: 1 }] });
    assert.equal(qty.status, 200, qty.text);
    assert.equal(qty.body.C_InvoiceLine[0].QtyInvoiced, 1);
    assert.equal(qty.body.C_InvoiceLine[0].TaxAmt, 1.38);
    let s = await read(r.body.id);
    assert.equal(s.invoice.TotalLines, 93);
    assert.equal(s.invoice.GrandTotal, 94.38);
    const del = await call('PUT', `/api/v1/models/c_invoice/${r.body.id}`, { C_InvoiceLine: [{ id: b.id, '(delete)': true }] });
    assert.equal(del.status, 200, del.text);
    s = await read(r.body.id);
    assert.equal(s.lines.length, 1);
    assert.equal(s.invoice.TotalLines, 23);
    assert.equal(s.invoice.GrandTotal, 24.38);
    assert.deepEqual(s.taxes, [{ tax: 105, base: 23, amount: 1.38 }]);
    const tax = await call('PUT', `/api/v1/models/c_invoiceline/${a.id}`, { C_Tax_ID: 108 });
    assert.equal(tax.status, 200, tax.text);
    assert.equal(tax.body.TaxAmt, 2.76, 'the line tax at the summary rate');
    s = await read(r.body.id);
    assert.deepEqual(s.taxes, [
      { tax: 106, base: 23, amount: 1.15 },
      { tax: 107, base: 23, amount: 1.61 },
    ]);
    assert.equal(s.invoice.GrandTotal, 25.76);
  });

  it('a vendor invoice takes the purchase price list', async () => {
    const r = await call('POST', '/api/v1/models/c_invoice', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 123, C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 2 }] });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.IsSOTrx, false);
    assert.equal(idOf(r.body.M_PriceList_ID), 102, "the client's default purchase price list");
    assert.equal(r.body.C_InvoiceLine[0].PriceActual, 11);
    assert.equal(r.body.TotalLines, 22);
    assert.equal(r.body.GrandTotal, 22);
  });

  it('refuses an unknown partner and lines of a processed invoice', async () => {
    const unknown = await call('POST', '/api/v1/models/c_invoice', { C_BPartner_ID: 999999, C_DocTypeTarget_ID: 116 });
    assert.equal(unknown.status, 400, unknown.text);
    assert.match(unknown.body.detail, /C_BPartner_ID/);
    const added = await call('PUT', '/api/v1/models/c_invoice/104', { C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 1 }] });
    assert.equal(added.status, 400, added.text);
    assert.match(added.body.detail, /processed/);
    const changed = await call('PUT', '/api/v1/models/c_invoiceline/100', { QtyEntered: 2 });
    assert.equal(changed.status, 400, changed.text);
    const s = await read(104);
    assert.equal(s.invoice.GrandTotal, 311.7, 'the demo invoice is untouched');
  });
});
