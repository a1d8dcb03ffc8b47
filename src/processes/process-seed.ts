import type { Tx } from '../db/types.js';
import { addSeedTables } from '../seed/add-tables.js';
import { readSeed, seedTable } from '../seed/bootstrap.js';
import { insertSeedRows } from '../seed/insert-rows.js';
import { deterministicUuid } from '../seed/deterministic-uuid.js';

/**
 * Brings the built-in processes to an existing database: AD_Process, AD_Process_Para, the job
 * notice message, the print formats, and the AD_Process_Access rows it lacks (a table without a
 * single key, so rows are matched by process and role).
 */
export async function addProcessSeed(tx: Tx, now = new Date().toISOString()): Promise<void> {
  await addSeedTables(tx, ['AD_Process', 'AD_Process_Para', 'AD_Message', 'AD_PrintFormat'], now);
  const { data, dict } = readSeed();
  const { rows } = await tx.query<{ ad_process_id: number; ad_role_id: number }>('SELECT ad_process_id, ad_role_id FROM ad_process_access');
  const have = new Set(rows.map((r) => `${Number(r.ad_process_id)}:${Number(r.ad_role_id)}`));
  const missing = (data.get('AD_Process_Access') ?? [])
    .filter((r) => !have.has(`${Number(r.AD_Process_ID)}:${Number(r.AD_Role_ID)}`))
    // Named by process and role: the seed's own numbering (by position) could repeat a UUID already there.
    .map((r) => ({ ...r, AD_Process_Access_UU: deterministicUuid(`AD_Process_Access:${Number(r.AD_Process_ID)}:${Number(r.AD_Role_ID)}`) }));
  await insertSeedRows(tx, seedTable(dict, 'AD_Process_Access'), missing, now);
}
