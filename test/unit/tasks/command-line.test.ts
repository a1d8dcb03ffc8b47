import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { splitCommand } from '../../../src/tasks/command-line.js';

describe('task command words', () => {
  it('splits on whitespace and keeps quoted spaces, with no shell meaning', () => {
    assert.deepEqual(splitCommand('java -version'), { file: 'java', args: ['-version'] });
    assert.deepEqual(splitCommand(`  node -e "console.log('a b')"  `), { file: 'node', args: ['-e', "console.log('a b')"] });
    assert.deepEqual(splitCommand('echo hi; rm -rf $HOME | cat'), { file: 'echo', args: ['hi;', 'rm', '-rf', '$HOME', '|', 'cat'] });
    assert.deepEqual(splitCommand("a '' b"), { file: 'a', args: ['', 'b'] });
  });
  it('refuses an empty command or an open quote', () => {
    assert.equal(splitCommand('   '), null);
    assert.equal(splitCommand('echo "open'), null);
  });
});
