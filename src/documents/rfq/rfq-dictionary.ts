/**
 * The dictionary of requests for quotation: the original's eight tables (with their AD_Table_ID)
 * and their columns, with the standard columns every table has added by the seed module.
 */

import { AMOUNT, DATE, DATE_TIME, INTEGER, LIST, NUMBER, PRICE, QUANTITY, SEARCH, STRING, TABLE, TABLE_DIRECT, TEXT, YES_NO, type ColumnSpec, type TableSpec } from '../../seed/spec-tables.js';

export { AMOUNT, DATE, DATE_TIME, INTEGER, LIST, NUMBER, PRICE, QUANTITY, SEARCH, STRING, TABLE, TABLE_DIRECT, TEXT, YES_NO, type ColumnSpec, type TableSpec } from '../../seed/spec-tables.js';

/** The original's list of RfQ types (C_RfQ QuoteType). */
export const QUOTE_TYPE_REFERENCE = 314;
export const QUOTE_TYPES: readonly [value: string, name: string][] = [
  ['S', 'Quote Selected Lines'],
  ['A', 'Quote All Lines'],
  ['T', 'Quote Total only'],
];
/** AD_User - SalesRep: the internal users. */
const SALES_REP_REFERENCE = 190;

const desc: ColumnSpec[] = [
  { name: 'Description', reference: STRING, length: 255 },
  { name: 'Help', reference: TEXT, length: 2000 },
];
const work: ColumnSpec[] = [
  { name: 'DateWorkStart', reference: DATE },
  { name: 'DateWorkComplete', reference: DATE },
  { name: 'DeliveryDays', reference: INTEGER },
];
const done: ColumnSpec = { name: 'Processed', reference: YES_NO, defaultValue: 'N', mandatory: true, updateable: false };

