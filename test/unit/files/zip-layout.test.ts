import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { crc32, inflateRawSync } from 'node:zlib';
import { unzipSync, zipSync } from 'fflate';
import { appendStored, dataOffset, findEnd, readCentralDirectory } from '../../../src/attachments/zip-layout.js';

const directoryOf = (zip: Buffer) => {
  const end = findEnd(zip, zip.length);
  const centralDirectory = zip.subarray(end.cdOffset, end.cdOffset + end.cdSize);
  return { end, centralDirectory, entries: readCentralDirectory(centralDirectory, end.count) };
};

describe('zip layout', () => {
  const zip = Buffer.from(zipSync({ 'a.txt': new TextEncoder().encode('hello hello hello'), 'ü.bin': new Uint8Array([1, 2, 3]) }, { level: 6 }));

  it('finds the entries of a zip from its end, and where their data starts', () => {
    const { entries } = directoryOf(zip);
    assert.deepEqual(entries.map((e) => [e.name, e.size]), [['a.txt', 17], ['ü.bin', 3]]);
    for (const [e, want] of [[entries[0]!, 'hello hello hello'], [entries[1]!, '\u0001\u0002\u0003']] as const) {
      const at = dataOffset(e, zip.subarray(e.localOffset, e.localOffset + 30));
      const raw = zip.subarray(at, at + e.compressedSize);
      assert.equal((e.method === 8 ? inflateRawSync(raw) : raw).toString(), want);
    }
    assert.throws(() => findEnd(Buffer.from('not a zip at all, just some text'), 32), /not a zip/);
  });

  it('appends a stored entry that zip readers then find beside the old ones', () => {
    const { end, centralDirectory, entries } = directoryOf(zip);
    const data = Buffer.from('a new file: ünïcode name and bytes');
    const { head, tail } = appendStored({ cdOffset: end.cdOffset, centralDirectory, count: entries.length }, { name: 'new é.txt', size: data.length, crc32: crc32(data), modified: new Date(2026, 0, 2, 3, 4, 6) });
    const grown = Buffer.concat([zip.subarray(0, end.cdOffset), head, data, tail]);
    const back = unzipSync(new Uint8Array(grown));
    assert.deepEqual(Object.keys(back), ['a.txt', 'ü.bin', 'new é.txt']);
    assert.equal(Buffer.from(back['new é.txt']!).toString(), data.toString());
    assert.equal(Buffer.from(back['a.txt']!).toString(), 'hello hello hello');
    // Into an empty attachment: the entry is the whole zip.
    const first = appendStored({ cdOffset: 0, centralDirectory: Buffer.alloc(0), count: 0 }, { name: 'x', size: 1, crc32: crc32(Buffer.from('x')), modified: new Date() });
    assert.deepEqual(Object.keys(unzipSync(new Uint8Array(Buffer.concat([first.head, Buffer.from('x'), first.tail])))), ['x']);
  });
});
