import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { passwordViolations } from '../../../src/auth/password-policy.js';

const owner = { userName: 'GardenAdmin', email: 'admin@gardenworld.com' };

describe('password policy', () => {
  it('accepts a long password mixing letters and digits', () => {
    assert.deepEqual(passwordViolations('Tulips2026', owner), []);
    assert.deepEqual(passwordViolations('correct horse battery staple', owner), []);
  });

  it('requires the minimum length, counted in characters', () => {
    assert.match(passwordViolations('ab1', owner).join(' '), /at least 8 characters/);
    assert.deepEqual(passwordViolations('äöü1äöü1', owner), []);
    assert.match(passwordViolations('Tulips2026', owner, { minLength: 12 }).join(' '), /at least 12/);
  });

  it('requires two kinds of characters', () => {
    assert.match(passwordViolations('onlyletters', owner).join(' '), /two kinds/);
    assert.match(passwordViolations('1234567890', owner).join(' '), /two kinds/);
    assert.deepEqual(passwordViolations('letters-and-signs', owner), []);
  });

  it('refuses blank passwords, the user name and the e-mail address', () => {
    assert.match(passwordViolations('          ', owner).join(' '), /blank/);
    assert.match(passwordViolations('gardenadmin', { userName: 'GardenAdmin', email: null }).join(' '), /user name/);
    assert.match(passwordViolations('ADMIN@gardenworld.com', owner).join(' '), /e-mail/);
  });

  it('refuses passwords beyond the maximum length', () => {
    assert.match(passwordViolations(`a1${'x'.repeat(2000)}`, owner).join(' '), /at most 1024/);
  });
});
