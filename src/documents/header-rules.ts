import { ident, SqlBuilder } from '../db/sql.js';
import type { Tx } from '../db/types.js';
import type { ModelEvent } from '../events/model-events.js';
import type { DocumentKind } from './document-kinds.js';
import { documentTypeRow, documentTypeRule } from './document-types.js';
import { versionOnDate } from './pricing.js';
import { recomputeDocument } from './totals.js';
import { fillEmpty, fillUnset, idOf, invalid, isDefaulted, isEmptyValue, nowTimestamp, todayDate } from './row-values.js';

interface PartnerFacts {
  name: string;
  isactive: string;
  m_pricelist_id: number | null;
  po_pricelist_id: number | null;
  c_paymentterm_id: number | null;
  po_paymentterm_id: number | null;
  salesrep_id: number | null;
  paymentrule: string | null;
  paymentrulepo: string | null;
  invoicerule: string | null;
  deliveryrule: string | null;
  deliveryviarule: string | null;
  freightcostrule: string | null;
  ship_location_id: number | null;
  bill_location_id: number | null;
  contact_id: number | null;
  bill_contact_id: number | null;
}

const clientOf = (e: ModelEvent): number => Number(e.row.ad_client_id ?? e.auth.clientId);

/** A location of the partner: ship-to (or bill-to) ones first, then any active one. */
const locationOf = (flag: 'isshipto' | 'isbillto') =>
  `(SELECT l.c_bpartner_location_id FROM c_bpartner_location l WHERE l.c_bpartner_id = b.c_bpartner_id AND l.isactive = 'Y'
     ORDER BY CASE WHEN l.${flag} = 'Y' THEN 0 ELSE 1 END, l.c_bpartner_location_id LIMIT 1)`;

const PARTNER_SQL = `SELECT b.name, b.isactive, b.m_pricelist_id, b.po_pricelist_id, b.c_paymentterm_id, b.po_paymentterm_id, b.salesrep_id,
    b.paymentrule, b.paymentrulepo, b.invoicerule, b.deliveryrule, b.deliveryviarule, b.freightcostrule,
    ${locationOf('isshipto')} AS ship_location_id,
    ${locationOf('isbillto')} AS bill_location_id,
    (SELECT u.ad_user_id FROM ad_user u WHERE u.c_bpartner_id = b.c_bpartner_id AND u.isactive = 'Y' ORDER BY u.ad_user_id LIMIT 1) AS contact_id,
    (SELECT u.ad_user_id FROM ad_user u WHERE u.c_bpartner_id = b.c_bpartner_id AND u.isactive = 'Y'
       ORDER BY CASE WHEN u.isbillto = 'Y' THEN 0 ELSE 1 END, u.ad_user_id LIMIT 1) AS bill_contact_id
  FROM c_bpartner b WHERE b.c_bpartner_id = $1 AND b.ad_client_id IN (0, $2)`;

/** The partner a document names, refused (400) when it is unknown, inactive or has no address. */
async function partnerFacts(e: ModelEvent, bpId: number): Promise<PartnerFacts> {
  const { rows } = await e.tx.query<PartnerFacts>(PARTNER_SQL, [bpId, clientOf(e)], { name: 'doc_partner' });
  const bp = rows[0];
  if (!bp) throw invalid(`Business partner ${bpId} not found for column C_BPartner_ID`);
  if (bp.isactive !== 'Y') throw invalid(`Business partner ${bp.name} is not active (column C_BPartner_ID)`);
  if (idOf(bp.ship_location_id) === null) throw invalid(`Business partner ${bp.name} has no location: fill C_BPartner_Location_ID`);
  return bp;
}

async function defaultPriceList(tx: Tx, isSOTrx: boolean, clientId: number): Promise<number | null> {
  const { rows } = await tx.query<{ id: number }>(
    `SELECT m_pricelist_id AS id FROM m_pricelist WHERE issopricelist = $1 AND isactive = 'Y' AND ad_client_id IN (0, $2)
      ORDER BY CASE WHEN isdefault = 'Y' THEN 0 ELSE 1 END, ad_client_id DESC, m_pricelist_id LIMIT 1`,
    [isSOTrx ? 'Y' : 'N', clientId],
    { name: 'doc_default_pricelist' },
  );
  return rows.length ? Number(rows[0]!.id) : null;
}

