import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toText, type DecimalInput } from '../../../src/documents/decimal.js';
import { revaluationFacts } from '../../../src/documents/costadjust/revaluation-facts.js';

const shown = (v: DecimalInput | undefined) => (v === undefined ? undefined : toText(v));

describe('revaluation facts of a cost adjustment', () => {
  it('debits Product Asset for a rise and credits it for a fall, against Cost Adjustment, and leaves out lines without an amount', () => {
    const facts = revaluationFacts([
      { line_id: 1, m_product_id: 10, qty: '5', amt: '12.50' },
      { line_id: 2, m_product_id: 11, qty: '3', amt: '0' },
      { line_id: 3, m_product_id: 12, qty: '4', amt: '-8.4' },
    ]);
    assert.deepEqual(
      facts.map((f) => [f.account, f.lineId, f.productId, shown(f.dr), shown(f.cr), f.qty]),
      [
        ['p_asset_acct', 1, 10, '12.50', undefined, '5'],
        ['p_costadjustment_acct', 1, 10, undefined, '12.50', '5'],
        ['p_asset_acct', 3, 12, undefined, '8.4', '4'],
        ['p_costadjustment_acct', 3, 12, '8.4', undefined, '4'],
      ],
    );
  });
});
