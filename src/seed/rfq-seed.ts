import type { Tx } from '../db/types.js';
import { createTableStatements } from '../dictionary/ddl.js';
import { loadDictionary } from '../dictionary/load.js';
import { createTableSequenceRows, FIRST_USER_ID, readSeed, seedTable } from './bootstrap.js';
import { insertSeedRows } from './insert-rows.js';
import { addProcesses } from './payrun-seed.js';
import { QUOTE_TYPE_REFERENCE, QUOTE_TYPES, RFQ_TABLES, SEARCH, YES_NO, type ColumnSpec } from '../documents/rfq/rfq-dictionary.js';

export const CREATE_RESPONSES_CLASS = 'org.compiere.process.RfQCreate';
export const RANK_RESPONSES_CLASS = 'org.compiere.process.RfQResponseRank';
export const CREATE_PO_FROM_RFQ_CLASS = 'org.compiere.process.RfQCreatePO';
export const CLOSE_RFQ_CLASS = 'org.compiere.process.RfQClose';

const SYSTEM = { AD_Client_ID: 0, AD_Org_ID: 0, EntityType: 'D' };
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

/** The standard columns of every table: [column, reference, extra]; their elements are the seed's. */
export const STANDARD: readonly [string, number, Record<string, unknown>][] = [
  ['AD_Client_ID', 19, { AD_Val_Rule_ID: 129, DefaultValue: '@#AD_Client_ID@', IsUpdateable: 'N', IsMandatory: 'Y' }],
  ['AD_Org_ID', 19, { AD_Val_Rule_ID: 104, DefaultValue: '@#AD_Org_ID@', IsMandatory: 'Y' }],
  ['IsActive', 20, { FieldLength: 1, DefaultValue: 'Y', IsMandatory: 'Y' }],
  ['Created', 16, { FieldLength: 7, DefaultValue: 'SYSDATE', IsUpdateable: 'N', IsMandatory: 'Y' }],
  ['CreatedBy', 18, { AD_Reference_Value_ID: 110, IsUpdateable: 'N', IsMandatory: 'Y' }],
  ['Updated', 16, { FieldLength: 7, DefaultValue: 'SYSDATE', IsUpdateable: 'N', IsMandatory: 'Y' }],
  ['UpdatedBy', 18, { AD_Reference_Value_ID: 110, IsUpdateable: 'N', IsMandatory: 'Y' }],
];

/** The element of each column name: an existing one, else one of `added` (numbered from `firstId`). */
export async function elementIds(
  tx: Tx,
  names: string[],
  now: string,
  added: readonly [column: string, name: string][] = NEW_ELEMENTS,
  firstId = FIRST_ELEMENT_ID,
): Promise<Map<string, { id: number; name: string }>> {
  const { dict } = readSeed();
  const { rows } = await tx.query<{ id: number; c: string; name: string }>(
    `SELECT ad_element_id AS id, lower(columnname) AS c, name FROM ad_element WHERE lower(columnname) = ANY($1::text[])`,
    [names.map((n) => n.toLowerCase())],
  );
  const out = new Map(rows.map((r) => [r.c, { id: Number(r.id), name: r.name }]));
  const missing = added.map(([column, name], n) => ({ column, name, id: firstId + n })).filter((e) => !out.has(e.column.toLowerCase()));
  await insertSeedRows(tx, seedTable(dict, 'AD_Element'), missing.map((e) => ({ AD_Element_ID: e.id, ColumnName: e.column, Name: e.name, PrintName: e.name, ...SYSTEM })), now, { skipExisting: true });
  for (const e of missing) out.set(e.column.toLowerCase(), { id: e.id, name: e.name });
  return out;
}

