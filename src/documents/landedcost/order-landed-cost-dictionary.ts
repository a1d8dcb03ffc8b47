import { AMOUNT, LIST, QUANTITY, SEARCH, STRING, TABLE_DIRECT, YES_NO, type ColumnSpec, type TableSpec } from '../../seed/spec-tables.js';
import { DISTRIBUTION_REFERENCE } from './landed-cost-dictionary.js';

export const ORDER_LANDED_COST_TABLE = 200103;
export const ORDER_LANDED_COST_ALLOCATION_TABLE = 200104;

const processed: ColumnSpec = { name: 'Processed', reference: YES_NO, defaultValue: 'N', mandatory: true, updateable: false };

/**
 * Landed costs estimated on a purchase order and their allocations over its lines: the
 * original's C_OrderLandedCost (200103) under C_Order and C_OrderLandedCostAllocation (200104)
 * under it, both of access level Organization. The order's completion writes the allocations;
 * its receipts take them into their lines' cost against Landed Cost Clearing.
 */
export const ORDER_LANDED_COST_TABLES: TableSpec[] = [
  {
    id: ORDER_LANDED_COST_TABLE, name: 'C_OrderLandedCost', title: 'Estimated Landed Cost', accessLevel: '1',
    columns: [
      { name: 'C_Order_ID', reference: TABLE_DIRECT, mandatory: true, parent: true },
      { name: 'M_CostElement_ID', reference: TABLE_DIRECT },
      { name: 'LandedCostDistribution', reference: LIST, referenceValue: DISTRIBUTION_REFERENCE, length: 1, mandatory: true, defaultValue: 'Q', identifier: true },
      { name: 'Amt', reference: AMOUNT, mandatory: true, defaultValue: '0' },
      { name: 'Description', reference: STRING, length: 255 },
      processed,
    ],
  },
  {
    id: ORDER_LANDED_COST_ALLOCATION_TABLE, name: 'C_OrderLandedCostAllocation', title: 'Estimated Landed Cost Allocation', accessLevel: '1',
    columns: [
      { name: 'C_OrderLandedCost_ID', reference: TABLE_DIRECT, mandatory: true, parent: true },
      { name: 'C_OrderLine_ID', reference: SEARCH, mandatory: true, identifier: true },
      { name: 'Base', reference: QUANTITY, mandatory: true, defaultValue: '0', updateable: false },
      { name: 'Qty', reference: QUANTITY, mandatory: true, defaultValue: '0', updateable: false },
      { name: 'Amt', reference: AMOUNT, mandatory: true, defaultValue: '0', updateable: false },
      processed,
    ],
  },
];
