import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dictionaryCodeKey, readDictionaryFile, writeDictionaryFile } from '../../../src/dictionary/file-cache.js';
import { projectRoot } from '../../../src/paths.js';
import { fixtureDictionary } from '../records/fixture-dictionary.js';

const stamp = '6695f91c-0c3e-49b4-8fdf-2fca89417c59';
const code = 'code-of-this-build';
const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-dict-'));

describe('built dictionaries kept in files', () => {
  it('reads back the same dictionary, its shared objects shared again, under its own stamp and code only', () => {
    const dir = tempDir();
    try {
      const built = fixtureDictionary();
      writeDictionaryFile(dir, stamp, code, built);
      const kept = readDictionaryFile(dir, stamp, code);
      assert.ok(kept);
      assert.deepStrictEqual(kept, built);
      const partner = kept.byName.get('c_bpartner')!;
      assert.equal(kept.byId.get(291), partner, 'the table found by id is the one found by name');
      assert.equal(kept.tables.find((t) => t.id === 291), partner);
      assert.equal(partner.byName.get('name'), partner.columns.find((c) => c.dbName === 'name'), "a table's column found by name is one of its columns");
      assert.equal(readDictionaryFile(dir, '00000000-0000-0000-0000-000000000000', code), null);
      assert.equal(readDictionaryFile(dir, stamp, 'code-of-another-build'), null, 'another build of the code builds its own');
      // A file renamed to another stamp does not pass for it.
      fs.copyFileSync(path.join(dir, `dictionary-${stamp}.v8`), path.join(dir, 'dictionary-11111111-1111-1111-1111-111111111111.v8'));
      assert.equal(readDictionaryFile(dir, '11111111-1111-1111-1111-111111111111', code), null);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ignores unreadable files, files of another shape and stamps that are not UUIDs', () => {
    const dir = tempDir();
    try {
      fs.writeFileSync(path.join(dir, `dictionary-${stamp}.v8`), 'not serialized');
      assert.equal(readDictionaryFile(dir, stamp, code), null);
      writeDictionaryFile(dir, stamp, code, { tables: 'none' } as never);
      assert.equal(readDictionaryFile(dir, stamp, code), null);
      assert.equal(readDictionaryFile(dir, '../../etc/passwd', code), null);
      writeDictionaryFile(dir, '../x', code, fixtureDictionary());
      assert.deepEqual(fs.readdirSync(dir), [`dictionary-${stamp}.v8`]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is on disk when the write returns, and removes temporary files a stopped process left an hour ago', () => {
    const dir = tempDir();
    try {
      const left = path.join(dir, `dictionary-${stamp}.v8.12345.tmp`);
      const fresh = path.join(dir, `dictionary-${stamp}.v8.23456.tmp`);
      fs.writeFileSync(left, '{');
      fs.writeFileSync(fresh, '{');
      const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
      fs.utimesSync(left, twoHoursAgo, twoHoursAgo);
      writeDictionaryFile(dir, stamp, code, fixtureDictionary());
      assert.ok(readDictionaryFile(dir, stamp, code));
      assert.deepEqual(fs.readdirSync(dir).sort(), [`dictionary-${stamp}.v8`, `dictionary-${stamp}.v8.23456.tmp`]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("names the code by the dictionary folder's compiled modules, which import nothing from outside it", () => {
    const key = dictionaryCodeKey();
    assert.match(key ?? '', /^[0-9a-f]{32}$/);
    assert.equal(dictionaryCodeKey(), key);
    // What builds a dictionary must stay inside the folder the key is taken over (type-only imports aside).
    const folder = path.join(projectRoot, 'src', 'dictionary');
    for (const name of ['build.ts', 'display-type.ts', 'load.ts', 'delimited-rows.ts', 'model.ts']) {
      const text = fs.readFileSync(path.join(folder, name), 'utf8');
      for (const m of text.matchAll(/^import (?!type )[^;]*from '([^']+)'/gm)) {
        assert.ok(m[1]!.startsWith('./'), `${name} imports ${m[1]} at run time, outside src/dictionary`);
      }
    }
  });
});
