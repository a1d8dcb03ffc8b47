import type { Tx } from '../db/types.js';
import { readSeed, seedTable } from './bootstrap.js';
import { addSeedTables } from './add-tables.js';
import { insertSeedRows } from './insert-rows.js';

/**
 * The tables of the data model's finance, inventory, pricing, returns, projects, manufacturing and
 * assets areas that the dictionary gained with them: new to a database built before.
 */
export const DATA_MODEL_NEW_TABLES = [
  'A_Asset_Acct', 'A_Asset_Addition', 'A_Depreciation_Exp', 'A_Depreciation_Workfile', 'C_AcctSchema_GL', 'C_BP_Customer_Acct',
  'C_BP_Group_Acct', 'C_BP_Vendor_Acct', 'C_BPartner_Product', 'C_BankAccount_Acct', 'C_BankStatement', 'C_BankStatementLine', 'C_Cash',
  'C_CashBook_Acct', 'C_Currency_Acct', 'C_DunningRun', 'C_DunningRunEntry', 'C_DunningRunLine', 'C_InvoicePaySchedule', 'C_PaySchedule',
  'C_PaySelection', 'C_PaySelectionCheck', 'C_PaySelectionLine', 'C_ProjectLine', 'C_Project_Acct', 'GL_Journal', 'GL_JournalBatch',
  'GL_JournalLine', 'M_Attribute', 'M_AttributeInstance', 'M_AttributeValue', 'M_Cost', 'M_CostDetail', 'M_CostElement', 'M_CostHistory',
  'M_CostQueue', 'M_DiscountSchemaBreak', 'M_DiscountSchemaLine', 'M_Inventory', 'M_LotCtl', 'M_Movement', 'M_Product_Acct',
  'M_Product_Category_Acct', 'M_Product_PO', 'M_Production', 'M_ProductionPlan', 'M_RMAType', 'M_Replenish', 'M_Requisition',
  'M_RequisitionLine', 'M_SerNoCtl', 'M_Warehouse_Acct', 'PA_Report', 'PA_ReportColumn', 'PA_ReportColumnSet', 'PA_ReportLine',
  'PA_ReportLineSet', 'PP_Product_BOM', 'PP_Product_BOMLine',
];

/**
 * Tables the dictionary held as stand-ins (Value, Name, Description and the standard columns, so
 * that references to them resolve) until the data model gave their own columns.
 */
export const DATA_MODEL_FORMER_STAND_INS = [
  'A_Asset', 'A_Asset_Group', 'C_CashBook', 'C_CashLine', 'C_Dunning', 'C_DunningLevel', 'C_Project', 'C_ProjectIssue', 'C_ProjectPhase',
  'C_ProjectTask', 'M_AttributeSet', 'M_CostType', 'M_InventoryLine', 'M_Lot', 'M_MovementLine', 'M_ProductionLine', 'M_RMA', 'M_RMALine',
];

/** AD_Column attributes a stand-in's column takes from the seed when its table gets its own columns. */
const COLUMN_ATTRIBUTES = ['name', 'ad_element_id', 'ad_reference_id', 'ad_reference_value_id', 'ad_val_rule_id', 'fieldlength', 'defaultvalue', 'ismandatory', 'isupdateable', 'isidentifier', 'seqno', 'isselectioncolumn'];

/**
 * Brings the data model's added areas to a database built before: the references their columns
 * use (lists and table references), the new tables, the stand-ins' own columns, and the stand-ins'
 * existing columns as the seed now describes them (identifier, mandatory, ...).
 */
export async function addDataModelAdditions(tx: Tx, now = new Date().toISOString()): Promise<void> {
  const { rows: seed, dict } = readSeed();
  const skipExisting = { skipExisting: true };
  await insertSeedRows(tx, seedTable(dict, 'AD_Reference'), seed.references, now, skipExisting);
  await insertSeedRows(tx, seedTable(dict, 'AD_Ref_List'), seed.refLists, now, skipExisting);
  await insertSeedRows(tx, seedTable(dict, 'AD_Ref_Table'), seed.refTables, now, skipExisting);
  await addSeedTables(tx, [...DATA_MODEL_FORMER_STAND_INS, ...DATA_MODEL_NEW_TABLES], now);
  const standIns = new Set(DATA_MODEL_FORMER_STAND_INS.map((name) => seedTable(dict, name).id));
  for (const column of seed.columns.filter((c) => standIns.has(Number(c.ad_table_id)))) {
    const sets = COLUMN_ATTRIBUTES.map((a, i) => `${a} = $${i + 2}`).join(', ');
    await tx.query(`UPDATE ad_column SET ${sets} WHERE ad_column_id = $1`, [column.ad_column_id, ...COLUMN_ATTRIBUTES.map((a) => column[a] ?? null)]);
  }
}