export const RFQ_TABLES: TableSpec[] = [
  {
    id: 671, name: 'C_RfQ_Topic', title: 'RfQ Topic', accessLevel: '3',
    columns: [
      { name: 'Name', reference: STRING, length: 60, mandatory: true, identifier: true },
      ...desc,
      { name: 'IsSelfService', reference: YES_NO, defaultValue: 'Y', mandatory: true },
    ],
  },
  {
    id: 670, name: 'C_RfQ_TopicSubscriber', title: 'RfQ Subscriber', accessLevel: '3',
    columns: [
      { name: 'C_RfQ_Topic_ID', reference: TABLE_DIRECT, mandatory: true, parent: true },
      { name: 'C_BPartner_ID', reference: SEARCH, mandatory: true, identifier: true },
      { name: 'C_BPartner_Location_ID', reference: TABLE_DIRECT, mandatory: true },
      { name: 'AD_User_ID', reference: TABLE_DIRECT },
      { name: 'SubscribeDate', reference: DATE },
      { name: 'OptOutDate', reference: DATE },
    ],
  },
  {
    id: 677, name: 'C_RfQ', title: 'RfQ', accessLevel: '1',
    columns: [
      { name: 'DocumentNo', reference: STRING, length: 30, mandatory: true, identifier: true },
      { name: 'Name', reference: STRING, length: 60, mandatory: true },
      ...desc,
      { name: 'C_RfQ_Topic_ID', reference: TABLE_DIRECT, mandatory: true },
      { name: 'QuoteType', reference: LIST, referenceValue: QUOTE_TYPE_REFERENCE, length: 1, mandatory: true, defaultValue: 'S' },
      { name: 'IsQuoteTotalAmt', reference: YES_NO, defaultValue: 'N', mandatory: true },
      { name: 'IsQuoteAllQty', reference: YES_NO, defaultValue: 'N', mandatory: true },
      { name: 'IsInvitedVendorsOnly', reference: YES_NO, defaultValue: 'N', mandatory: true },
      { name: 'IsRfQResponseAccepted', reference: YES_NO, defaultValue: 'Y', mandatory: true },
      { name: 'IsSelfService', reference: YES_NO, defaultValue: 'Y', mandatory: true },
      { name: 'C_Currency_ID', reference: TABLE_DIRECT, mandatory: true },
      { name: 'DateResponse', reference: DATE_TIME, mandatory: true },
      ...work,
      { name: 'SalesRep_ID', reference: TABLE, referenceValue: SALES_REP_REFERENCE, mandatory: true, defaultValue: '@#AD_User_ID@' },
      { name: 'C_BPartner_ID', reference: SEARCH },
      { name: 'C_BPartner_Location_ID', reference: TABLE_DIRECT },
      { name: 'AD_User_ID', reference: TABLE_DIRECT },
      { name: 'Margin', reference: NUMBER },
      { name: 'C_Order_ID', reference: SEARCH, updateable: false },
      done,
    ],
  },
  {
    id: 676, name: 'C_RfQLine', title: 'RfQ Line', accessLevel: '1',
    columns: [
      { name: 'C_RfQ_ID', reference: TABLE_DIRECT, mandatory: true, parent: true },
      { name: 'Line', reference: INTEGER, mandatory: true, identifier: true },
      { name: 'M_Product_ID', reference: SEARCH },
      ...desc,
      ...work,
    ],
  },
  {
    id: 675, name: 'C_RfQLineQty', title: 'RfQ Line Quantity', accessLevel: '1',
    columns: [
      { name: 'C_RfQLine_ID', reference: TABLE_DIRECT, mandatory: true, parent: true },
      { name: 'C_UOM_ID', reference: TABLE_DIRECT, mandatory: true, identifier: true },
      { name: 'Qty', reference: QUANTITY, mandatory: true, defaultValue: '1' },
      { name: 'IsPurchaseQty', reference: YES_NO, defaultValue: 'N', mandatory: true },
      { name: 'IsRfQQty', reference: YES_NO, defaultValue: 'Y', mandatory: true },
      { name: 'IsOfferQty', reference: YES_NO, defaultValue: 'N', mandatory: true },
      { name: 'BenchmarkPrice', reference: PRICE, defaultValue: '0', mandatory: true },
      { name: 'BestResponseAmt', reference: AMOUNT, updateable: false },
      { name: 'Margin', reference: NUMBER },
      { name: 'OfferAmt', reference: AMOUNT },
    ],
  },
  {
    id: 674, name: 'C_RfQResponse', title: 'RfQ Response', accessLevel: '1',
    columns: [
      { name: 'C_RfQ_ID', reference: TABLE_DIRECT, mandatory: true, parent: true },
      { name: 'Name', reference: STRING, length: 60, mandatory: true, identifier: true },
      ...desc,
      { name: 'C_BPartner_ID', reference: SEARCH, mandatory: true },
      { name: 'C_BPartner_Location_ID', reference: TABLE_DIRECT, mandatory: true },
      { name: 'AD_User_ID', reference: TABLE_DIRECT },
      { name: 'C_Currency_ID', reference: TABLE_DIRECT, mandatory: true },
      { name: 'Price', reference: PRICE, defaultValue: '0', mandatory: true },
      { name: 'IsComplete', reference: YES_NO, defaultValue: 'N', mandatory: true },
      { name: 'IsSelectedWinner', reference: YES_NO, defaultValue: 'N', mandatory: true },
      { name: 'IsSelfService', reference: YES_NO, defaultValue: 'N', mandatory: true },
      { name: 'Ranking', reference: INTEGER, defaultValue: '0', updateable: false },
      { name: 'DateInvited', reference: DATE_TIME },
      { name: 'DateResponse', reference: DATE_TIME },
      ...work,
      { name: 'C_Order_ID', reference: SEARCH, updateable: false },
      done,
    ],
  },
  {
    id: 673, name: 'C_RfQResponseLine', title: 'RfQ Response Line', accessLevel: '1',
    columns: [
      { name: 'C_RfQResponse_ID', reference: TABLE_DIRECT, mandatory: true, parent: true },
      { name: 'C_RfQLine_ID', reference: TABLE_DIRECT, mandatory: true, identifier: true, updateable: false },
      { name: 'IsSelectedWinner', reference: YES_NO, defaultValue: 'N', mandatory: true },
      { name: 'IsSelfService', reference: YES_NO, defaultValue: 'N', mandatory: true },
      ...desc,
      ...work,
    ],
  },
  {
    id: 672, name: 'C_RfQResponseLineQty', title: 'RfQ Response Line Quantity', accessLevel: '1',
    columns: [
      { name: 'C_RfQResponseLine_ID', reference: TABLE_DIRECT, mandatory: true, parent: true },
      { name: 'C_RfQLineQty_ID', reference: TABLE_DIRECT, mandatory: true, identifier: true, updateable: false },
      { name: 'Price', reference: PRICE, defaultValue: '0', mandatory: true },
      { name: 'Discount', reference: NUMBER },
      { name: 'Ranking', reference: INTEGER, defaultValue: '0', updateable: false },
    ],
  },
];