export function columnRow(spec: ColumnSpec, id: number, tableId: number, element: { id: number; name: string }): Record<string, unknown> {
  const isFlag = spec.reference === YES_NO;
  return {
    AD_Column_ID: id, AD_Table_ID: tableId, ColumnName: spec.name, Name: element.name, AD_Element_ID: element.id, AD_Reference_ID: spec.reference,
    AD_Reference_Value_ID: spec.referenceValue ?? null, FieldLength: spec.length ?? (isFlag ? 1 : spec.reference === SEARCH ? 10 : 22), DefaultValue: spec.defaultValue ?? null,
    IsKey: 'N', IsParent: spec.parent ? 'Y' : 'N', IsMandatory: spec.mandatory ? 'Y' : 'N', IsUpdateable: spec.parent || spec.updateable === false ? 'N' : 'Y',
    IsIdentifier: spec.identifier ? 'Y' : 'N', SeqNo: spec.identifier ? 1 : 0, IsSelectionColumn: 'N', IsTranslated: 'N', IsEncrypted: 'N', IsSecure: 'N', IsAlwaysUpdateable: 'N', ...SYSTEM,
  };
}

/** The RfQ tables in the dictionary (AD_Table, AD_Column, AD_Element, the RfQ type list) and in the database. */
async function addRfqTables(tx: Tx, now: string): Promise<void> {
  const { dict } = readSeed();
  const skip = { skipExisting: true };
  await insertSeedRows(tx, seedTable(dict, 'AD_Reference'), [{ AD_Reference_ID: QUOTE_TYPE_REFERENCE, Name: 'C_RfQ QuoteType', ValidationType: 'L', ...SYSTEM }], now, skip);
  await insertSeedRows(
    tx,
    seedTable(dict, 'AD_Ref_List'),
    QUOTE_TYPES.map(([value, name], n) => ({ AD_Ref_List_ID: FIRST_LIST_ID + n, AD_Reference_ID: QUOTE_TYPE_REFERENCE, Value: value, Name: name, ...SYSTEM })),
    now,
    skip,
  );
  const names = [...STANDARD.map(([column]) => column), ...RFQ_TABLES.flatMap((t) => [`${t.name}_ID`, `${t.name}_UU`, ...t.columns.map((c) => c.name)])];
  const elements = await elementIds(tx, names, now);
  const element = (column: string) => elements.get(column.toLowerCase())!;
  let nextColumn = FIRST_COLUMN_ID;
  const columns: Record<string, unknown>[] = [];
  for (const t of RFQ_TABLES) {
    for (const [column, reference, extra] of STANDARD) {
      columns.push({ ...columnRow({ name: column, reference }, nextColumn++, t.id, element(column)), FieldLength: 10, ...extra });
    }
    const key = element(`${t.name}_ID`);
    columns.push({ ...columnRow({ name: `${t.name}_ID`, reference: 13, mandatory: true, updateable: false }, nextColumn++, t.id, key), IsKey: 'Y', FieldLength: 10 });
    columns.push({ ...columnRow({ name: `${t.name}_UU`, reference: 10, length: 36, updateable: false }, nextColumn++, t.id, element(`${t.name}_UU`)) });
    for (const c of t.columns) columns.push(columnRow(c, nextColumn++, t.id, element(c.name)));
  }
  await insertSeedRows(
    tx,
    seedTable(dict, 'AD_Table'),
    RFQ_TABLES.map((t) => ({
      AD_Table_ID: t.id, TableName: t.name, Name: t.title, AccessLevel: t.accessLevel, IsView: 'N', IsDeleteable: 'Y', IsHighVolume: 'N', IsChangeLog: 'N',
      IsSecurityEnabled: 'N', ReplicationType: 'L', ...SYSTEM,
    })),
    now,
    skip,
  );
  await insertSeedRows(tx, seedTable(dict, 'AD_Column'), columns, now, skip);
  const loaded = await loadDictionary(tx);
  const tables = RFQ_TABLES.map((t) => loaded.byName.get(t.name.toLowerCase())!);
  for (const table of tables) for (const stmt of createTableStatements(table, FIRST_USER_ID)) await tx.query(stmt);
  await createTableSequenceRows(tx, loaded, tables, now);
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
