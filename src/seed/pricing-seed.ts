import type { Tx } from '../db/types.js';
import { addProcesses } from './payrun-seed.js';

/** The original's id of Create Price List (M_PriceList_Create), run from a price list version's ProcCreate button. */
export const PRICE_LIST_CREATE_PROCESS = 103;

/**
 * The Create Price List process (103) with its DeleteOld parameter and the demo administrator's
 * access; the price list version's "Create" button (ProcCreate) runs it.
 */
export async function addPricingSeed(tx: Tx, now = new Date().toISOString()): Promise<void> {
  await addProcesses(
    tx,
    [
      {
        id: PRICE_LIST_CREATE_PROCESS, value: 'M_PriceList Create', name: 'Create Price List', classname: 'org.compiere.process.M_PriceList_Create',
        description: "Create the prices of a price list version from its base version (or the vendors' prices) by the lines of its discount schema",
        params: [[1111000, 'DeleteOld', 'Delete Old', 20, null, 'N']],
      },
    ],
    now,
  );
  const { rows } = await tx.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'ad_column' AND column_name = 'ad_process_id'`);
  if (rows.length) await tx.query(`UPDATE ad_column SET ad_process_id = $1 WHERE ad_column_id = 2098 AND ad_process_id IS NULL`, [PRICE_LIST_CREATE_PROCESS]);
}
