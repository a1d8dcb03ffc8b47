import type { Tx } from '../db/types.js';
import type { Row } from '../dictionary/build.js';
import { readSeedDictionary } from './dictionary-files.js';

const isYesNoOrButton = (c: Row): boolean => Number(c.ad_reference_id) === 20 || Number(c.ad_reference_id) === 28;

/**
 * Brings two corrections of the seed dictionary to a database built before them: IsActive is
 * updateable on every table (records are deactivated with an update), and mandatory Yes/No and
 * Button columns carry the value a new record takes. Columns are matched by their seed id; a
 * value an administrator has set already (a default, or IsActive made read-only again) stays.
 */
export async function applySeedColumnValues(tx: Tx, columns: Row[] = readSeedDictionary().columns): Promise<{ updateable: number; defaults: number }> {
  const activeIds = columns.filter((c) => String(c.columnname).toLowerCase() === 'isactive' && c.isupdateable === 'Y').map((c) => Number(c.ad_column_id));
  const valued = columns.filter((c) => c.ismandatory === 'Y' && isYesNoOrButton(c) && typeof c.defaultvalue === 'string' && c.defaultvalue !== '');
  const a = await tx.query(`UPDATE ad_column SET isupdateable = 'Y', updated = now() WHERE ad_column_id = ANY($1::bigint[]) AND isupdateable = 'N' AND columnname = 'IsActive' AND ad_client_id = 0`, [activeIds]);
  const b = await tx.query(
    `UPDATE ad_column c SET defaultvalue = v.value, updated = now()
       FROM unnest($1::bigint[], $2::text[]) AS v(id, value)
      WHERE c.ad_column_id = v.id AND c.ismandatory = 'Y' AND (c.defaultvalue IS NULL OR btrim(c.defaultvalue) = '')`,
    [valued.map((c) => Number(c.ad_column_id)), valued.map((c) => String(c.defaultvalue))],
  );
  return { updateable: a.rowCount ?? 0, defaults: b.rowCount ?? 0 };
}
