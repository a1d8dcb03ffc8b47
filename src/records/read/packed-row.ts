import type { Queryable } from '../../db/types.js';
import { runNamed } from './statements.js';

type Row = Record<string, unknown>;

/** One value a read fetches: its SQL expression and the name the row gives it. */
export interface SelectItem {
  expr: string;
  name: string;
  /** How the JSON form differs from the value a plain column would give. */
  decode?: 'binary' | 'temporal';
}

/** Name of the single column that carries a packed row. */
export const PACKED = '$row';

// PostgreSQL functions take at most 100 arguments: wider rows are packed as arrays of arrays.
const CHUNK = 100;

/**
 * The select list that returns a row as one JSON text: `[[v1, …, v100], [v101, …]]`.
 * A driver decodes one field of a packed row far faster than a hundred typed fields (it sets up
 * every field of every result and converts each value), so wide records cost the service much
 * less CPU; the database builds the JSON in the same pass that formats the values anyway.
 */
export function packedSelect(items: readonly SelectItem[]): string {
  const chunks: string[] = [];
  for (let i = 0; i < items.length; i += CHUNK) {
    chunks.push(`json_build_array(${items.slice(i, i + CHUNK).map((it) => it.expr).join(', ')})`);
  }
  return `json_build_array(${chunks.join(', ')})::text AS "${PACKED}"`;
}

/** `\x…` hex text (bytea in JSON) as bytes. */
function hexBytes(v: string): Buffer {
  return Buffer.from(v.startsWith('\\x') ? v.slice(2) : v, 'hex');
}

/** One packed row as the object a plain SELECT of the items would have given. */
export function unpackRow(items: readonly SelectItem[], packed: string): Row {
  const chunks = JSON.parse(packed) as unknown[][];
  const row: Row = {};
  let i = 0;
  for (const chunk of chunks) {
    for (const raw of chunk) {
      const item = items[i++]!;
      let v = raw;
      if (v !== null && item.decode) {
        // Timestamps come as ISO text with a T; bytea as hex text.
        v = item.decode === 'binary' ? hexBytes(String(v)) : String(v).replace('T', ' ');
      }
      row[item.name] = v;
    }
  }
  return row;
}

/** Runs a statement whose select list is `packedSelect(items)` and unpacks its rows. */
export async function queryPacked(q: Queryable, text: string, values: readonly unknown[], items: readonly SelectItem[]): Promise<Row[]> {
  const { rows } = await runNamed<Record<string, string>>(q, text, values);
  return rows.map((r) => unpackRow(items, r[PACKED]!));
}
