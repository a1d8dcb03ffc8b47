import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { crc32 } from 'node:zlib';
import { Unzip, UnzipInflate, UnzipPassThrough, unzipSync, zipSync } from 'fflate';
import { appendStored, findEnd, readCentralDirectory } from '../../../src/attachments/zip-layout.js';
import { zipWithout } from '../../../src/uploads/zip-entry-removal.js';

const text = (s: string) => new TextEncoder().encode(s);
const directoryOf = (zip: Buffer) => {
  const end = findEnd(zip, zip.length);
  const centralDirectory = zip.subarray(end.cdOffset, end.cdOffset + end.cdSize);
  return { cdOffset: end.cdOffset, centralDirectory, entries: readCentralDirectory(centralDirectory, end.count) };
};

/** The names a reader that walks the local headers from the start meets (as java.util.zip.ZipInputStream does). */
function namesInOrder(zip: Buffer): string[] {
  const names: string[] = [];
  const reader = new Unzip((file) => {
    names.push(file.name);
    file.ondata = () => {};
    file.start();
  });
  reader.register(UnzipInflate);
  reader.register(UnzipPassThrough);
  reader.push(new Uint8Array(zip), true);
  return names;
}

/** The zip with `name` replaced by `data` appended: kept ranges, new header, data, new directory. */
function replaced(zip: Buffer, name: string, data: Buffer): Buffer {
  const rest = zipWithout(directoryOf(zip), (n) => n === name);
  const { head, tail } = appendStored({ cdOffset: rest.cdOffset, centralDirectory: rest.centralDirectory, count: rest.count }, { name, size: data.length, crc32: crc32(data), modified: new Date() });
  return Buffer.concat([...rest.kept.map((k) => zip.subarray(k.start, k.end)), head, data, tail]);
}

describe('zip entry removal', () => {
  const zip = Buffer.from(zipSync({ 'a.txt': text('first first first'), 'b.png': text('old picture'), 'c.txt': text('third') }, { level: 6 }));

  it('drops an entry in the middle: the others keep their bytes under new offsets', () => {
    const rest = zipWithout(directoryOf(zip), (n) => n === 'b.png');
    assert.equal(rest.removed, 1);
    assert.equal(rest.count, 2);
    assert.equal(rest.kept.length, 2);
    const grown = replaced(zip, 'b.png', Buffer.from('new picture'));
    const back = unzipSync(new Uint8Array(grown));
    assert.deepEqual(Object.keys(back), ['a.txt', 'c.txt', 'b.png']);
    assert.equal(Buffer.from(back['b.png']!).toString(), 'new picture');
    assert.equal(Buffer.from(back['a.txt']!).toString(), 'first first first');
    assert.equal(Buffer.from(back['c.txt']!).toString(), 'third');
    assert.deepEqual(namesInOrder(grown), ['a.txt', 'c.txt', 'b.png'], 'no stale entry for a reader of local headers');
    assert.ok(grown.length < zip.length + 'new picture'.length + 100);
  });

  it('drops the first and the last entry, and leaves a zip without that name as it is', () => {
    for (const name of ['a.txt', 'c.txt']) {
      const grown = replaced(zip, name, Buffer.from('again'));
      assert.deepEqual(namesInOrder(grown).sort(), ['a.txt', 'b.png', 'c.txt']);
      assert.equal(Buffer.from(unzipSync(new Uint8Array(grown))[name]!).toString(), 'again');
    }
    const none = zipWithout(directoryOf(zip), (n) => n === 'other');
    assert.deepEqual([none.removed, none.count, none.kept, none.cdOffset], [0, 3, [{ start: 0, end: directoryOf(zip).cdOffset }], directoryOf(zip).cdOffset]);
    assert.deepEqual(none.centralDirectory, directoryOf(zip).centralDirectory);
    const empty = zipWithout({ cdOffset: 0, centralDirectory: Buffer.alloc(0), entries: [] }, () => true);
    assert.deepEqual([empty.kept, empty.cdOffset, empty.count], [[], 0, 0]);
  });
});
