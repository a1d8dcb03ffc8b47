import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { documentCalls, idOf } from './document-helpers.js';
import { newCustomer } from './pricing-helpers.js';

describe('credit check of sales orders and partners open balances', () => {
  const fx = serverWithDemoRoles();
  const { call, ok } = documentCalls(() => ({ server: fx.server, token: fx.admin }));

  /** A drafted sales order of one line for `amount` (Azalea Bush, tax exempt). */
  const order = (partnerId: number, amount: number, docType = 132) =>
    ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: partnerId, C_DocTypeTarget_ID: docType, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1, PriceEntered: amount, C_Tax_ID: 104 }] });
  const complete = (table: string, id: number, token = fx.admin) => call('PUT', `/api/v1/models/${table}/${id}`, { 'doc-action': 'CO' }, token);
  const partner = async (id: number) => {
    const bp = await ok('GET', `/api/v1/models/c_bpartner/${id}`);
    return { status: idOf(bp.SOCreditStatus), open: bp.TotalOpenBalance ?? 0, used: bp.SO_CreditUsed ?? 0 };
  };
  /** A completed customer invoice of `amount` (tax exempt). */
  const invoice = (partnerId: number, amount: number) =>
    ok('POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: partnerId,
      C_DocTypeTarget_ID: 116,
      C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 1, PriceEntered: amount, C_Tax_ID: 104 }],
      'doc-action': 'CO',
    });
  const refused = async (orderId: number, pattern: RegExp) => {
    const r = await complete('c_order', orderId);
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.detail, pattern);
    const o = await ok('GET', `/api/v1/models/c_order/${orderId}`);
    assert.equal(idOf(o.DocStatus), 'DR', 'the order stays drafted');
    const reserved = await ok('GET', `/api/v1/models/c_orderline?$filter=${encodeURIComponent(`C_Order_ID eq ${orderId}`)}`);
    assert.equal(reserved.records[0].QtyReserved, 0, 'nothing reserved');
  };

  it('refuses an order over the credit limit of a partner with Credit OK; completes one within it', async () => {
    const bp = await newCustomer(ok, { SOCreditStatus: 'O', SO_CreditLimit: 2000 });
    await refused((await order(bp.id, 3000)).id, /over its credit limit: open balance 0 \+ order 3000 > credit limit 2000 \(Credit Hold\)/);
    const within = await order(bp.id, 1500);
    const r = await complete('c_order', within.id);
    assert.equal(r.status, 200, r.text);
    assert.equal(idOf(r.body.DocStatus), 'CO');
    assert.deepEqual(await partner(bp.id), { status: 'O', open: 0, used: 0 }, 'orders do not count in the open balance');
  });

  it('refuses any order of a partner on credit stop or credit hold; No Credit Check and purchase orders are not checked', async () => {
    const stop = await newCustomer(ok, { SOCreditStatus: 'S', SO_CreditLimit: 5000 });
    await refused((await order(stop.id, 10)).id, /is on Credit Stop/);
    const hold = await newCustomer(ok, { SOCreditStatus: 'H', SO_CreditLimit: 5000 });
    await refused((await order(hold.id, 10)).id, /is on Credit Hold/);
    const unchecked = await newCustomer(ok, { SOCreditStatus: 'X', SO_CreditLimit: 100 });
    assert.equal((await complete('c_order', (await order(unchecked.id, 3000)).id)).status, 200);
    const noLimit = await newCustomer(ok, { SOCreditStatus: 'O', SO_CreditLimit: 0 });
    assert.equal((await complete('c_order', (await order(noLimit.id, 3000)).id)).status, 200, 'without a limit there is nothing to exceed');

    const vendor = await ok('POST', '/api/v1/models/c_bpartner', { Value: 'stop-vendor', Name: 'Stopped vendor', C_BP_Group_ID: 104, IsVendor: true, SOCreditStatus: 'S', C_BPartner_Location: [{ C_Location_ID: 120, Name: 'Stamford' }] });
    const po = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: vendor.id, C_DocTypeTarget_ID: 126, IsSOTrx: false, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1, PriceEntered: 10 }] });
    const r = await complete('c_order', po.id);
    assert.equal(r.status, 200, r.text);
  });

  it('invoices and payments keep the open balance, credit used and status; the order check counts the open balance', async () => {
    const bp = await newCustomer(ok, { SOCreditStatus: 'O', SO_CreditLimit: 2000 });
    const inv = await invoice(bp.id, 1850);
    assert.equal(idOf(inv.DocStatus), 'CO');
    assert.deepEqual(await partner(bp.id), { status: 'W', open: 1850, used: 1850 }, 'over 90% of the limit: Credit Watch');
    assert.equal((await complete('c_order', (await order(bp.id, 150)).id)).status, 200, '1850 + 150 reaches the limit, does not exceed it');
    await refused((await order(bp.id, 151)).id, /open balance 1850 \+ order 151 > credit limit 2000/);

    const pay = await ok('POST', '/api/v1/models/c_payment', { C_Invoice_ID: inv.id, PayAmt: 1000, 'doc-action': 'CO' });
    assert.equal(idOf(pay.DocStatus), 'CO');
    assert.deepEqual(await partner(bp.id), { status: 'O', open: 850, used: 850 });
    const advance = await ok('POST', '/api/v1/models/c_payment', { C_BPartner_ID: bp.id, IsReceipt: true, PayAmt: 300, 'doc-action': 'CO' });
    assert.deepEqual(await partner(bp.id), { status: 'O', open: 550, used: 850 }, 'an unallocated receipt lowers the open balance, not the credit used');
    const voided = await call('PUT', `/api/v1/models/c_payment/${advance.id}`, { 'doc-action': 'VO' });
    assert.equal(voided.status, 200, voided.text);
    assert.deepEqual(await partner(bp.id), { status: 'O', open: 850, used: 850 });
    const reversed = await call('PUT', `/api/v1/models/c_payment/${pay.id}`, { 'doc-action': 'RC' });
    assert.equal(reversed.status, 200, reversed.text);
    assert.deepEqual(await partner(bp.id), { status: 'W', open: 1850, used: 1850 });
    const over = await invoice(bp.id, 500);
    assert.equal(idOf(over.DocStatus), 'CO');
    assert.deepEqual(await partner(bp.id), { status: 'H', open: 2350, used: 2350 }, 'over the limit: Credit Hold');
    await refused((await order(bp.id, 1)).id, /is on Credit Hold/);
  });

  it('an administrator overrides the check by the status or the limit; other roles may not change them', async () => {
    const bp = await newCustomer(ok, { SOCreditStatus: 'S', SO_CreditLimit: 1000 });
    const o = await order(bp.id, 1500);
    for (const token of [fx.user, fx.ws]) {
      for (const change of [{ SOCreditStatus: 'X' }, { SO_CreditLimit: 100000 }]) {
        const denied = await call('PUT', `/api/v1/models/c_bpartner/${bp.id}`, change, token);
        assert.equal(denied.status, 403, denied.text);
      }
      const r = await complete('c_order', o.id, token);
      assert.equal(r.status, 400, r.text);
      assert.match(r.body.detail, /Credit Stop/);
    }
    assert.equal((await partner(bp.id)).status, 'S');
    const ok2 = await call('PUT', `/api/v1/models/c_bpartner/${bp.id}`, { SOCreditStatus: 'O' });
    assert.equal(ok2.status, 200, ok2.text);
    await refused(o.id, /over its credit limit/);
    const raised = await ok('PUT', `/api/v1/models/c_bpartner/${bp.id}`, { SO_CreditLimit: 10000 });
    assert.equal(idOf(raised.SOCreditStatus), 'O');
    const done = await complete('c_order', o.id);
    assert.equal(done.status, 200, done.text);
    assert.equal(idOf(done.body.DocStatus), 'CO');
  });
});
