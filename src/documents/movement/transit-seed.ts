import type { Tx } from '../../db/types.js';
import { loadDictionary } from '../../dictionary/load.js';
import { insertSeedRows } from '../../seed/insert-rows.js';
import { addSpecTables } from '../../seed/spec-tables.js';
import { TRANSIT_TABLES } from './transit-dictionary.js';

/** The demo's in-transit move document type (DocBaseType MMM, IsInTransit Y). */
export const IN_TRANSIT_MOVE_DOCTYPE = 1125000;

const NEW_ELEMENTS: readonly [column: string, name: string][] = [
  ['M_MovementConfirm_ID', 'Move Confirm'], ['M_MovementConfirm_UU', 'M_MovementConfirm_UU'], ['M_MovementLineConfirm_ID', 'Move Line Confirm'],
  ['M_MovementLineConfirm_UU', 'M_MovementLineConfirm_UU'], ['DifferenceQty', 'Difference'],
];

/**
 * Moves in transit: the confirmation tables M_MovementConfirm and M_MovementLineConfirm, and a
 * demo document type "Material Movement In Transit" numbered by the moves' sequence.
 */
export async function addTransitSeed(tx: Tx, now = new Date().toISOString()): Promise<void> {
  await addSpecTables(tx, TRANSIT_TABLES, { firstColumnId: 7400, firstElementId: 3220, newElements: NEW_ELEMENTS }, now);
  const dict = await loadDictionary(tx);
  await insertSeedRows(
    tx,
    dict.byName.get('c_doctype')!,
    [
      {
        C_DocType_ID: IN_TRANSIT_MOVE_DOCTYPE, AD_Client_ID: 11, AD_Org_ID: 0, Name: 'Material Movement In Transit', PrintName: 'Inventory Move', DocBaseType: 'MMM',
        IsSOTrx: 'N', GL_Category_ID: 115, IsDocNoControlled: 'Y', DocNoSequence_ID: 10021, IsDefault: 'N', DocumentCopies: 1, IsInTransit: 'Y',
        Description: 'Moves whose goods travel: prepare creates a confirmation, and the move completes when it is confirmed',
      },
    ],
    now,
    { skipExisting: true },
  );
}
