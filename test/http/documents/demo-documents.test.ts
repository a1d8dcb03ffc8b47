import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { idOf, q } from './document-helpers.js';

const round2 = (n: number) => Math.round(n * 100) / 100;
const sum = (rows: Record<string, any>[], f: (r: Record<string, any>) => number) => round2(rows.reduce((n, r) => n + f(r), 0));
const done = (r: Record<string, any>) => ['CO', 'CL'].includes(String(idOf(r.DocStatus)));

describe('demo documents', () => {
  let server: TestServer;
  let token: string;
  const all = async (table: string, filter?: string) => {
    const r = await server.request('GET', `/api/v1/models/${table}?$top=100${filter ? `&$filter=${q(filter)}` : ''}`, { token });
    assert.equal(r.status, 200, r.text);
    return r.body.records as Record<string, any>[];
  };

  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('every completed shipment, invoice, payment and allocation is posted with balanced facts', async () => {
    for (const table of ['m_inout', 'c_invoice', 'c_payment', 'c_allocationhdr']) {
      for (const doc of (await all(table)).filter(done)) {
        const r = await server.request('GET', `/api/v1/models/${table}/${doc.id}?$expand=fact_acct.record_id`, { token });
        const facts = (r.body['fact_acct.record_id'] ?? r.body.fact_acct ?? []) as Record<string, any>[];
        assert.ok(facts.length > 0, `${table} ${doc.DocumentNo} has facts`);
        assert.equal(sum(facts, (f) => Number(f.AmtAcctDr)), sum(facts, (f) => Number(f.AmtAcctCr)), `${table} ${doc.DocumentNo} balances`);
        assert.equal(idOf(doc.Posted), 'Y', `${table} ${doc.DocumentNo} is posted`);
      }
    }
  });

  it('order lines agree with the shipments, invoices and reservations, and totals with the lines', async () => {
    const orders = await all('c_order');
    const lines = await all('c_orderline');
    const shipments = new Map((await all('m_inout')).map((s) => [s.id, s]));
    const invoices = new Map((await all('c_invoice')).map((i) => [i.id, i]));
    const shipped = (await all('m_inoutline')).filter((l) => done(shipments.get(idOf(l.M_InOut_ID))!));
    const invoiced = (await all('c_invoiceline')).filter((l) => done(invoices.get(idOf(l.C_Invoice_ID))!));
    const reservations = await all('m_storagereservation', 'IsSOTrx eq true');
    const reservedByProduct = new Map<number, number>();
    for (const o of orders) {
      const own = lines.filter((l) => idOf(l.C_Order_ID) === o.id);
      assert.equal(o.TotalLines, sum(own, (l) => Number(l.LineNetAmt)), `order ${o.DocumentNo} total lines`);
      for (const l of own) {
        assert.equal(l.QtyDelivered, sum(shipped.filter((s) => idOf(s.C_OrderLine_ID) === l.id), (s) => Number(s.MovementQty)), `order ${o.DocumentNo} line ${l.Line} delivered`);
        assert.equal(l.QtyInvoiced, sum(invoiced.filter((s) => idOf(s.C_OrderLine_ID) === l.id), (s) => Number(s.QtyInvoiced)), `order ${o.DocumentNo} line ${l.Line} invoiced`);
        const open = idOf(o.DocStatus) === 'CO' ? Math.max(Number(l.QtyOrdered) - Number(l.QtyDelivered), 0) : 0;
        if (o.IsSOTrx && idOf(l.M_Product_ID) !== 126) {
          assert.equal(Number(l.QtyReserved), open, `order ${o.DocumentNo} line ${l.Line} reserved`);
          const p = Number(idOf(l.M_Product_ID));
          reservedByProduct.set(p, (reservedByProduct.get(p) ?? 0) + open);
        }
      }
    }
    for (const r of reservations) assert.equal(Number(r.Qty), reservedByProduct.get(Number(idOf(r.M_Product_ID))) ?? 0, `reservation of product ${idOf(r.M_Product_ID)}`);
  });

  it('invoices are paid exactly when their allocations settle them', async () => {
    const allocations = await all('c_allocationline');
    for (const i of (await all('c_invoice')).filter(done)) {
      const open = round2(Number(i.GrandTotal) - sum(allocations.filter((a) => idOf(a.C_Invoice_ID) === i.id), (a) => Number(a.Amount)));
      assert.equal(i.IsPaid, open === 0, `invoice ${i.DocumentNo} open ${open}`);
    }
  });
});
