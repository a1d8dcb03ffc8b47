import { lockSchemaChanges } from '../db/migrate.js';
import type { Db } from '../db/types.js';
import { loadDictionary } from './load.js';
import { compareSchema, synchroniseSchema, type SchemaDifference } from './sync.js';

/** One difference in one line: "AD_User.ad_user_bpartner: index differs (expected …, found …)". */
export function differenceLine(d: SchemaDifference): string {
  const what = `${d.table}${d.column ? `.${d.column}` : ''}${d.index ? `.${d.index}` : ''}`;
  const detail = [d.expected !== undefined ? `expected ${d.expected}` : '', d.actual !== undefined ? `found ${d.actual}` : ''].filter(Boolean).join(', ');
  return `${what}: ${d.problem}${detail ? ` (${detail})` : ''}`;
}

/**
 * The `schema` command: reports how the physical schema differs from the dictionary the database
 * holds and, with `apply`, brings it up to the dictionary first (synchroniseSchema), holding off
 * migrations and other synchronisations meanwhile. Returns how many differences remain.
 */
export async function schemaCommand(db: Db, apply: boolean, out: (line: string) => void): Promise<number> {
  const remaining = await db.tx(async (tx) => {
    if (apply) await lockSchemaChanges(tx);
    const dict = await loadDictionary(tx);
    if (apply) for (const d of await synchroniseSchema(tx, dict)) out(`applied: ${differenceLine(d)}`);
    return compareSchema(tx, dict);
  });
  for (const d of remaining) out(differenceLine(d));
  out(remaining.length ? `${remaining.length} difference${remaining.length === 1 ? '' : 's'} between the dictionary and the database` : 'the database matches the dictionary');
  return remaining.length;
}
