import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatMessage } from '../../../src/statuslines/message-format.js';

describe('status line messages', () => {
  it('fills placeholders as MessageFormat does', () => {
    assert.equal(formatMessage('{0} completed sales orders, total {1}', [3, 1234.5]), '3 completed sales orders, total 1,234.5');
    assert.equal(formatMessage('Order Count\n Top Year ({0}): {1} \n Current Year: {2}', ['2026', 4, 3]), 'Order Count\n Top Year (2026): 4 \n Current Year: 3');
    assert.equal(formatMessage('{0,number,#,##0.00} / {0,number,integer} / {1,number,percent}', [1234.567, 0.25]), '1,234.57 / 1,235 / 25%');
    assert.equal(formatMessage("It''s '{0}' {0}", [1]), "It's {0} 1");
    assert.equal(formatMessage('{0} and {1}', [null]), 'null and null');
    assert.equal(formatMessage('{0,number,0.000}', [2]), '2.000');
    assert.equal(formatMessage('broken {x', [1]), 'broken {x');
    assert.equal(formatMessage('{0}', [0.12345]), '0.123');
  });
});
