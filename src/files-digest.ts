import type { Hash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from './paths.js';

/** Every file under `dir`, sorted; none when it does not exist. */
function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p));
    else out.push(p);
  }
  return out.sort();
}

/**
 * Feeds `h` the path and bytes of every file under `entries` (files or folders relative to the
 * project root; source maps left out), so that a cache keyed by the digest follows what it was
 * built from: the seeded snapshot its seed and schema code, the kept dictionary its builder.
 */
export function hashProjectFiles(h: Hash, entries: readonly string[]): void {
  for (const entry of entries.map((e) => path.join(projectRoot, e))) {
    const files = fs.existsSync(entry) && fs.statSync(entry).isFile() ? [entry] : listFiles(entry);
    for (const file of files) {
      if (file.endsWith('.map')) continue;
      h.update(path.relative(projectRoot, file));
      h.update(fs.readFileSync(file));
    }
  }
}
