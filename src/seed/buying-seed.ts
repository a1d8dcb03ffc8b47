import type { Tx } from '../db/types.js';
import { addProcesses } from './payrun-seed.js';

export const CREATE_PO_FROM_REQUISITION_CLASS = 'org.compiere.process.RequisitionPOCreate';

const TABLE_DIRECT = 19;
const DATE = 15;
const YES_NO = 20;
const LIST = 17;
/** The original's list of priorities (_PriorityRule). */
const PRIORITY_RULES = 154;

/** The process Create PO from Requisition (337) with the original's parameters. */
export async function addBuyingSeed(tx: Tx, now = new Date().toISOString()): Promise<void> {
  await addProcesses(
    tx,
    [
      {
        id: 337,
        value: 'M_Requisition_POCreate',
        name: 'Create PO from Requisition',
        description: 'Create Purchase Orders from Requisitions',
        classname: CREATE_PO_FROM_REQUISITION_CLASS,
        params: [
          [1112010, 'AD_Org_ID', 'Organization', TABLE_DIRECT],
          [1112011, 'M_Warehouse_ID', 'Warehouse', TABLE_DIRECT],
          [1112012, 'DateRequired', 'Date Required', DATE],
          [1112013, 'PriorityRule', 'Priority', LIST, PRIORITY_RULES],
          [1112014, 'AD_User_ID', 'User/Contact', TABLE_DIRECT],
          [1112015, 'M_Product_ID', 'Product', TABLE_DIRECT],
          [1112016, 'M_Requisition_ID', 'Requisition', TABLE_DIRECT],
          [1112017, 'ConsolidateDocument', 'Consolidate to one Document', YES_NO, null, 'N'],
        ],
      },
    ],
    now,
  );
}
