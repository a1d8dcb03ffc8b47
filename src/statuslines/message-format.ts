/**
 * Fills a message template the way the original's status lines do (java.text.MessageFormat):
 * {0}, {1,number}, {1,number,integer}, {1,number,percent}, {1,number,#,##0.00}; text between single
 * quotes is literal and '' is one quote. Numbers are grouped by thousands with at most three
 * decimals unless a pattern says otherwise; a missing value is written "null", as there.
 */
export function formatMessage(template: string, args: readonly unknown[]): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const ch = template[i]!;
    if (ch === "'") {
      if (template[i + 1] === "'") {
        out += "'";
        i += 2;
        continue;
      }
      const end = template.indexOf("'", i + 1);
      out += end < 0 ? template.slice(i + 1) : template.slice(i + 1, end);
      i = end < 0 ? template.length : end + 1;
      continue;
    }
    if (ch === '{') {
      const end = template.indexOf('}', i + 1);
      const spec = end < 0 ? null : /^\s*(\d+)\s*(?:,\s*(\w+)\s*(?:,(.*))?)?$/.exec(template.slice(i + 1, end));
      if (!spec) {
        out += template.slice(i);
        break;
      }
      out += formatArgument(args[Number(spec[1])], spec[2]?.toLowerCase(), spec[3]?.trim());
      i = end + 1;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}

function formatArgument(v: unknown, type: string | undefined, style: string | undefined): string {
  if (v === null || v === undefined) return 'null';
  const n = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null;
  if (n === null || (type !== undefined && type !== 'number')) return String(v);
  if (style === 'integer') return groupDigits(n, 0, 0, true);
  if (style === 'percent') return `${groupDigits(n * 100, 0, 0, true)}%`;
  if (style && /[#0]/.test(style)) {
    const [, decimals = ''] = style.split('.');
    const min = (decimals.match(/0/g) ?? []).length;
    return groupDigits(n, min, min + (decimals.match(/#/g) ?? []).length, style.includes(','));
  }
  return groupDigits(n, 0, 3, true);
}

function groupDigits(n: number, minFraction: number, maxFraction: number, grouping: boolean): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: minFraction, maximumFractionDigits: maxFraction, useGrouping: grouping });
}
