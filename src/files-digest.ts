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

const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/**
 * Feeds `h` the path and bytes of `entry` (a compiled module, relative to the project root) and of
 * every module it imports by a relative path, transitively: what the migrations run is wherever
 * their code lives, not only under src/db and src/seed. Answers the modules it read.
 */
export function hashImportClosure(h: Hash, entry: string): string[] {
  const seen = new Set<string>();
  const queue = [path.join(projectRoot, entry)];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file) || !fs.existsSync(file)) continue;
    seen.add(file);
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(RELATIVE_IMPORT)) queue.push(path.resolve(path.dirname(file), m[1]!));
  }
  const files = [...seen].sort().map((f) => path.relative(projectRoot, f));
  for (const file of files) {
    h.update(file);
    h.update(fs.readFileSync(path.join(projectRoot, file)));
  }
  return files;
}