async function defaultPaymentTerm(tx: Tx, clientId: number): Promise<number | null> {
  const { rows } = await tx.query<{ id: number }>(
    `SELECT c_paymentterm_id AS id FROM c_paymentterm WHERE isactive = 'Y' AND ad_client_id IN (0, $1)
      ORDER BY CASE WHEN isdefault = 'Y' THEN 0 ELSE 1 END, ad_client_id DESC, c_paymentterm_id LIMIT 1`,
    [clientId],
    { name: 'doc_default_paymentterm' },
  );
  return rows.length ? Number(rows[0]!.id) : null;
}

interface PriceListFacts {
  c_currency_id: number;
  istaxincluded: string;
  enforcepricelimit: string | null;
  stdprecision: number;
}

/** Currency and tax inclusion follow the price list. */
async function applyPriceList(e: ModelEvent): Promise<void> {
  const priceListId = idOf(e.row.m_pricelist_id);
  if (priceListId === null) return;
  const { rows } = await e.tx.query<PriceListFacts>(
    `SELECT pl.c_currency_id, pl.istaxincluded, pl.enforcepricelimit, COALESCE(c.stdprecision, 2) AS stdprecision
       FROM m_pricelist pl LEFT JOIN c_currency c ON c.c_currency_id = pl.c_currency_id WHERE pl.m_pricelist_id = $1`,
    [priceListId],
    { name: 'doc_pricelist' },
  );
  const pl = rows[0];
  if (!pl) return;
  e.memo.set('m_pricelist', `facts:${priceListId}`, pl);
  if (e.table.byName.has('c_currency_id') && idOf(pl.c_currency_id) !== null) e.row.c_currency_id = Number(pl.c_currency_id);
  if (e.table.byName.has('istaxincluded')) e.row.istaxincluded = pl.istaxincluded === 'Y' ? 'Y' : 'N';
}

/** The client's default document type of a base type (for sales orders the standard order first). */
async function defaultDocType(tx: Tx, docBaseType: string, clientId: number): Promise<number | null> {
  const { rows } = await tx.query<{ id: number }>(
    `SELECT c_doctype_id AS id FROM c_doctype WHERE docbasetype = $1 AND isactive = 'Y' AND ad_client_id IN (0, $2)
      ORDER BY CASE WHEN isdefault = 'Y' THEN 0 ELSE 1 END, CASE WHEN docsubtypeso = 'SO' THEN 0 ELSE 1 END, ad_client_id DESC, c_doctype_id LIMIT 1`,
    [docBaseType, clientId],
    { name: 'doc_default_doctype' },
  );
  return rows.length ? Number(rows[0]!.id) : null;
}

/** The document type a column names (read once per operation), or null. */
const docTypeFacts = (e: ModelEvent, id: number | null) => (id === null ? Promise.resolve(null) : documentTypeRow(e.tx, e.memo, id));

/**
 * Sales or purchase follows the target document type, unless an order the invoice is created
 * from has decided it. A new document without a target type of its own kind (none, or only the
 * engine's stand-in) gets the client's default sales or purchase type, by IsSOTrx. A type of
 * another table or side that the caller names is kept, and refused by documentTypeBeforeSave.
 */
async function applyDocType(e: ModelEvent, kind: DocumentKind): Promise<void> {
  const rule = documentTypeRule(kind.header);
  let dt = await docTypeFacts(e, idOf(e.row.c_doctypetarget_id));
  const ownKind = dt !== null && rule.baseTypes.includes(String(dt.docbasetype ?? ''));
  if (!ownKind && e.type === 'before-new' && (isEmptyValue(e.row.c_doctypetarget_id) || (await isDefaulted(e, 'c_doctypetarget_id')))) {
    const id = await defaultDocType(e.tx, e.row.issotrx === 'Y' ? rule.defaults.sales : rule.defaults.purchase, clientOf(e));
    if (id !== null) {
      e.row.c_doctypetarget_id = id;
      dt = await docTypeFacts(e, id);
    }
  }
  if (!dt) return;
  const sideFromOrder = kind.headerKey !== 'c_order_id' && idOf(e.row.c_order_id) !== null;
  if ((dt.issotrx === 'Y' || dt.issotrx === 'N') && !sideFromOrder) e.row.issotrx = dt.issotrx;
  if (e.table.byName.has('docbasetype') && dt.docbasetype && (isEmptyValue(e.row.docbasetype) || e.type === 'before-change')) e.row.docbasetype = dt.docbasetype;
}

