import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';
import { amountText, localeOf, quantityText } from '../../../src/print/print-text.js';
import { addressLines } from '../../../src/print/address.js';
import { gardenWorldLogo } from '../../../src/print/demo-logo.js';

describe('printed numbers', () => {
  it('writes amounts at the currency precision with the grouping of the language', () => {
    const us = { locale: localeOf('en_US'), precision: 2 };
    assert.equal(amountText(1234567.891, us), '1,234,567.89');
    assert.equal(amountText(0.5, us), '0.50');
    assert.equal(amountText(-1500, us), '-1,500.00');
    assert.equal(amountText(-0, us), '0.00', 'no sign on zero');
    assert.equal(amountText(-0.001, us), '0.00', 'nor on what rounds to zero');
    assert.equal(amountText(1234567.5, { locale: 'en-US', precision: 0 }), '1,234,568', 'a currency without decimals (JPY)');
    assert.equal(amountText(1234.5, { locale: 'en-US', precision: 3 }), '1,234.500', 'three decimals (KWD)');
    assert.equal(amountText(1234.5, { locale: localeOf('de_DE'), precision: 2 }), '1.234,50');
  });

  it('writes quantities with grouping and only the decimals they have', () => {
    assert.equal(quantityText(12000, { locale: 'en-US', precision: 2 }), '12,000');
    assert.equal(quantityText(2.125, { locale: 'en-US', precision: 2 }), '2.125');
  });

  it('takes an unknown language as en-US', () => {
    assert.equal(localeOf('xx_!!'), 'en-US');
    assert.equal(localeOf('fr_FR'), 'fr-FR');
  });
});

describe('address block', () => {
  const base = { address1: '100 Garden Center Road', address2: null, address3: null, address4: null, city: 'Hartford', postal: '06103', region: 'CT', country: 'United States' };
  it("lays out the city line by the country's display sequence", () => {
    assert.deepEqual(addressLines({ ...base, sequence: '@C@, @R@ @P@' }), ['100 Garden Center Road', 'Hartford, CT 06103', 'United States']);
    assert.deepEqual(addressLines({ ...base, region: null, country: 'Deutschland', city: 'Berlin', postal: '10115', sequence: '@P@ @C@' }), ['100 Garden Center Road', '10115 Berlin', 'Deutschland']);
  });
  it('leaves out empty parts and the separators they would leave', () => {
    assert.deepEqual(addressLines({ ...base, city: null, region: null, sequence: '@C@, @R@ @P@' }), ['100 Garden Center Road', '06103', 'United States']);
    assert.deepEqual(addressLines({ ...base, address1: null, city: null, region: null, postal: null, country: null, sequence: null }), []);
  });
});

describe('demo logo', () => {
  it('is a PNG of 240 by 96 pixels with green in it', () => {
    const png = gardenWorldLogo();
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.equal(png.readUInt32BE(16), 240);
    assert.equal(png.readUInt32BE(20), 96);
    const idat = png.indexOf('IDAT');
    const raw = inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)));
    assert.equal(raw.length, (240 * 3 + 1) * 96);
    const centre = 48 * (240 * 3 + 1) + 1 + 10 * 3;
    assert.deepEqual([...raw.subarray(centre, centre + 3)], [46, 125, 50], 'the circle is green');
  });
});
