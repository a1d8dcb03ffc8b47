import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toNumber } from '../../../src/documents/decimal.js';
import { appliesToLines, breakApplies, discountedPrice, schemaDiscount, type DiscountBreak, type DiscountSchema } from '../../../src/documents/pricing/discount-schema.js';
import { priceOfDiscount } from '../../../src/documents/pricing/line-price.js';
import { creditStatus } from '../../../src/documents/credit/credit-status.js';

const brk = (b: Partial<DiscountBreak>): DiscountBreak => ({ breakValue: '0', breakDiscount: '0', fixedPrice: null, productId: null, categoryId: null, bpartnerFlat: false, ...b });
const schema = (s: Partial<DiscountSchema>): DiscountSchema => ({ id: 1, discountType: 'B', cumulativeLevel: 'L', quantityBased: true, bpartnerFlat: false, flatDiscount: '0', breaks: [], ...s });

describe('discount schemas', () => {
  it('a break applies when reached and for its product, its category or everything', () => {
    assert.equal(breakApplies(brk({ breakValue: '10' }), 9, 1, 5), false);
    assert.equal(breakApplies(brk({ breakValue: '10' }), 10, 1, 5), true);
    assert.equal(breakApplies(brk({ breakValue: '1', productId: 2 }), 5, 1, 5), false);
    assert.equal(breakApplies(brk({ breakValue: '1', productId: 1 }), 5, 1, 5), true);
    assert.equal(breakApplies(brk({ breakValue: '1', categoryId: 5 }), 5, 1, 5), true);
    assert.equal(breakApplies(brk({ breakValue: '1', categoryId: 6 }), 5, 1, 5), false);
  });

  it('the first applicable break by order gives its discount, or the partner flat discount; flat schemas their own or the partner one', () => {
    const s = schema({ breaks: [brk({ breakValue: '50', breakDiscount: '10' }), brk({ breakValue: '10', breakDiscount: '5' }), brk({ breakValue: '1', bpartnerFlat: true })] });
    assert.equal(schemaDiscount(s, 60, 23, 1, null, 3), '10');
    assert.equal(schemaDiscount(s, 12, 23, 1, null, 3), '5');
    assert.equal(schemaDiscount(s, 2, 23, 1, null, 3), 3);
    assert.equal(schemaDiscount(s, 0, 23, 1, null, 3), 0);
    assert.equal(schemaDiscount(schema({ discountType: 'F', flatDiscount: '4' }), 1, 1, 1, null, 3), '4');
    assert.equal(schemaDiscount(schema({ discountType: 'F', bpartnerFlat: true, flatDiscount: '4' }), 1, 1, 1, null, 3), 3);
    assert.equal(schemaDiscount(schema({ discountType: 'P' }), 1, 1, 1, null, 3), 0);
    assert.equal(schemaDiscount(schema({ quantityBased: false, breaks: [brk({ breakValue: '100', breakDiscount: '4' })] }), 5, 19.99, 1, null, 0), 0, '99.95 is under 100');
  });

  it('prices with the discount factor at 6 places, a fixed price without discount, and applies breaks to lines only at level L', () => {
    assert.equal(toNumber(discountedPrice(schema({ discountType: 'F', flatDiscount: '33.3333333' }), 1, 100, 1, null, 0)), 66.6667);
    assert.equal(discountedPrice(schema({ breaks: [brk({ breakValue: '5', fixedPrice: '21' })] }), 5, 23, 1, null, 0), '21');
    assert.equal(discountedPrice(schema({ breaks: [brk({ breakValue: '5', fixedPrice: '21' })] }), 4, 23, 1, null, 0), 23);
    assert.equal(discountedPrice(schema({ discountType: 'F', flatDiscount: '10' }), 1, 0, 1, null, 0), 0, 'a zero price stays');
    assert.equal(appliesToLines(schema({ cumulativeLevel: null })), false);
    assert.equal(appliesToLines(schema({ discountType: 'F', cumulativeLevel: null })), true);
  });

  it('an entered discount prices from the list price at the price precision', () => {
    assert.equal(toNumber(priceOfDiscount(25, 10, 2)), 22.5);
    assert.equal(toNumber(priceOfDiscount(19.99, 12.5, 2)), 17.49);
    assert.equal(toNumber(priceOfDiscount(19.99, 12.5, 4)), 17.4913);
  });
});

describe('credit status', () => {
  const facts = { status: 'O', limit: '2000', openBalance: '1000', watchPercent: '0' };
  it('is hold over the limit, watch over the watch share of it (90% unless the group says), else OK', () => {
    assert.equal(creditStatus(facts), 'O');
    assert.equal(creditStatus({ ...facts, openBalance: '1850' }), 'W');
    assert.equal(creditStatus({ ...facts, openBalance: '1850', watchPercent: '95' }), 'O');
    assert.equal(creditStatus({ ...facts, openBalance: '2000.01' }), 'H');
    assert.equal(creditStatus(facts, '1000'), 'W', 'the order reaching the limit');
    assert.equal(creditStatus(facts, '1000.01'), 'H');
  });
  it('keeps no check, stop and any status without a limit', () => {
    assert.equal(creditStatus({ ...facts, status: 'X', openBalance: '9000' }), 'X');
    assert.equal(creditStatus({ ...facts, status: 'S', openBalance: '0' }), 'S');
    assert.equal(creditStatus({ ...facts, limit: '0', openBalance: '9000' }), 'O');
  });
});
