/**
 * Type parsing shared by both drivers so that the same SQL yields the same JS values:
 * int8 and numeric as numbers, dates and timestamps as the server's text (formatted later by
 * column type, never shifted by the process time zone), bytea as Buffer.
 */
export const OID = {
  bytea: 17,
  int8: 20,
  numeric: 1700,
  date: 1082,
  timestamp: 1114,
  timestamptz: 1184,
  time: 1083,
} as const;

const asNumber = (v: string): number => Number(v);
const asText = (v: string): string => v;

export const textParsers: Record<number, (v: string) => unknown> = {
  [OID.int8]: asNumber,
  [OID.numeric]: asNumber,
  [OID.date]: asText,
  [OID.timestamp]: asText,
  [OID.timestamptz]: asText,
  [OID.time]: asText,
};

/** Makes Uint8Array from PGlite and Buffer from pg look the same. */
export function toBuffer(v: unknown): Buffer | null {
  if (v === null || v === undefined) return null;
  if (Buffer.isBuffer(v)) return v;
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  return Buffer.from(String(v));
}
