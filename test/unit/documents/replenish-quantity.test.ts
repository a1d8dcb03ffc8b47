import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { quantityToOrder, type ReplenishLevels } from '../../../src/documents/replenish/replenish-quantity.js';

const levels = (o: Partial<ReplenishLevels>): ReplenishLevels => ({ replenishType: '1', levelMin: 0, levelMax: 0, onHand: 0, reserved: 0, ordered: 0, orderMin: null, orderPack: null, ...o });

describe('the quantity the replenish report proposes', () => {
  it('reorders below the minimum up to the maximum, counting reserved and ordered', () => {
    assert.equal(quantityToOrder(levels({ levelMin: 20, levelMax: 50, onHand: 12, reserved: 3, ordered: 4 })), 37);
    assert.equal(quantityToOrder(levels({ levelMin: 20, levelMax: 50, onHand: 20 })), 30, 'at the minimum reorders');
    assert.equal(quantityToOrder(levels({ levelMin: 20, levelMax: 50, onHand: 21 })), 0, 'above the minimum nothing');
    assert.equal(quantityToOrder(levels({ levelMin: 20, levelMax: 50, onHand: 10, ordered: 15 })), 0, 'what is ordered already counts');
  });

  it('maintains the maximum whatever the minimum; manual and custom levels order nothing', () => {
    assert.equal(quantityToOrder(levels({ replenishType: '2', levelMin: 5, levelMax: 30, onHand: 25, reserved: 2 })), 7);
    assert.equal(quantityToOrder(levels({ replenishType: '2', levelMax: 30, onHand: 40 })), 0, 'above the maximum nothing');
    assert.equal(quantityToOrder(levels({ replenishType: '0', levelMin: 20, levelMax: 50 })), 0);
    assert.equal(quantityToOrder(levels({ replenishType: '9', levelMin: 20, levelMax: 50 })), 0);
  });

  it('raises to the vendor minimum, then to whole packs; a maximum below the minimum counts as the minimum', () => {
    assert.equal(quantityToOrder(levels({ replenishType: '2', levelMax: 8, orderMin: 25 })), 25);
    assert.equal(quantityToOrder(levels({ replenishType: '2', levelMax: 37, orderMin: 10, orderPack: 5 })), 40);
    assert.equal(quantityToOrder(levels({ replenishType: '2', levelMax: 7, orderMin: 10, orderPack: 4 })), 12, 'the minimum 10 up to packs of 4');
    assert.equal(quantityToOrder(levels({ replenishType: '2', levelMin: 15, levelMax: 10, orderPack: 4 })), 16);
    assert.equal(quantityToOrder(levels({ replenishType: '2', levelMax: 9, orderMin: 0, orderPack: -2 })), 9, 'a minimum or pack below 1 counts as 1');
  });

  it('rounds decimal quantities up to whole packs', () => {
    assert.equal(quantityToOrder(levels({ replenishType: '2', levelMax: 1.3, onHand: 0.1 })), 2, '1.2 up to a whole pack of 1, binary fractions aside');
    assert.equal(quantityToOrder(levels({ replenishType: '2', levelMax: 1.3, onHand: 0.6 })), 1, '0.7 up to a whole pack');
    assert.equal(quantityToOrder(levels({ replenishType: '2', levelMax: 1.3, onHand: 1.3 })), 0, 'at the maximum nothing');
    assert.equal(quantityToOrder(levels({ replenishType: '2', levelMax: 2.5, orderPack: 1 })), 3, '2.5 up to whole packs of 1');
  });
});
