import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readSourceFile, writeSourceFile } from '../../../src/dictionary/file-cache.js';
import type { DictionarySource } from '../../../src/dictionary/load.js';

const stamp = '6695f91c-0c3e-49b4-8fdf-2fca89417c59';
const source = (s: string | null): DictionarySource => ({
  stamp: s,
  tables: '[]',
  columns: { delimited: null },
  references: '[]',
  refLists: '[]',
  refTables: '[]',
  valRules: '[]',
  tableIndexes: '[]',
  indexColumns: '[]',
});

describe('dictionary sources kept in files', () => {
  it('reads back a source only under its own stamp', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-dict-'));
    try {
      writeSourceFile(dir, source(stamp));
      assert.deepEqual(readSourceFile(dir, stamp), source(stamp));
      assert.equal(readSourceFile(dir, '00000000-0000-0000-0000-000000000000'), null);
      // A file renamed to another stamp does not pass for it.
      fs.copyFileSync(path.join(dir, `dictionary-${stamp}.json`), path.join(dir, 'dictionary-11111111-1111-1111-1111-111111111111.json'));
      assert.equal(readSourceFile(dir, '11111111-1111-1111-1111-111111111111'), null);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ignores unreadable files and stamps that are not UUIDs, and writes nothing without a stamp', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-dict-'));
    try {
      fs.writeFileSync(path.join(dir, `dictionary-${stamp}.json`), '{"stamp":');
      assert.equal(readSourceFile(dir, stamp), null);
      assert.equal(readSourceFile(dir, '../../etc/passwd'), null);
      writeSourceFile(dir, source(null));
      assert.deepEqual(fs.readdirSync(dir), [`dictionary-${stamp}.json`]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is on disk when the write returns, and removes temporary files a stopped process left an hour ago', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-dict-'));
    try {
      const left = path.join(dir, `dictionary-${stamp}.json.12345.tmp`);
      const fresh = path.join(dir, `dictionary-${stamp}.json.23456.tmp`);
      fs.writeFileSync(left, '{');
      fs.writeFileSync(fresh, '{');
      const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
      fs.utimesSync(left, twoHoursAgo, twoHoursAgo);
      writeSourceFile(dir, source(stamp));
      assert.deepEqual(readSourceFile(dir, stamp), source(stamp));
      assert.deepEqual(fs.readdirSync(dir).sort(), [`dictionary-${stamp}.json`, `dictionary-${stamp}.json.23456.tmp`]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
