import type { Tx } from '../db/types.js';
import { addSeedTables } from '../seed/add-tables.js';
import { readSeedData } from '../seed/dictionary-files.js';

/**
 * Brings the workflow demo into an existing database: the approval node of Process_Order (the
 * completion transition now leads through it), the Order Review workflow, the demo orders and the
 * workflow processes and activities pending on them, and the approval amounts of the demo roles
 * (where none was set: zero would let nobody approve).
 */
export async function addWorkflowSeed(tx: Tx): Promise<void> {
  await addSeedTables(tx, ['AD_Workflow', 'AD_WF_Node', 'AD_WF_NodeNext', 'AD_Workflow_Access', 'C_Order', 'C_OrderLine', 'C_OrderTax', 'AD_WF_Process', 'AD_WF_Activity']);
  await tx.query(`UPDATE ad_wf_nodenext SET ad_wf_next_id = 1164, transitioncode = 'CO' WHERE ad_wf_nodenext_id = 11601 AND ad_wf_next_id = 1162`);
  for (const role of readSeedData().get('AD_Role') ?? []) {
    if (role.AmtApproval === undefined) continue;
    await tx.query(`UPDATE ad_role SET amtapproval = $1, iscanapproveowndoc = $2 WHERE ad_role_id = $3 AND COALESCE(amtapproval, 0) = 0`, [role.AmtApproval, role.IsCanApproveOwnDoc ?? 'Y', role.AD_Role_ID]);
  }
}
