import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { grantsBeyond } from '../../../src/access/security-rules.js';

const admin = { userlevel: ' CO', isaccessallorgs: 'N', isaccessadvanced: 'Y', isclientadministrator: 'Y', iscanexport: 'Y', iscanreport: 'Y', isshowacct: 'Y', iscanapproveowndoc: 'Y' };

describe('grantsBeyond: what a role would hand out that the caller lacks', () => {
  it('finds nothing for a role equal to or below the caller', () => {
    assert.deepEqual(grantsBeyond(admin, admin), []);
    assert.deepEqual(grantsBeyond({ ...admin, userlevel: '  O', iscanexport: 'N' }, admin), []);
  });
  it('names every flag and user level letter beyond the caller', () => {
    assert.deepEqual(grantsBeyond({ ...admin, isaccessallorgs: 'Y', userlevel: 'SCO' }, admin), ['isaccessallorgs', 'userlevel']);
    const plain = { ...admin, isaccessadvanced: 'N', isclientadministrator: 'N' };
    assert.deepEqual(grantsBeyond(admin, plain), ['isaccessadvanced', 'isclientadministrator']);
  });
  it('compares only the columns a change touches when told', () => {
    const target = { ...admin, isaccessallorgs: 'Y', isshowacct: 'Y' };
    const caller = { ...admin, isshowacct: 'N' };
    assert.deepEqual(grantsBeyond(target, caller, new Set(['isshowacct'])), ['isshowacct']);
    assert.deepEqual(grantsBeyond(target, caller, new Set(['description'])), []);
  });
  it('reads booleans and Y alike', () => {
    assert.deepEqual(grantsBeyond({ ...admin, isaccessallorgs: true }, admin), ['isaccessallorgs']);
  });
});
