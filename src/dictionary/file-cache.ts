import fs from 'node:fs';
import path from 'node:path';
import type { DictionarySource } from './load.js';

/**
 * Dictionary sources kept in files under their stamp (see stamp.ts), so that a start on a
 * database whose dictionary has not changed reads a file instead of asking the database to
 * aggregate every dictionary table (the largest single cost of an embedded start). Equal stamps
 * mean equal rows, so a file is valid for any database that shows its stamp; a file that cannot be
 * read or does not match is ignored and the database asked.
 */
const PREFIX = 'dictionary-';
/** Files of other stamps are removed once this old: databases that changed long ago. */
const KEEP_MS = 7 * 24 * 3600_000;

const fileOf = (dir: string, stamp: string): string | null => (/^[0-9a-f-]{36}$/.test(stamp) ? path.join(dir, `${PREFIX}${stamp}.json`) : null);

export function readSourceFile(dir: string, stamp: string): DictionarySource | null {
  const file = fileOf(dir, stamp);
  if (!file) return null;
  try {
    const src = JSON.parse(fs.readFileSync(file, 'utf8')) as DictionarySource;
    return src && src.stamp === stamp && typeof src.tables === 'string' && src.columns && typeof src.indexColumns === 'string' ? src : null;
  } catch {
    return null;
  }
}

/**
 * Writes a source under its stamp (atomically: other processes may read it meanwhile); never throws.
 * Synchronous, a few milliseconds once per changed dictionary: written in the background, the file
 * was lost whenever the process stopped soon after its start, and every start then read the database.
 */
export function writeSourceFile(dir: string, src: DictionarySource): void {
  const file = src.stamp ? fileOf(dir, src.stamp) : null;
  if (!file) return;
  try {
    fs.mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(src));
    fs.renameSync(tmp, file);
    const now = Date.now();
    for (const name of fs.readdirSync(dir)) {
      if (!name.startsWith(PREFIX) || path.join(dir, name) === file) continue;
      const other = path.join(dir, name);
      let mtimeMs: number;
      try {
        mtimeMs = fs.statSync(other).mtimeMs;
      } catch {
        continue;
      }
      // A temporary file an hour old was left by a process that stopped while writing it.
      const keep = name.endsWith('.tmp') ? 3600_000 : KEEP_MS;
      if (now - mtimeMs > keep) fs.rmSync(other, { force: true });
    }
  } catch {
    // A cache that cannot be written costs the next start a database read, nothing more.
  }
}
