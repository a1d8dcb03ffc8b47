import type { Tx } from '../db/types.js';
import { addProcessSeed } from '../processes/process-seed.js';
import { readSeedData } from '../seed/dictionary-files.js';

/**
 * Brings the document print processes (Rpt C_Order, Rpt C_Invoice, Rpt M_InOut, with their
 * access) to an existing database and names them on the header tabs of the document windows, as
 * the seed does: a window prints its record by running its tab's process. A tab that already
 * names a process keeps it.
 */
export async function addPrintProcessSeed(tx: Tx): Promise<void> {
  await addProcessSeed(tx);
  for (const tab of readSeedData().get('AD_Tab') ?? []) {
    if (tab.AD_Process_ID === undefined || tab.AD_Process_ID === null) continue;
    await tx.query('UPDATE ad_tab SET ad_process_id = $1 WHERE ad_tab_id = $2 AND ad_process_id IS NULL', [Number(tab.AD_Process_ID), Number(tab.AD_Tab_ID)]);
  }
}
