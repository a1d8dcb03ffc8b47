/**
 * Text forms of temporal values. The database hands timestamps over as its own text
 * ('YYYY-MM-DD HH:MM:SS[.ffffff]', UTC); the API writes the spec's ISO forms.
 */
export function formatDate(v: string): string {
  return v.slice(0, 10);
}

export function formatDateTime(v: string): string {
  return `${v.slice(0, 10)}T${v.slice(11, 19) || '00:00:00'}Z`;
}

export function formatTime(v: string): string {
  return `${v.slice(11, 19) || '00:00:00'}Z`;
}

export function formatInstant(v: string): string {
  const d = new Date(v.includes('T') ? v : v.replace(' ', 'T') + (/[+-]\d\d(:?\d\d)?$|Z$/.test(v) ? '' : 'Z'));
  return Number.isNaN(d.getTime()) ? v : d.toISOString();
}

const DATE_FORMS = [
  /^(\d{4})-(\d{2})-(\d{2})$/,
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?$/,
];

/**
 * Parses the accepted input forms of a date or timestamp into the database's UTC text:
 * ISO instants with Z or an offset, 'YYYY-MM-DDTHH:mm:ss', 'YYYY-MM-DD HH:mm:ss' and
 * 'YYYY-MM-DD'. Returns null when the text is none of them or names no real date.
 */
export function parseTemporal(text: string): string | null {
  const s = text.trim();
  for (const re of DATE_FORMS) {
    const m = re.exec(s);
    if (!m) continue;
    const [y, mo, d, h = '00', mi = '00', se = '00'] = m.slice(1);
    const date = new Date(Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +se));
    if (date.getUTCFullYear() !== +y! || date.getUTCMonth() !== +mo! - 1 || date.getUTCDate() !== +d! || +h > 23 || +mi > 59 || +se > 59) return null;
    return `${y}-${mo}-${d} ${h}:${mi}:${se}`;
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(s)) {
    const date = new Date(s);
    if (Number.isNaN(date.getTime())) return null;
    return date.toISOString().slice(0, 19).replace('T', ' ');
  }
  return null;
}
