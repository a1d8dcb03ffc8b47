import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { countMode, countPreference, estimatedCount } from '../../../src/records/query/count-preference.js';
import { assertBadRequest } from './assert-bad-request.js';

describe('count preference', () => {
  it('reads count=exact|estimated from Prefer headers and ignores the rest', () => {
    assert.equal(countPreference(undefined), undefined);
    assert.equal(countPreference('count=estimated'), 'estimated');
    assert.equal(countPreference('return=minimal, Count = "Exact"'), 'exact');
    assert.equal(countPreference(['return=minimal', 'count=estimated']), 'estimated');
    assert.equal(countPreference('count=planned'), undefined);
    assert.equal(countPreference('counts=estimated'), undefined);
  });

  it('lets $rowcount win over the header; exact by default', () => {
    assert.deepEqual(countMode(undefined, undefined), { mode: 'exact', preferred: false });
    assert.deepEqual(countMode(undefined, 'count=estimated'), { mode: 'estimated', preferred: true });
    assert.deepEqual(countMode(' Estimated ', 'count=exact'), { mode: 'estimated', preferred: false });
    assertBadRequest(() => countMode('about', undefined), 'Invalid $rowcount', /'about'/);
  });

  it('estimates only above the threshold, never below the rows seen', () => {
    assert.equal(estimatedCount(500, 1000, 0), null);
    assert.equal(estimatedCount(1000, 1000, 0), null);
    assert.equal(estimatedCount(31234.4, 10000, 0), 31234);
    assert.equal(estimatedCount(20000, 10000, 25000), 25000);
    assert.equal(estimatedCount(NaN, 0, 5), null);
  });
});
