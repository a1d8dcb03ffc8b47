/** A record's value as text: lookups and list values by their identifier, Yes/No for booleans. */
export function showValue(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (typeof v === 'object') {
    const o = v as { identifier?: unknown; id?: unknown };
    if (o.identifier !== undefined) return String(o.identifier);
    if (o.id !== undefined) return String(o.id);
    return JSON.stringify(v);
  }
  return String(v);
}
