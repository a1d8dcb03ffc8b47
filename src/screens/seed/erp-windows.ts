import type { Tx } from '../../db/types.js';
import { addWindows, type WindowSeed, type WindowSpec } from './window-seed.js';

/** Tab ids of the windows below: 1132000 onwards; menu entries 1132100 onwards; fields 1132200–1133999. */
const TAB = 1132000;
const MENU = 1132100;

const PHYSICAL = `M_Inventory.C_DocType_ID IN (SELECT C_DocType_ID FROM C_DocType WHERE DocSubTypeInv='PI')`;
const INTERNAL_USE = `M_Inventory.C_DocType_ID IN (SELECT C_DocType_ID FROM C_DocType WHERE DocSubTypeInv='IU')`;

let lastTab = TAB;
const nextTab = () => ++lastTab;

/**
 * A window whose tabs each hang below the one before (header, lines, their details), each linked
 * by the key of the tab above: [name, table, where clause].
 */
function chain(id: number, name: string, description: string, tabs: [name: string, table: string, where?: string][]): WindowSpec {
  return {
    id,
    name,
    description,
    tabs: tabs.map(([tabName, table, whereClause], level) => ({
      id: nextTab(), name: tabName, table, level, ...(level > 0 ? { link: `${tabs[level - 1]![1]}_ID` } : {}), ...(whereClause ? { whereClause } : {}),
    })),
  };
}

/** Existing menu summaries the entries go under (seed/data/AD_Menu.json). */
const REQUISITION_TO_INVOICE = 210;
const MATERIAL_MANAGEMENT = 230;
const OPEN_ITEMS = 240;
const GENERAL_LEDGER = MENU;

/**
 * The windows of the documents added after the first fifteen, with the original's window ids and
 * names: GL journals, bank statements, cash journals, inventory moves, physical inventories and
 * internal use, payment selections, dunning runs, requisitions, RfQs, and the landed costs of
 * vendor invoice lines.
 */
export const ERP_WINDOWS: WindowSeed = {
  windows: [
    chain(132, 'GL Journal Batch', 'Enter and change GL journal batches', [['Batch', 'GL_JournalBatch'], ['Journal', 'GL_Journal'], ['Line', 'GL_JournalLine']]),
    chain(200000, 'GL Journal', 'Enter and change GL journals', [['Journal', 'GL_Journal'], ['Line', 'GL_JournalLine']]),
    chain(194, 'Bank Statement', 'Process bank statements', [['Bank Statement', 'C_BankStatement'], ['Statement Line', 'C_BankStatementLine']]),
    chain(255, 'Cash Journal', 'Enter cash journals', [['Cash Journal', 'C_Cash'], ['Cash Line', 'C_CashLine']]),
    chain(170, 'Inventory Move', 'Move products between locators', [['Move', 'M_Movement'], ['Move Line', 'M_MovementLine']]),
    chain(168, 'Physical Inventory', 'Count the stock of a warehouse', [['Inventory Count', 'M_Inventory', PHYSICAL], ['Inventory Count Line', 'M_InventoryLine']]),
    chain(341, 'Internal Use Inventory', 'Enter the internal use of inventory', [['Internal Use', 'M_Inventory', INTERNAL_USE], ['Internal Use Line', 'M_InventoryLine']]),
    chain(206, 'Payment Selection (manual)', 'Select invoices to pay', [['Payment Selection', 'C_PaySelection'], ['Payment Selection Line', 'C_PaySelectionLine']]),
    chain(231, 'Dunning Run', 'Create and print dunning letters', [['Dunning Run', 'C_DunningRun'], ['Entry', 'C_DunningRunEntry'], ['Line', 'C_DunningRunLine']]),
    chain(322, 'Requisition', 'Enter material requisitions', [['Requisition', 'M_Requisition'], ['Requisition Line', 'M_RequisitionLine']]),
    chain(324, 'RfQ', 'Manage requests for quotation', [['RfQ', 'C_RfQ'], ['Line', 'C_RfQLine'], ['Quantity', 'C_RfQLineQty']]),
    { id: 183, name: 'Invoice (Vendor)', existing: { afterSeqNo: 20 }, tabs: [
      { id: nextTab(), name: 'Landed Cost', table: 'C_LandedCost', level: 2, link: 'C_InvoiceLine_ID' },
    ] },
  ],
  menus: [
    { id: GENERAL_LEDGER, windowId: 0, name: 'General Ledger', parentId: 0, seqNo: 55, summary: true },
    { id: MENU + 1, windowId: 200000, name: 'GL Journal', parentId: GENERAL_LEDGER, seqNo: 10 },
    { id: MENU + 2, windowId: 132, name: 'GL Journal Batch', parentId: GENERAL_LEDGER, seqNo: 20 },
    { id: MENU + 3, windowId: 194, name: 'Bank Statement', parentId: OPEN_ITEMS, seqNo: 40 },
    { id: MENU + 4, windowId: 255, name: 'Cash Journal', parentId: OPEN_ITEMS, seqNo: 50 },
    { id: MENU + 5, windowId: 206, name: 'Payment Selection (manual)', parentId: OPEN_ITEMS, seqNo: 60 },
    { id: MENU + 6, windowId: 231, name: 'Dunning Run', parentId: OPEN_ITEMS, seqNo: 70 },
    { id: MENU + 7, windowId: 170, name: 'Inventory Move', parentId: MATERIAL_MANAGEMENT, seqNo: 40 },
    { id: MENU + 8, windowId: 168, name: 'Physical Inventory', parentId: MATERIAL_MANAGEMENT, seqNo: 50 },
    { id: MENU + 9, windowId: 341, name: 'Internal Use Inventory', parentId: MATERIAL_MANAGEMENT, seqNo: 60 },
    { id: MENU + 10, windowId: 322, name: 'Requisition', parentId: REQUISITION_TO_INVOICE, seqNo: 40 },
    { id: MENU + 11, windowId: 324, name: 'RfQ', parentId: REQUISITION_TO_INVOICE, seqNo: 50 },
  ],
  // System Administrator and the GardenWorld admins, as for Bank/Cash and Invoice (Vendor).
  access: [
    [0, 0],
    [102, 11],
    [200001, 11],
  ],
  firstFieldId: 1132200,
  lastFieldId: 1133999,
};

export async function addErpWindows(tx: Tx): Promise<void> {
  await addWindows(tx, ERP_WINDOWS);
}
