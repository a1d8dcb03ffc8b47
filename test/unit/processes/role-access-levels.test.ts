import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { accessLevelsOf } from '../../../src/processes/builtins/role-access-update.js';

describe('the access levels a role reaches (Role Access Update)', () => {
  it('follows the user level as the original does', () => {
    assert.deepEqual(accessLevelsOf('S  ', 0), { levels: ['4', '7', '6'], hideAllWindows: false });
    assert.deepEqual(accessLevelsOf(' C ', 11), { levels: ['7', '6', '3', '2'], hideAllWindows: false });
    assert.deepEqual(accessLevelsOf(' CO', 11), { levels: ['7', '6', '3', '2', '1'], hideAllWindows: false });
    assert.deepEqual(accessLevelsOf('  O', 11), { levels: ['3', '1', '7'], hideAllWindows: true });
  });

  it('reads a level without its trailing blanks, and an unknown one as organisation', () => {
    assert.deepEqual(accessLevelsOf(' C', 11).levels, ['7', '6', '3', '2']);
    assert.deepEqual(accessLevelsOf(null, 11), { levels: ['3', '1', '7'], hideAllWindows: true });
  });

  it('never gives a tenant role the System level, whatever its user level says', () => {
    assert.deepEqual(accessLevelsOf('S  ', 11).levels, ['7', '6']);
  });
});
