// Stack traces of the bundle (scripts/bundle.mjs) name the TypeScript sources, src/...ts and their
// lines, not lines of the 3 MB bundle. Node maps stack traces itself (--enable-source-maps) only
// for the modules its own loaders compile, and bundle-loader.mjs compiles the bundle through
// vm.Script to keep V8's code cache, so the mapping is done here, through the source map esbuild
// wrote beside the bundle (which follows tsc's maps back to src/). The map is read on the first
// stack trace formatted, not at start. Node's module.SourceMap decodes every mapping at once (about
// 50 MB of heap for this bundle's, kept for the life of the process); this index keeps the encoded
// mappings and where each line starts (a few MB), and decodes only the lines a trace names.
import fs from 'node:fs';
import path from 'node:path';

const BASE64 = new Int8Array(128).fill(-1);
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries()) BASE64[c.charCodeAt(0)] = i;

/** Reads Base64 VLQ numbers from a source map's `mappings` text, one after the other. */
class VlqReader {
  constructor(text) {
    this.text = text;
    this.pos = 0;
  }

  /** True when the next character ends a segment (`,`), a line (`;`) or the text. */
  atSegmentEnd() {
    const c = this.text.charCodeAt(this.pos);
    return this.pos >= this.text.length || c === 44 || c === 59;
  }

  next() {
    let result = 0;
    let shift = 0;
    let digit;
    do {
      digit = BASE64[this.text.charCodeAt(this.pos++)];
      if (digit === undefined || digit < 0) throw new Error('invalid source map mappings');
      result += (digit & 31) * 2 ** shift;
      shift += 5;
    } while (digit & 32);
    const value = Math.floor(result / 2);
    return result % 2 ? -value : value;
  }
}

/**
 * The places of one generated file in its sources, from a version 3 source map. Lines and columns
 * are 0-based as in the map; `find` answers the last mapping at or before the column.
 */
export class LineIndexedSourceMap {
  constructor(map, dir) {
    const root = map.sourceRoot ?? '';
    this.sources = map.sources.map((s) => {
      const full = `${root}${s}`;
      return full.startsWith('file://') ? new URL(full).pathname : path.resolve(dir, full);
    });
    this.mappings = map.mappings;
    // Per generated line: where its segments start, and the source, line and column carried into it.
    const starts = [0];
    const carried = [0, 0, 0];
    const r = new VlqReader(this.mappings);
    let source = 0;
    let line = 0;
    let column = 0;
    while (r.pos < this.mappings.length) {
      const c = this.mappings.charCodeAt(r.pos);
      if (c === 59) {
        r.pos++;
        starts.push(r.pos);
        carried.push(source, line, column);
        continue;
      }
      if (c === 44) {
        r.pos++;
        continue;
      }
      r.next();
      if (r.atSegmentEnd()) continue;
      source += r.next();
      line += r.next();
      column += r.next();
      if (!r.atSegmentEnd()) r.next();
    }
    this.starts = Int32Array.from(starts);
    this.carried = Int32Array.from(carried);
  }

  /** The original place of a generated (line, column), or null when the map has none. */
  find(line, column) {
    if (line < 0 || line >= this.starts.length) return null;
    const r = new VlqReader(this.mappings);
    r.pos = this.starts[line];
    let source = this.carried[line * 3];
    let originalLine = this.carried[line * 3 + 1];
    let originalColumn = this.carried[line * 3 + 2];
    let generated = 0;
    let found = null;
    while (r.pos < this.mappings.length && this.mappings.charCodeAt(r.pos) !== 59) {
      if (this.mappings.charCodeAt(r.pos) === 44) {
        r.pos++;
        continue;
      }
      generated += r.next();
      if (generated > column) break;
      if (r.atSegmentEnd()) {
        found = null;
        continue;
      }
      source += r.next();
      originalLine += r.next();
      originalColumn += r.next();
      if (!r.atSegmentEnd()) r.next();
      found = { source: this.sources[source], line: originalLine, column: originalColumn };
    }
    return found;
  }
}

/** Reads the source map of a generated file. */
export function readSourceMap(mapFile) {
  return new LineIndexedSourceMap(JSON.parse(fs.readFileSync(mapFile, 'utf8')), path.dirname(mapFile));
}

/** One frame as V8 writes it, with the bundle's places replaced by the sources' places. */
function frameText(frame, bundle, map) {
  let place = frame.toString();
  if (frame.getFileName() === bundle && frame.getLineNumber() !== null) {
    const original = map().find(frame.getLineNumber() - 1, frame.getColumnNumber() - 1);
    if (original) {
      const where = `${original.source}:${original.line + 1}:${original.column + 1}`;
      const name = frame.getFunctionName() ?? frame.getMethodName();
      place = `${frame.isAsync() ? 'async ' : ''}${frame.isConstructor() ? 'new ' : ''}${name ? `${name} (${where})` : where}`;
    }
  }
  return `    at ${place}`;
}

/** Maps the stack traces of `bundle` through `${bundle}.map` when the map exists; answers whether it does. */
export function mapStackTraces(bundle) {
  const mapFile = `${bundle}.map`;
  if (!fs.existsSync(mapFile)) return false;
  let loaded = null;
  const map = () => {
    if (loaded) return loaded;
    try {
      loaded = readSourceMap(mapFile);
    } catch {
      // A map that cannot be read (removed, damaged) leaves the bundle's own places, once and for all.
      loaded = { find: () => null };
    }
    return loaded;
  };
  Error.prepareStackTrace = (error, frames) => {
    let head;
    try {
      head = Error.prototype.toString.call(error);
    } catch {
      head = 'Error';
    }
    return [head, ...frames.map((f) => frameText(f, bundle, map))].join('\n');
  };
  return true;
}
