let lastMs = Number.NaN;
let lastIso = '';

/**
 * The current time as ISO text, formatted once per millisecond: the thousand lines of one
 * request stamp their Created and Updated within a few milliseconds.
 */
export function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}
