import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { countFromPage } from '../../../src/records/read/reader.js';

describe('countFromPage', () => {
  it('needs a count when the page is full', () => {
    assert.equal(countFromPage(50, 50, 0), null);
    assert.equal(countFromPage(50, 50, 100), null);
  });
  it('tells the total from a page that is not full', () => {
    assert.equal(countFromPage(0, 50, 0), 0);
    assert.equal(countFromPage(7, 50, 0), 7);
    assert.equal(countFromPage(7, 50, 100), 107);
  });
  it('needs a count for an empty page past the end', () => {
    assert.equal(countFromPage(0, 50, 100), null);
  });
});
