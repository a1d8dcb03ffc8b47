import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { discountPercent, documentTotals, isUnderLimit, lineNetAmount, nextLineNo, taxAmount, type TaxDefinition } from '../../../src/documents/document-math.js';

const tax = (id: number, rate: number, more: Partial<TaxDefinition> = {}): TaxDefinition => ({ id, rate, isSummary: false, isDocumentLevel: false, parentId: null, ...more });

describe('line amounts', () => {
  it('LineNetAmt is price × quantity rounded HALF_UP to the currency precision', () => {
    assert.equal(lineNetAmount(23, 1, 2), 23);
    assert.equal(lineNetAmount('0.335', 3, 2), 1.01, '1.005 rounds up');
    assert.equal(lineNetAmount(1.005, 1, 2), 1.01);
    assert.equal(lineNetAmount(19.99, 3, 2), 59.97);
    assert.equal(lineNetAmount(12.5, 3, 0), 38, 'a currency without decimals');
    assert.equal(lineNetAmount(-2.5, 1, 0), -3);
  });

  it('discount of the actual against the list price, two decimals', () => {
    assert.equal(discountPercent(25, 23), 8);
    assert.equal(discountPercent(22, 20), 9.09);
    assert.equal(discountPercent(0, 20), 0, 'no list price, no discount');
  });

  it('price limit and line numbers', () => {
    assert.equal(isUnderLimit(19, 20), true);
    assert.equal(isUnderLimit(20, 20), false);
    assert.equal(isUnderLimit(5, 0), false, 'a zero limit is none');
    assert.equal(nextLineNo(0), 10);
    assert.equal(nextLineNo(20), 30);
    assert.equal(nextLineNo(15), 20);
  });
});

describe('tax of an amount', () => {
  it('adds the rate, rounded HALF_UP', () => {
    assert.equal(taxAmount(23, 6, false, 2), 1.38);
    assert.equal(taxAmount(1.75, 6, false, 2), 0.11, '0.105 rounds up');
    assert.equal(taxAmount(100, 0, false, 2), 0);
  });

  it('takes the tax out of a tax-included amount', () => {
    assert.equal(taxAmount(106, 6, true, 2), 6);
    assert.equal(taxAmount(10, 6, true, 2), 0.57, '10 − 10/1.06 = 0.566…');
    assert.equal(taxAmount(112, 12, true, 2), 12);
  });
});

describe('document taxes and totals', () => {
  it('one row per tax, tax summed per line (not on the base)', () => {
    const t = documentTotals(
      [
        { taxId: 105, net: 1.05 },
        { taxId: 105, net: 1.05 },
        { taxId: 104, net: 23 },
      ],
      [tax(104, 0), tax(105, 6)],
      false,
      2,
    );
    assert.deepEqual(t.taxes, [
      { taxId: 104, base: 23, amount: 0 },
      { taxId: 105, base: 2.1, amount: 0.12 },
    ]);
    assert.equal(t.totalLines, 25.1);
    assert.equal(t.grandTotal, 25.22, 'per line 0.06 + 0.06; on the base it would be 0.13');
  });

  it('counts lines that share a tax and an amount', () => {
    const t = documentTotals([{ taxId: 105, net: 1.05, count: 2 }], [tax(105, 6)], false, 2);
    assert.deepEqual(t.taxes, [{ taxId: 105, base: 2.1, amount: 0.12 }]);
  });

  it('a document-level tax is computed once on the base', () => {
    const t = documentTotals(
      [
        { taxId: 200, net: 1.05 },
        { taxId: 200, net: 1.05 },
      ],
      [tax(200, 6, { isDocumentLevel: true })],
      false,
      2,
    );
    assert.deepEqual(t.taxes, [{ taxId: 200, base: 2.1, amount: 0.13 }]);
    assert.equal(t.grandTotal, 2.23);
  });

  it('splits a summary tax into its child taxes on the summary base', () => {
    const taxes = [tax(108, 12, { isSummary: true }), tax(106, 5, { parentId: 108 }), tax(107, 7, { parentId: 108 })];
    const t = documentTotals([{ taxId: 108, net: 100 }], taxes, false, 2);
    assert.deepEqual(t.taxes, [
      { taxId: 106, base: 100, amount: 5 },
      { taxId: 107, base: 100, amount: 7 },
    ]);
    assert.equal(t.totalLines, 100);
    assert.equal(t.grandTotal, 112);
  });

  it('merges a child tax used directly and through its summary', () => {
    const taxes = [tax(108, 12, { isSummary: true }), tax(106, 5, { parentId: 108 }), tax(107, 7, { parentId: 108 })];
    const t = documentTotals(
      [
        { taxId: 108, net: 100 },
        { taxId: 106, net: 10 },
      ],
      taxes,
      false,
      2,
    );
    assert.deepEqual(t.taxes, [
      { taxId: 106, base: 110, amount: 5.5 },
      { taxId: 107, base: 100, amount: 7 },
    ]);
  });

  it('a summary tax without children stays as it is', () => {
    const t = documentTotals([{ taxId: 300, net: 50 }], [tax(300, 10, { isSummary: true })], false, 2);
    assert.deepEqual(t.taxes, [{ taxId: 300, base: 50, amount: 5 }]);
  });

  it('tax-included prices: the base excludes the tax, GrandTotal is TotalLines', () => {
    const t = documentTotals(
      [
        { taxId: 105, net: 106 },
        { taxId: 105, net: 10 },
      ],
      [tax(105, 6)],
      true,
      2,
    );
    assert.deepEqual(t.taxes, [{ taxId: 105, base: 109.43, amount: 6.57 }]);
    assert.equal(t.totalLines, 116);
    assert.equal(t.grandTotal, 116);
  });

  it('tax-included summary: children on the net base', () => {
    const taxes = [tax(108, 12, { isSummary: true }), tax(106, 5, { parentId: 108 }), tax(107, 7, { parentId: 108 })];
    const t = documentTotals([{ taxId: 108, net: 112 }], taxes, true, 2);
    assert.deepEqual(t.taxes, [
      { taxId: 106, base: 100, amount: 5 },
      { taxId: 107, base: 100, amount: 7 },
    ]);
    assert.equal(t.grandTotal, 112);
  });

  it('no lines: no tax rows, zero totals; lines without a tax count in TotalLines only', () => {
    assert.deepEqual(documentTotals([], [], false, 2), { taxes: [], totalLines: 0, grandTotal: 0 });
    const t = documentTotals([{ taxId: null, net: 5 }], [], false, 2);
    assert.deepEqual(t, { taxes: [], totalLines: 5, grandTotal: 5 });
  });

  it('an unknown tax counts as zero', () => {
    const t = documentTotals([{ taxId: 999, net: 5 }], [], false, 2);
    assert.deepEqual(t.taxes, [{ taxId: 999, base: 5, amount: 0 }]);
  });
});
