/**
 * A zip without some of its entries, described by byte ranges of the old zip, so that the
 * entries kept are never read: the database copies the ranges, the service rewrites only the
 * central directory (each kept entry's offset moves back by the bytes removed before it).
 */
export interface ZipWithout {
  /** Ranges [start, end) of the old zip's bytes to keep, in order; together they are the kept entries. */
  kept: { start: number; end: number }[];
  /** Where the kept entries end in the new zip (where its central directory or a new entry goes). */
  cdOffset: number;
  /** Central directory records of the kept entries, with their new offsets. */
  centralDirectory: Buffer;
  count: number;
  removed: number;
}

interface DirectoryRecord {
  bytes: Buffer;
  name: string;
  localOffset: number;
}

/** The records of a central directory (already validated by readCentralDirectory). */
function records(cd: Buffer, names: string[]): DirectoryRecord[] {
  const out: DirectoryRecord[] = [];
  let p = 0;
  for (const name of names) {
    const length = 46 + cd.readUInt16LE(p + 28) + cd.readUInt16LE(p + 30) + cd.readUInt16LE(p + 32);
    out.push({ bytes: cd.subarray(p, p + length), name, localOffset: cd.readUInt32LE(p + 42) });
    p += length;
  }
  return out;
}

/**
 * The zip of `dir` without the entries `drop` names. An entry spans from its local header to
 * the next entry's (or the central directory), which takes a data descriptor along.
 */
export function zipWithout(dir: { cdOffset: number; centralDirectory: Buffer; entries: { name: string }[] }, drop: (name: string) => boolean): ZipWithout {
  const all = records(dir.centralDirectory, dir.entries.map((e) => e.name));
  const starts = [...new Set(all.map((r) => r.localOffset))].sort((a, b) => a - b);
  const endOf = (offset: number): number => starts.find((s) => s > offset) ?? dir.cdOffset;
  const gone = all.filter((r) => drop(r.name)).map((r) => ({ start: r.localOffset, end: endOf(r.localOffset) }));
  gone.sort((a, b) => a.start - b.start);

  const kept: { start: number; end: number }[] = [];
  let at = 0;
  for (const g of gone) {
    if (g.start > at) kept.push({ start: at, end: g.start });
    at = Math.max(at, g.end);
  }
  if (dir.cdOffset > at) kept.push({ start: at, end: dir.cdOffset });

  const removedBefore = (offset: number): number => gone.filter((g) => g.end <= offset).reduce((n, g) => n + (g.end - g.start), 0);
  // A record that shares its data with a removed one (never written so, but possible) goes too.
  const stay = all.filter((r) => !gone.some((g) => r.localOffset >= g.start && r.localOffset < g.end));
  const centralDirectory = Buffer.concat(
    stay.map((r) => {
      const b = Buffer.from(r.bytes);
      b.writeUInt32LE(r.localOffset - removedBefore(r.localOffset), 42);
      return b;
    }),
  );
  return { kept, cdOffset: kept.reduce((n, k) => n + (k.end - k.start), 0), centralDirectory, count: stay.length, removed: all.length - stay.length };
}
