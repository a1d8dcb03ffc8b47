import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { documentCalls, idOf } from './document-helpers.js';

const day = (offset: number) => new Date(Date.now() + offset * 86400000).toISOString().slice(0, 10);

describe('payment-term discounts on payments', () => {
  const fx = serverWithDemoRoles();
  const { call, ok } = documentCalls(() => ({ server: fx.server, token: fx.admin }));
  let term = 0;

  /** A completed customer invoice of 100 (4 Azalea Bush at 25, tax exempt) under the 50% in 10 days term. */
  const invoice = async () => {
    if (!term) term = (await ok('POST', '/api/v1/models/c_paymentterm', { Value: 'half-10', Name: '50% 10 Net 30', NetDays: 30, Discount: 50, DiscountDays: 10 })).id;
    return ok('POST', '/api/v1/models/c_invoice', {
      C_BPartner_ID: 118,
      C_DocTypeTarget_ID: 116,
      C_PaymentTerm_ID: term,
      C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 4, PriceEntered: 25, C_Tax_ID: 104 }],
      'doc-action': 'CO',
    });
  };
  const paymentsOf = async (invoiceId: number) => (await ok('GET', `/api/v1/models/c_payment?$filter=${encodeURIComponent(`C_Invoice_ID eq ${invoiceId}`)}`)).records.length;

  it('proposes the term discount on a payment within the discount days, and the payment settles the invoice', async () => {
    const inv = await invoice();
    assert.equal(inv.GrandTotal, 100);
    const pay = await ok('POST', '/api/v1/models/c_payment', { C_Invoice_ID: inv.id, DateTrx: day(0), 'doc-action': 'CO' });
    assert.equal(pay.DiscountAmt, 50);
    assert.equal(pay.PayAmt, 50, 'the open amount less the discount');
    assert.equal(idOf(pay.DocStatus), 'CO');
    assert.equal((await ok('GET', `/api/v1/models/c_invoice/${inv.id}`)).IsPaid, true);

    const smaller = await invoice();
    const part = await ok('POST', '/api/v1/models/c_payment', { C_Invoice_ID: smaller.id, PayAmt: 80, DiscountAmt: 20, DateTrx: day(10) });
    assert.equal(part.DiscountAmt, 20, 'a smaller discount on the last discount day is kept');
  });

  it('refuses a 50% discount 22 days late, proposes none then, and refuses more than the term gives in time', async () => {
    const inv = await invoice();
    const late = await call('POST', '/api/v1/models/c_payment', { C_Invoice_ID: inv.id, PayAmt: 50, DiscountAmt: 50, DateTrx: day(32) });
    assert.equal(late.status, 400, late.text);
    assert.match(late.body.detail, new RegExp(`DiscountAmt 50 exceeds the discount the payment term of invoice ${inv.DocumentNo} allows on ${day(32)}: 0`));
    assert.equal(await paymentsOf(inv.id), 0, 'nothing written');

    const proposed = await ok('POST', '/api/v1/models/c_payment', { C_Invoice_ID: inv.id, DateTrx: day(32) });
    assert.equal(proposed.DiscountAmt, 0);
    assert.equal(proposed.PayAmt, 100);

    const tooMuch = await call('PUT', `/api/v1/models/c_payment/${proposed.id}`, { DateTrx: day(3), DiscountAmt: 60 });
    assert.equal(tooMuch.status, 400, tooMuch.text);
    assert.match(tooMuch.body.detail, /allows on .*: 50/);
    const earlier = await ok('PUT', `/api/v1/models/c_payment/${proposed.id}`, { DateTrx: day(3) });
    assert.equal(earlier.DiscountAmt, 50, 'a new date proposes the discount of that date');
    const later = await ok('PUT', `/api/v1/models/c_payment/${proposed.id}`, { DateTrx: day(11) });
    assert.equal(later.DiscountAmt, 0, 'one day after the discount days the discount of the new date replaces it');
    const refused = await call('PUT', `/api/v1/models/c_payment/${proposed.id}`, { DiscountAmt: 50 });
    assert.equal(refused.status, 400, refused.text);
    assert.equal((await ok('GET', `/api/v1/models/c_payment/${proposed.id}`)).DiscountAmt, 0, 'unchanged');
  });

  it('the least privileged role gets the same proposal and refusal', async () => {
    const inv = await invoice();
    const late = await call('POST', '/api/v1/models/c_payment', { C_Invoice_ID: inv.id, PayAmt: 50, DiscountAmt: 50, DateTrx: day(22) }, fx.ws);
    assert.equal(late.status, 400, late.text);
    const proposed = await call('POST', '/api/v1/models/c_payment', { C_Invoice_ID: inv.id, DateTrx: day(1) }, fx.ws);
    assert.equal(proposed.status, 201, proposed.text);
    assert.equal(proposed.body.DiscountAmt, 50);
  });
});
