/**
 * Which file of the built console (dist/console/) answers a path below /console (pure): an asset
 * by its name, or the page itself for every other path, which the page's own router then reads.
 * A path that names a file (an extension, or anything below assets/) and is not one gets none.
 */
export type ConsoleFile = { kind: 'page' } | { kind: 'asset'; name: string; type: string } | { kind: 'missing' };

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};
const ASSET_NAME = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9]+)+$/;

/** `rest` is the path after /console/ (no query), `assets` the names the build wrote. */
export function consoleFile(rest: string, assets: ReadonlySet<string>): ConsoleFile {
  const parts = rest.split('/').filter((p) => p !== '');
  if (parts[0] === 'assets') {
    const name = parts.length === 2 ? parts[1]! : '';
    const ext = name.slice(name.lastIndexOf('.'));
    if (!ASSET_NAME.test(name) || !assets.has(name) || !TYPES[ext]) return { kind: 'missing' };
    return { kind: 'asset', name, type: TYPES[ext] };
  }
  // A last segment with an extension asks for a file, not for a page of the console.
  if (parts.length && /\.[A-Za-z0-9]+$/.test(parts[parts.length - 1]!)) return { kind: 'missing' };
  return { kind: 'page' };
}

/** Assets carry a hash of their content in their names: browsers may keep them. */
export const ASSET_CACHE = 'public, max-age=31536000, immutable';
/** The page names the current assets, so it is asked for again every time. */
export const PAGE_CACHE = 'no-cache';
