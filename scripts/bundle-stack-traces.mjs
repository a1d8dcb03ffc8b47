// Stack traces of the bundle (scripts/bundle.mjs) name the TypeScript sources, src/...ts and their
// lines, not lines of the 3 MB bundle. Node maps stack traces itself (--enable-source-maps) only
// for the modules its own loaders compile, and bundle-loader.mjs compiles the bundle through
// vm.Script to keep V8's code cache, so the mapping is done here: the source map esbuild wrote
// beside the bundle (which follows tsc's maps back to src/) is read on the first stack trace
// formatted, not at start, so a start pays nothing for it.
import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';

/** The original place of one frame of the bundle, or null when the map has none for it. */
function originalPlace(map, dir, line, column) {
  const entry = map.findEntry(line - 1, column - 1);
  if (!entry || entry.originalSource === undefined) return null;
  const source = entry.originalSource.startsWith('file://') ? new URL(entry.originalSource).pathname : path.resolve(dir, entry.originalSource);
  return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
}

/** One frame as V8 writes it, with the bundle's places replaced by the sources' places. */
function frameText(frame, bundle, map) {
  const file = frame.getFileName();
  let place = frame.toString();
  if (file === bundle && frame.getLineNumber() !== null) {
    const original = originalPlace(map(), path.dirname(bundle), frame.getLineNumber(), frame.getColumnNumber());
    if (original) {
      const name = frame.getFunctionName() ?? frame.getMethodName();
      const where = name ? `${name} (${original})` : original;
      place = `${frame.isAsync() ? 'async ' : ''}${frame.isConstructor() ? 'new ' : ''}${where}`;
    }
  }
  return `    at ${place}`;
}

/** Maps the stack traces of `bundle` through `${bundle}.map` when the map exists; answers whether it does. */
export function mapStackTraces(bundle) {
  const mapFile = `${bundle}.map`;
  if (!fs.existsSync(mapFile)) return false;
  let loaded = null;
  const map = () => (loaded ??= new SourceMap(JSON.parse(fs.readFileSync(mapFile, 'utf8'))));
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