/**
 * Partner columns of a document from its business partner: address, invoice partner and address,
 * contacts, and (on new documents) price list, payment term, sales representative and rules.
 * `keep` names columns the caller set in this write, which are left as they are.
 */
async function applyPartner(e: ModelEvent, bpId: number, keep: ReadonlySet<string>): Promise<void> {
  const bp = await partnerFacts(e, bpId);
  const row = e.row;
  const isNew = e.type === 'before-new';
  const set = async (column: string, value: unknown) => {
    if (!e.table.byName.has(column) || keep.has(column) || value === null || value === undefined) return;
    if (isNew) await fillUnset(e, column, value);
    else row[column] = value;
  };
  const isSOTrx = row.issotrx !== 'N';
  await set('c_bpartner_location_id', Number(bp.ship_location_id));
  if (e.table.byName.has('bill_bpartner_id') && !keep.has('bill_bpartner_id') && (!isNew || isEmptyValue(row.bill_bpartner_id))) row.bill_bpartner_id = bpId;
  if (idOf(row.bill_bpartner_id) === bpId) await set('bill_location_id', idOf(bp.bill_location_id) ?? Number(bp.ship_location_id));
  await set('ad_user_id', idOf(bp.contact_id));
  if (idOf(row.bill_bpartner_id) === bpId) await set('bill_user_id', idOf(bp.bill_contact_id));
  if (!isNew) return;
  const clientId = clientOf(e);
  const priceList = idOf(isSOTrx ? bp.m_pricelist_id : bp.po_pricelist_id) ?? (await defaultPriceList(e.tx, isSOTrx, clientId));
  await set('m_pricelist_id', priceList);
  const term = idOf(isSOTrx ? bp.c_paymentterm_id : bp.po_paymentterm_id) ?? (await defaultPaymentTerm(e.tx, clientId));
  await set('c_paymentterm_id', term);
  await set('salesrep_id', idOf(bp.salesrep_id) ?? (e.auth.userId > 0 ? e.auth.userId : null));
  await set('paymentrule', isSOTrx ? bp.paymentrule : bp.paymentrulepo);
  for (const rule of ['invoicerule', 'deliveryrule', 'deliveryviarule', 'freightcostrule'] as const) await set(rule, bp[rule]);
}

/**
 * Defaults of a new order or invoice header, filling only what the row leaves empty (or holds as a
 * mere default): sales/purchase side and draft doc type (0) from the target document type; address,
 * invoice partner, contacts, price list, payment term, sales representative and rules from the
 * business partner; then the client's default price list and payment term, the login's sales
 * representative and warehouse, and today's dates. Currency and tax inclusion follow the price list.
 */
export async function headerBeforeNew(e: ModelEvent, kind: DocumentKind): Promise<void> {
  const row = e.row;
  await applyDocType(e, kind);
  if (e.table.byName.has('c_doctype_id') && (row.c_doctype_id === null || row.c_doctype_id === undefined)) row.c_doctype_id = 0;
  const bpId = idOf(row.c_bpartner_id);
  if (bpId !== null) await applyPartner(e, bpId, new Set());
  if (idOf(row.m_pricelist_id) === null) fillEmpty(e, 'm_pricelist_id', await defaultPriceList(e.tx, row.issotrx !== 'N', clientOf(e)));
  if (idOf(row.c_paymentterm_id) === null) fillEmpty(e, 'c_paymentterm_id', await defaultPaymentTerm(e.tx, clientOf(e)));
  if (e.table.byName.has('salesrep_id') && e.auth.userId > 0) fillEmpty(e, 'salesrep_id', e.auth.userId);
  await applyPriceList(e);
  if (e.table.byName.has('m_warehouse_id') && e.auth.warehouseId > 0) fillEmpty(e, 'm_warehouse_id', e.auth.warehouseId);
  const today = todayDate();
  for (const date of [kind.dateColumn, 'dateacct', 'datepromised']) fillEmpty(e, date, today);
}

/**
 * A header created in this operation is what its lines' rules would read and lock: it is kept
 * for them, with its currency precision and price limit rule, from the price list read before.
 */
