import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { interestOf } from '../../../src/documents/dunning/run-create.js';
import { toText } from '../../../src/documents/decimal.js';

describe('interest of an overdue item', () => {
  it('is the yearly percentage of the open amount for the days due, to the cent, at a level that charges it', () => {
    assert.equal(toText(interestOf({ chargeinterest: 'Y', interestpercent: '36.5' }, { openamt: '200.00', daysdue: 20 })), '4.00');
    assert.equal(toText(interestOf({ chargeinterest: 'Y', interestpercent: '10' }, { openamt: '123.45', daysdue: 45 })), '1.52');
  });
  it('is nothing at a level without interest, or for an item not overdue', () => {
    assert.equal(toText(interestOf({ chargeinterest: 'N', interestpercent: '10' }, { openamt: '100', daysdue: 30 })), '0');
    assert.equal(toText(interestOf({ chargeinterest: 'Y', interestpercent: '10' }, { openamt: '100', daysdue: 0 })), '0');
  });
});
