/**
 * The byte layout of a zip file (PKWARE APPNOTE), enough to find entries from the central
 * directory and to append a stored entry without reading or rewriting the other entries' bytes.
 * Pure functions over small buffers: the entries' data never passes through here.
 */
const EOCD_SIG = 0x06054b50;
const CENTRAL_SIG = 0x02014b50;
const LOCAL_SIG = 0x04034b50;
export const EOCD_SIZE = 22;
export const LOCAL_HEADER_SIZE = 30;
/** The end record may be followed by a comment of at most 65535 bytes. */
export const MAX_TAIL = EOCD_SIZE + 0xffff;
/** Without zip64 records, sizes and offsets are 32-bit and entries number at most 65535. */
export const MAX_ZIP_BYTES = 0xffffffff;
export const MAX_ENTRIES = 0xffff;
const UTF8_NAMES = 0x0800;

export interface ZipDirectory {
  /** Where the central directory starts: the entries' local records lie before it. */
  cdOffset: number;
  cdSize: number;
  entries: ZipEntry[];
}

export interface ZipEntry {
  name: string;
  method: number;
  crc32: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/** The central directory's place from the end of a zip (`tail` = its last bytes, `total` = its size). */
export function findEnd(tail: Buffer, total: number): { cdOffset: number; cdSize: number; count: number } {
  for (let i = tail.length - EOCD_SIZE; i >= 0; i--) {
    if (tail.readUInt32LE(i) !== EOCD_SIG) continue;
    const count = tail.readUInt16LE(i + 10);
    const cdSize = tail.readUInt32LE(i + 12);
    const cdOffset = tail.readUInt32LE(i + 16);
    if (cdOffset + cdSize > total - (tail.length - i)) continue; // a signature inside a comment
    return { cdOffset, cdSize, count };
  }
  throw new Error('not a zip file (no end of central directory)');
}

/** The entries listed by a central directory's bytes. */
export function readCentralDirectory(cd: Buffer, count: number): ZipEntry[] {
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > cd.length || cd.readUInt32LE(p) !== CENTRAL_SIG) throw new Error('broken central directory');
    const flags = cd.readUInt16LE(p + 8);
    const nameLength = cd.readUInt16LE(p + 28);
    const extraLength = cd.readUInt16LE(p + 30);
    const commentLength = cd.readUInt16LE(p + 32);
    const nameBytes = cd.subarray(p + 46, p + 46 + nameLength);
    entries.push({
      name: nameBytes.toString(flags & UTF8_NAMES ? 'utf8' : 'latin1'),
      method: cd.readUInt16LE(p + 10),
      crc32: cd.readUInt32LE(p + 16),
      compressedSize: cd.readUInt32LE(p + 20),
      size: cd.readUInt32LE(p + 24),
      localOffset: cd.readUInt32LE(p + 42),
    });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Where an entry's data starts, from the first 30 bytes of its local header. */
export function dataOffset(entry: ZipEntry, localHeader: Buffer): number {
  if (localHeader.length < LOCAL_HEADER_SIZE || localHeader.readUInt32LE(0) !== LOCAL_SIG) throw new Error('broken local header');
  return entry.localOffset + LOCAL_HEADER_SIZE + localHeader.readUInt16LE(26) + localHeader.readUInt16LE(28);
}

/** MS-DOS time and date of a moment (local fields, as zip tools write them). */
function dosDateTime(d: Date): { time: number; date: number } {
  const year = Math.max(1980, d.getFullYear());
  return { time: (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1), date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate() };
}

/**
 * The bytes that append one stored (uncompressed) entry to a zip whose entries end at
 * `cdOffset`: `head` goes right before the entry's data, `tail` (the old central directory, the
 * new entry's record and a new end record) right after it.
 */
export function appendStored(
  old: { cdOffset: number; centralDirectory: Buffer; count: number },
  entry: { name: string; size: number; crc32: number; modified: Date },
): { head: Buffer; tail: Buffer } {
  if (old.count + 1 > MAX_ENTRIES) throw new Error('too many zip entries');
  const name = Buffer.from(entry.name, 'utf8');
  const { time, date } = dosDateTime(entry.modified);
  // Local header and central record share one run of fields: flags, method (stored), time,
  // date, CRC-32, both sizes and the name's length.
  const fields = (b: Buffer, at: number): void => {
    b.writeUInt16LE(UTF8_NAMES, at);
    b.writeUInt16LE(0, at + 2);
    b.writeUInt16LE(time, at + 4);
    b.writeUInt16LE(date, at + 6);
    b.writeUInt32LE(entry.crc32 >>> 0, at + 8);
    b.writeUInt32LE(entry.size, at + 12);
    b.writeUInt32LE(entry.size, at + 16);
    b.writeUInt16LE(name.length, at + 20);
  };
  const head = Buffer.alloc(LOCAL_HEADER_SIZE + name.length);
  head.writeUInt32LE(LOCAL_SIG, 0);
  head.writeUInt16LE(20, 4);
  fields(head, 6);
  name.copy(head, LOCAL_HEADER_SIZE);

  const localOffset = old.cdOffset;
  const cdOffset = localOffset + head.length + entry.size;
  if (cdOffset + old.centralDirectory.length + 46 + name.length + EOCD_SIZE > MAX_ZIP_BYTES) throw new Error('the zip would exceed 4 GiB');
  const record = Buffer.alloc(46 + name.length);
  record.writeUInt32LE(CENTRAL_SIG, 0);
  record.writeUInt16LE(20, 4);
  record.writeUInt16LE(20, 6);
  fields(record, 8);
  record.writeUInt32LE(localOffset, 42);
  name.copy(record, 46);

  const cdSize = old.centralDirectory.length + record.length;
  const end = Buffer.alloc(EOCD_SIZE);
  end.writeUInt32LE(EOCD_SIG, 0);
  end.writeUInt16LE(old.count + 1, 8);
  end.writeUInt16LE(old.count + 1, 10);
  end.writeUInt32LE(cdSize, 12);
  end.writeUInt32LE(cdOffset, 16);
  return { head, tail: Buffer.concat([old.centralDirectory, record, end]) };
}
