import { badRequest } from '../errors.js';

/** One condition of `$parameters`: a column of the info window and the value (or range) asked for. */
export interface InfoParameter {
  column: string;
  value: ParameterValue;
}

export type Scalar = string | number | boolean;
export type ParameterValue = Scalar | { from: Scalar | null; to: Scalar | null };

const TITLE = 'Invalid $parameters';
const MAX_LENGTH = 8192;

function scalar(column: string, v: unknown): Scalar | null {
  if (v === null) return null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (v && typeof v === 'object' && !Array.isArray(v) && 'id' in v) return scalar(column, (v as { id: unknown }).id);
  throw badRequest(TITLE, `The value of ${column} must be a string, number, boolean, an object with an id, or a range`);
}

/**
 * Parses `$parameters`: a JSON object of column name to value. A value may be a range, written as
 * a two-item array [from, to] or as {"from": ..., "to": ...}, either end null for an open end; a
 * lookup may be given as {"id": ...}. Null values and empty strings ask for nothing.
 */
export function parseInfoParameters(text: string | undefined): InfoParameter[] {
  if (text === undefined || text.trim() === '') return [];
  if (text.length > MAX_LENGTH) throw badRequest(TITLE, `The option is too long (at most ${MAX_LENGTH} characters)`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest(TITLE, 'Expected a JSON object of column names and values');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest(TITLE, 'Expected a JSON object of column names and values');
  const out: InfoParameter[] = [];
  for (const [column, raw] of Object.entries(parsed as Record<string, unknown>)) {
    let value: ParameterValue | null;
    if (Array.isArray(raw)) {
      if (raw.length !== 2) throw badRequest(TITLE, `The range of ${column} must have two items: [from, to]`);
      value = { from: scalar(column, raw[0]), to: scalar(column, raw[1]) };
    } else if (raw && typeof raw === 'object' && ('from' in raw || 'to' in raw)) {
      const r = raw as { from?: unknown; to?: unknown };
      value = { from: scalar(column, r.from ?? null), to: scalar(column, r.to ?? null) };
    } else value = scalar(column, raw);
    if (value === null || value === '') continue;
    if (typeof value === 'object' && value.from === null && value.to === null) continue;
    out.push({ column, value });
  }
  return out;
}