export async function headerAfterNew(e: ModelEvent, kind: DocumentKind): Promise<void> {
  const priceListId = idOf(e.row.m_pricelist_id);
  const pl = priceListId === null ? undefined : await e.memo.peek<PriceListFacts>('m_pricelist', `facts:${priceListId}`);
  if (!pl || idOf(pl.c_currency_id) !== idOf(e.row.c_currency_id)) return;
  const headerId = idOf(e.row[kind.headerKey]);
  if (headerId !== null) e.memo.set(kind.header, `locked:${headerId}`, { ...e.row, doc_precision: pl.stdprecision, doc_enforce_limit: pl.enforcepricelimit });
}

/** Whether a document has lines with a product (their prices came from its price list). */
async function hasProductLines(tx: Tx, kind: DocumentKind, headerId: unknown): Promise<boolean> {
  const { rows } = await tx.query(`SELECT 1 FROM ${ident(kind.line)} WHERE ${ident(kind.headerKey)} = $1 AND m_product_id > 0 LIMIT 1`, [headerId]);
  return rows.length > 0;
}

/** Whether two dates fall into the same version of a price list. */
async function sameVersion(tx: Tx, priceListId: unknown, before: unknown, after: unknown): Promise<boolean> {
  const { rows } = await tx.query<{ same: boolean }>(
    `SELECT ${versionOnDate('$1', '$2')} IS NOT DISTINCT FROM ${versionOnDate('$1', '$3')} AS same`,
    [priceListId, before, after],
  );
  return rows[0]?.same === true;
}

/**
 * Changes of an order or invoice header: a new partner brings its address and contacts, a new
 * document type its sales/purchase side, a new price list its currency and tax inclusion. Once
 * product lines are priced, the price list cannot change, nor the date move to another version.
 */
export async function headerBeforeChange(e: ModelEvent, kind: DocumentKind): Promise<void> {
  const { row, changed } = e;
  const headerId = row[kind.headerKey];
  if (changed.has('c_doctypetarget_id')) await applyDocType(e, kind);
  if (changed.has('c_bpartner_id')) {
    const bpId = idOf(row.c_bpartner_id);
    if (bpId !== null) await applyPartner(e, bpId, changed);
  }
  if (changed.has('m_pricelist_id') || changed.has(kind.dateColumn)) {
    if (await hasProductLines(e.tx, kind, headerId)) {
      if (changed.has('m_pricelist_id')) throw invalid(`Cannot change M_PriceList_ID: the ${kind.name} has product lines priced from its price list`);
      if (!(await sameVersion(e.tx, row.m_pricelist_id, e.old?.[kind.dateColumn], row[kind.dateColumn]))) {
        throw invalid(`Cannot change ${e.table.byName.get(kind.dateColumn)?.name ?? kind.dateColumn}: the new date falls into another price list version`);
      }
    }
    if (changed.has('m_pricelist_id')) await applyPriceList(e);
  }
}

/** Header columns its lines carry a copy of; a change of the header is copied to them. */
const LINE_COPIES = ['ad_org_id', 'c_bpartner_id', 'c_bpartner_location_id', 'dateordered', 'datepromised', 'm_warehouse_id', 'm_shipper_id', 'c_currency_id'];

/**
 * After a header change: the lines take the new values of the header columns they copy (one
 * UPDATE, without the lines' own model events), and a change that affects tax math (tax
 * inclusion, currency precision) recomputes the tax rows and totals.
 */
export async function headerAfterChange(e: ModelEvent, kind: DocumentKind): Promise<void> {
  const lineTable = e.dict.byName.get(kind.line);
  const copies = LINE_COPIES.filter((c) => e.changed.has(c) && e.table.byName.has(c) && lineTable?.byName.has(c));
  if (copies.length) {
    const sql = new SqlBuilder();
    const headerId = sql.param(e.row[kind.headerKey]);
    const sets = copies.map((c) => `${ident(c)} = ${sql.param(e.row[c])}`);
    sets.push(`updated = ${sql.param(nowTimestamp())}::timestamp`, `updatedby = ${sql.param(e.auth.userId)}`);
    await e.tx.query(`UPDATE ${ident(kind.line)} SET ${sets.join(', ')} WHERE ${ident(kind.headerKey)} = ${headerId}`, sql.values);
  }
  if (e.changed.has('istaxincluded') || e.changed.has('c_currency_id')) await recomputeDocument(e, kind, e.row[kind.headerKey]);
}
