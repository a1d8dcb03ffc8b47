const day = (d: Date): string => d.toISOString().slice(0, 10);

/** This month's first and last day, and the first day of the next month. */
export function thisMonth(): { first: string; last: string; next: string } {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { first: day(first), last: day(new Date(next.getTime() - 86400000)), next: day(next) };
}
