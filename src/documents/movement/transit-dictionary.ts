import { AMOUNT, QUANTITY, SEARCH, STRING, TABLE_DIRECT, YES_NO, type ColumnSpec, type TableSpec } from '../../seed/spec-tables.js';

/** Document status (AD_Reference 131) and document action (135), as every document header has them. */
const DOC_STATUS = 131;
const DOC_ACTION = 135;
const LIST = 17;
const BUTTON = 28;

const description: ColumnSpec = { name: 'Description', reference: STRING, length: 255 };
const processed: ColumnSpec = { name: 'Processed', reference: YES_NO, defaultValue: 'N', mandatory: true, updateable: false };

/**
 * The confirmation of a move in transit and its lines: the original's M_MovementConfirm (738) and
 * M_MovementLineConfirm (737) with their columns. A confirmation is created by its move's prepare;
 * its lines are confirmed (ConfirmedQty, ScrappedQty), the rest is written by the documents.
 */
export const TRANSIT_TABLES: TableSpec[] = [
  {
    id: 738, name: 'M_MovementConfirm', title: 'Move Confirm', accessLevel: '1',
    columns: [
      { name: 'DocumentNo', reference: STRING, length: 30, mandatory: true, identifier: true },
      description,
      { name: 'M_Movement_ID', reference: SEARCH, mandatory: true, updateable: false },
      { name: 'DocStatus', reference: LIST, referenceValue: DOC_STATUS, length: 2, mandatory: true, defaultValue: 'DR' },
      { name: 'DocAction', reference: BUTTON, referenceValue: DOC_ACTION, length: 2, mandatory: true, defaultValue: 'CO' },
      { name: 'IsApproved', reference: YES_NO, defaultValue: 'N', mandatory: true, updateable: false },
      { name: 'ApprovalAmt', reference: AMOUNT, updateable: false },
      { name: 'M_Inventory_ID', reference: SEARCH, updateable: false },
      processed,
      { name: 'Processing', reference: BUTTON, length: 1 },
    ],
  },
  {
    id: 737, name: 'M_MovementLineConfirm', title: 'Move Line Confirm', accessLevel: '1',
    columns: [
      { name: 'M_MovementConfirm_ID', reference: TABLE_DIRECT, mandatory: true, parent: true },
      { name: 'M_MovementLine_ID', reference: SEARCH, mandatory: true, updateable: false, identifier: true },
      { name: 'TargetQty', reference: QUANTITY, mandatory: true, updateable: false, defaultValue: '0' },
      { name: 'ConfirmedQty', reference: QUANTITY, mandatory: true, defaultValue: '0' },
      { name: 'DifferenceQty', reference: QUANTITY, mandatory: true, updateable: false, defaultValue: '0' },
      { name: 'ScrappedQty', reference: QUANTITY, defaultValue: '0' },
      description,
      { name: 'M_InventoryLine_ID', reference: SEARCH, updateable: false },
      processed,
    ],
  },
];
