import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { hashProjectFiles } from '../files-digest.js';
import { projectRoot } from '../paths.js';
import type { Dictionary } from './model.js';

/**
 * Built dictionaries kept in files under their stamp (see stamp.ts), so that a start on a database
 * whose dictionary has not changed reads a file instead of asking the database to aggregate every
 * dictionary table and building the dictionary from the rows (together the largest costs of an
 * embedded start after PGlite's own). A file holds the dictionary in V8's serialization format,
 * which Node reads back several times faster than the rows could be decoded and built again.
 *
 * Equal stamps mean equal rows, but the same rows built by other code may give another dictionary:
 * a file also names the code that built it (`codeKey`), and is used only by that same code. A file
 * that cannot be read or does not match is ignored and the database asked.
 */
const PREFIX = 'dictionary-';
const SUFFIX = '.v8';
/** Files of other stamps are removed once this old: databases that changed long ago. */
const KEEP_MS = 7 * 24 * 3600_000;

interface KeptDictionary {
  stamp: string;
  code: string;
  dictionary: Dictionary;
}

const fileOf = (dir: string, stamp: string): string | null => (/^[0-9a-f-]{36}$/.test(stamp) ? path.join(dir, `${PREFIX}${stamp}${SUFFIX}`) : null);

/** The compiled modules that build a dictionary. */
const CODE_DIR = 'dist/src/dictionary';
let codeKey: string | null | undefined;

/**
 * A digest of the compiled modules that build a dictionary (this folder's, which import nothing
 * from elsewhere: a unit test holds them to it). Null when they cannot be read, and then no file is
 * used or written.
 */
export function dictionaryCodeKey(): string | null {
  if (codeKey !== undefined) return codeKey;
  if (!fs.existsSync(path.join(projectRoot, CODE_DIR))) return (codeKey = null);
  const h = createHash('sha256');
  hashProjectFiles(h, [CODE_DIR]);
  return (codeKey = h.digest('hex').slice(0, 32));
}

const isDictionary = (d: unknown): d is Dictionary => {
  const x = d as Partial<Dictionary> | null;
  return !!x && Array.isArray(x.tables) && x.byName instanceof Map && x.byId instanceof Map && x.references instanceof Map && x.valRules instanceof Map;
};

/** The dictionary kept under `stamp` by the code named `code`, or null. */
export function readDictionaryFile(dir: string, stamp: string, code: string): Dictionary | null {
  const file = fileOf(dir, stamp);
  if (!file) return null;
  try {
    const kept = v8.deserialize(fs.readFileSync(file)) as Partial<KeptDictionary> | null;
    return kept && kept.stamp === stamp && kept.code === code && isDictionary(kept.dictionary) ? kept.dictionary : null;
  } catch {
    return null;
  }
}

/**
 * Keeps a dictionary under its stamp (atomically: other processes may read it meanwhile); never
 * throws. Synchronous, a few milliseconds once per changed dictionary: written in the background,
 * the file was lost whenever the process stopped soon after its start, and every start then read
 * the database.
 */
export function writeDictionaryFile(dir: string, stamp: string, code: string, dictionary: Dictionary): void {
  const file = fileOf(dir, stamp);
  if (!file) return;
  try {
    fs.mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, v8.serialize({ stamp, code, dictionary } satisfies KeptDictionary));
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
