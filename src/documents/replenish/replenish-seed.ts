import type { Tx } from '../../db/types.js';
import { addProcesses } from '../../seed/payrun-seed.js';
import { addListReference } from '../../seed/spec-tables.js';

export const REPLENISH_REPORT_CLASS = 'org.compiere.process.ReplenishReportProduction';
/** The original's Replenish Report (RV_T_Replenish_Production). */
export const REPLENISH_REPORT_ID = 53267;
/** The original's list of what the replenish report creates (ReplenishmentCreate). */
const REPLENISHMENT_CREATE = 53412;

const LIST = 17;
const TABLE_DIRECT = 19;
const SEARCH = 30;

/**
 * The Replenish Report (53267) with the original's parameters, its warehouse mandatory, and the
 * list of the documents it creates: purchase orders (POO), requisitions (POR) and inventory moves
 * (MMM). Distribution orders and productions, which this server does not have, are not offered.
 */
export async function addReplenishReport(tx: Tx, now = new Date().toISOString()): Promise<void> {
  await addListReference(
    tx,
    { id: REPLENISHMENT_CREATE, name: 'ReplenishmentCreate' },
    [
      ['POO', 'Purchase Order'],
      ['POR', 'Requisition'],
      ['MMM', 'Inventory Move'],
    ],
    1119000,
    now,
  );
  await addProcesses(
    tx,
    [
      {
        id: REPLENISH_REPORT_ID,
        value: 'RV_T_Replenish_Production',
        name: 'Replenish Report',
        description: 'What to order or move of each product of a warehouse by its replenishment levels; optionally creates the purchase orders, requisitions or moves',
        classname: REPLENISH_REPORT_CLASS,
        isReport: true,
        params: [
          [1119010, 'M_Warehouse_ID', 'Warehouse', TABLE_DIRECT],
          [1119011, 'C_BPartner_ID', 'Business Partner', SEARCH],
          [1119012, 'M_Product_Category_ID', 'Product Category', TABLE_DIRECT],
          [1119013, 'ReplenishmentCreate', 'Create', LIST, REPLENISHMENT_CREATE],
          [1119014, 'C_DocType_ID', 'Document Type', TABLE_DIRECT],
        ],
      },
    ],
    now,
  );
  await tx.query(`UPDATE ad_process_para SET ismandatory = 'Y' WHERE ad_process_para_id = 1119010`);
}
