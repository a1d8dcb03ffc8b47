import type { Tx } from '../../db/types.js';
import { loadDictionary } from '../../dictionary/load.js';
import { insertSeedRows } from '../../seed/insert-rows.js';

/** The demo's document type of cost adjustments (DocBaseType MMI, DocSubTypeInv CA). */
export const COST_ADJUSTMENT_DOCTYPE = 1131000;
/** The demo's physical inventory numbering, which its cost adjustments share. */
const INVENTORY_SEQUENCE = 10022;

/**
 * The demo's "Cost Adjustment" document type: a physical inventory document (MMI) of sub type CA,
 * whose lines set a product's cost to a new price and revalue its stock on hand. A database
 * without the demo client is left as it is.
 */
export async function addCostAdjustmentSeed(tx: Tx, now = new Date().toISOString()): Promise<void> {
  const { rows } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM ad_client WHERE ad_client_id = 11');
  if (!rows[0]?.n) return;
  const dict = await loadDictionary(tx);
  await insertSeedRows(
    tx,
    dict.byName.get('c_doctype')!,
    [
      {
        C_DocType_ID: COST_ADJUSTMENT_DOCTYPE, AD_Client_ID: 11, AD_Org_ID: 0, Name: 'Cost Adjustment', PrintName: 'Cost Adjustment', DocBaseType: 'MMI',
        DocSubTypeInv: 'CA', IsSOTrx: 'N', GL_Category_ID: 115, IsDocNoControlled: 'Y', DocNoSequence_ID: INVENTORY_SEQUENCE, IsDefault: 'N', DocumentCopies: 1,
        Description: 'Sets the cost of products to a new price and revalues their stock on hand against the cost adjustment account',
      },
    ],
    now,
    { skipExisting: true },
  );
}
