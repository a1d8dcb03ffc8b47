import type { Tx } from '../db/types.js';
import { loadDictionary } from '../dictionary/load.js';
import { insertSeedRows } from './insert-rows.js';
import { addProcesses } from './payrun-seed.js';
import { QUOTE_TYPE_REFERENCE, QUOTE_TYPES, RFQ_TABLES, SEARCH, YES_NO } from '../documents/rfq/rfq-dictionary.js';
import { addListReference, addSpecTables } from './spec-tables.js';

export const CREATE_RESPONSES_CLASS = 'org.compiere.process.RfQCreate';
export const RANK_RESPONSES_CLASS = 'org.compiere.process.RfQResponseRank';
export const CREATE_PO_FROM_RFQ_CLASS = 'org.compiere.process.RfQCreatePO';
export const CLOSE_RFQ_CLASS = 'org.compiere.process.RfQClose';

const FIRST_COLUMN_ID = 7000;
const FIRST_ELEMENT_ID = 3160;
/** The demo's RfQ topic and its two subscribed vendors (Seed Farm, Patio Fun). */
export const DEMO_TOPIC_ID = 1123000;
const DEMO_SUBSCRIBERS: readonly [id: number, bpartner: number, location: number][] = [
  [1123001, 120, 118],
  [1123002, 121, 119],
];
const FIRST_LIST_ID = 1123010;

/** Elements the data model lacked, by column name, with their names; existing elements of the same column name are used instead. */
const NEW_ELEMENTS: readonly [column: string, name: string][] = [
  ['C_RfQ_Topic_ID', 'RfQ Topic'], ['C_RfQ_Topic_UU', 'C_RfQ_Topic_UU'], ['C_RfQ_TopicSubscriber_ID', 'RfQ Subscriber'],
  ['C_RfQ_TopicSubscriber_UU', 'C_RfQ_TopicSubscriber_UU'], ['C_RfQ_ID', 'RfQ'], ['C_RfQ_UU', 'C_RfQ_UU'], ['C_RfQLine_ID', 'RfQ Line'],
  ['C_RfQLine_UU', 'C_RfQLine_UU'], ['C_RfQLineQty_ID', 'RfQ Line Quantity'], ['C_RfQLineQty_UU', 'C_RfQLineQty_UU'],
  ['C_RfQResponse_ID', 'RfQ Response'], ['C_RfQResponse_UU', 'C_RfQResponse_UU'], ['C_RfQResponseLine_ID', 'RfQ Response Line'],
  ['C_RfQResponseLine_UU', 'C_RfQResponseLine_UU'], ['C_RfQResponseLineQty_ID', 'RfQ Response Line Qty'], ['C_RfQResponseLineQty_UU', 'C_RfQResponseLineQty_UU'],
  ['QuoteType', 'RfQ Type'], ['IsQuoteTotalAmt', 'Quote Total Amt'], ['IsQuoteAllQty', 'Quote All Quantities'], ['IsInvitedVendorsOnly', 'Invited Vendors Only'],
  ['IsRfQResponseAccepted', 'Responses Accepted'], ['DateResponse', 'Response Date'], ['DateWorkStart', 'Work Start'], ['DateWorkComplete', 'Work Complete'],
  ['DeliveryDays', 'Delivery Days'], ['Margin', 'Margin %'], ['IsPurchaseQty', 'Purchase Quantity'], ['IsRfQQty', 'RfQ Quantity'], ['IsOfferQty', 'Offer Quantity'],
  ['BenchmarkPrice', 'Benchmark Price'], ['BestResponseAmt', 'Best Response Amount'], ['OfferAmt', 'Offer Amount'], ['IsSelectedWinner', 'Selected Winner'],
  ['Ranking', 'Ranking'], ['DateInvited', 'Invited'],
];

/** The RfQ tables in the dictionary (AD_Table, AD_Column, AD_Element, the RfQ type list) and in the database. */
async function addRfqTables(tx: Tx, now: string): Promise<void> {
  await addListReference(tx, { id: QUOTE_TYPE_REFERENCE, name: 'C_RfQ QuoteType' }, QUOTE_TYPES, FIRST_LIST_ID, now);
  await addSpecTables(tx, RFQ_TABLES, { firstColumnId: FIRST_COLUMN_ID, firstElementId: FIRST_ELEMENT_ID, newElements: NEW_ELEMENTS }, now);
}

/** The demo's topic "Garden supplies" with Seed Farm and Patio Fun subscribed. */
async function addDemoTopic(tx: Tx, now: string): Promise<void> {
  const loaded = await loadDictionary(tx);
  const skip = { skipExisting: true };
  const demo = { AD_Client_ID: 11, AD_Org_ID: 0 };
  await insertSeedRows(tx, loaded.byName.get('c_rfq_topic')!, [{ C_RfQ_Topic_ID: DEMO_TOPIC_ID, Name: 'Garden supplies', Description: 'Plants, seed and patio furniture bought for resale', ...demo }], now, skip);
  await insertSeedRows(
    tx,
    loaded.byName.get('c_rfq_topicsubscriber')!,
    DEMO_SUBSCRIBERS.map(([id, bp, location]) => ({ C_RfQ_TopicSubscriber_ID: id, C_RfQ_Topic_ID: DEMO_TOPIC_ID, C_BPartner_ID: bp, C_BPartner_Location_ID: location, SubscribeDate: now, ...demo })),
    now,
    skip,
  );
}

/**
 * Requests for quotation: their tables, the demo's topic with two subscribed vendors, and the
 * processes Create RfQ Response, Rank RfQ Responses, Create PO from RfQ and Close RfQ.
 */
export async function addRfqSeed(tx: Tx, now = new Date().toISOString()): Promise<void> {
  await addRfqTables(tx, now);
  await addDemoTopic(tx, now);
  await addProcesses(
    tx,
    [
      {
        id: 1123100, value: 'C_RfQ_Create', name: 'Create RfQ Response', classname: CREATE_RESPONSES_CLASS,
        description: 'Create a response with lines and quantities for each subscriber of the RfQ topic, or for one business partner',
        params: [
          [1123110, 'IsSendRfQ', 'Send RfQ', YES_NO, null, 'N'],
          [1123111, 'C_BPartner_ID', 'Business Partner', SEARCH],
        ],
      },
      { id: 1123101, value: 'C_RfQ_ResponseRank', name: 'Rank RfQ Responses', classname: RANK_RESPONSES_CLASS, description: 'Rank the complete responses by price and select the winner', params: [] },
      {
        id: 1123102, value: 'C_RfQ_CreatePO', name: 'Create Purchase Order', classname: CREATE_PO_FROM_RFQ_CLASS,
        description: 'Create a draft purchase order per winning vendor with the winning lines at the response prices',
        params: [[1123112, 'C_DocType_ID', 'Document Type', 19]],
      },
      { id: 1123103, value: 'C_RfQ_Close', name: 'Close RfQ', classname: CLOSE_RFQ_CLASS, description: 'Close the RfQ and its responses', params: [] },
    ],
    now,
  );
}
