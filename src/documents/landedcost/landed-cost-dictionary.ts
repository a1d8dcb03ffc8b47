import { AMOUNT, LIST, QUANTITY, SEARCH, STRING, TABLE_DIRECT, YES_NO, type ColumnSpec, type TableSpec } from '../../seed/spec-tables.js';

/** The original's list of landed cost distributions (C_LandedCost LandedCostDistribution). */
export const DISTRIBUTION_REFERENCE = 339;
export const DISTRIBUTIONS: readonly [value: string, name: string][] = [
  ['Q', 'Quantity'],
  ['C', 'Costs'],
  ['L', 'Line'],
  ['W', 'Weight'],
  ['V', 'Volume'],
];

const BUTTON = 28;
const processed: ColumnSpec = { name: 'Processed', reference: YES_NO, defaultValue: 'N', mandatory: true, updateable: false };

/**
 * Landed costs of a vendor invoice line and their allocations over receipt lines: the original's
 * C_LandedCost (759) and C_LandedCostAllocation (760), both children of C_InvoiceLine. A landed
 * cost names where the line's amount goes (a receipt, a receipt line or a product) and by what it
 * is shared out; the allocations are written by the invoice's completion.
 */
export const LANDED_COST_TABLES: TableSpec[] = [
  {
    id: 759, name: 'C_LandedCost', title: 'Landed Cost', accessLevel: '3',
    columns: [
      { name: 'C_InvoiceLine_ID', reference: TABLE_DIRECT, mandatory: true, parent: true },
      { name: 'M_CostElement_ID', reference: TABLE_DIRECT },
      { name: 'LandedCostDistribution', reference: LIST, referenceValue: DISTRIBUTION_REFERENCE, length: 1, mandatory: true, defaultValue: 'Q', identifier: true },
      { name: 'M_InOut_ID', reference: SEARCH },
      { name: 'M_InOutLine_ID', reference: SEARCH },
      { name: 'M_Product_ID', reference: SEARCH },
      { name: 'Description', reference: STRING, length: 255 },
      processed,
      { name: 'Processing', reference: BUTTON, length: 1 },
    ],
  },
  {
    id: 760, name: 'C_LandedCostAllocation', title: 'Landed Cost Allocation', accessLevel: '3',
    columns: [
      { name: 'C_InvoiceLine_ID', reference: TABLE_DIRECT, mandatory: true, parent: true },
      { name: 'M_CostElement_ID', reference: TABLE_DIRECT, updateable: false },
      { name: 'M_InOutLine_ID', reference: SEARCH, updateable: false, identifier: true },
      { name: 'M_Product_ID', reference: SEARCH, mandatory: true, updateable: false },
      { name: 'M_AttributeSetInstance_ID', reference: SEARCH, updateable: false },
      { name: 'Base', reference: QUANTITY, mandatory: true, defaultValue: '0', updateable: false },
      { name: 'Qty', reference: QUANTITY, mandatory: true, defaultValue: '0', updateable: false },
      { name: 'Amt', reference: AMOUNT, mandatory: true, defaultValue: '0', updateable: false },
      processed,
    ],
  },
];
