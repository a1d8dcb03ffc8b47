import type { ModelEvent, Row } from '../../events/model-events.js';
import { mul, round, toText } from '../decimal.js';
import { productFacts } from '../pricing.js';
import { fillEmpty, idOf, invalid, isEmptyValue, todayDate } from '../row-values.js';
import { documentTypeRow } from '../document-types.js';
import { currentVendor, vendorPrices } from '../buying/vendor-price.js';

/**
 * A new requisition: the client's requisition document type (POR), the requesting user, today's
 * document and required dates, the user's (else the organization's first) warehouse, the client's
 * default purchase price list, priority medium. A document type must be a requisition type.
 */
export async function requisitionBeforeSave(e: ModelEvent): Promise<void> {
  const row = e.row;
  const clientId = Number(row.ad_client_id ?? e.auth.clientId);
  if (e.type === 'before-new') {
    if (idOf(row.c_doctype_id) === null) {
      const { rows } = await e.tx.query<{ id: number }>(
        `SELECT c_doctype_id AS id FROM c_doctype WHERE ad_client_id IN (0, $1) AND docbasetype = 'POR' AND isactive = 'Y' ORDER BY isdefault DESC, ad_client_id DESC, c_doctype_id LIMIT 1`,
        [clientId],
      );
      fillEmpty(e, 'c_doctype_id', rows[0]?.id);
    }
    fillEmpty(e, 'ad_user_id', e.auth.userId);
    for (const c of ['datedoc', 'daterequired']) fillEmpty(e, c, todayDate());
    fillEmpty(e, 'priorityrule', '5');
    if (e.auth.warehouseId > 0) fillEmpty(e, 'm_warehouse_id', e.auth.warehouseId);
    if (idOf(row.m_warehouse_id) === null) {
      const { rows } = await e.tx.query<{ id: number }>(`SELECT m_warehouse_id AS id FROM m_warehouse WHERE ad_client_id = $1 AND ad_org_id = $2 AND isactive = 'Y' ORDER BY m_warehouse_id LIMIT 1`, [
        clientId,
        row.ad_org_id ?? e.auth.orgId,
      ]);
      fillEmpty(e, 'm_warehouse_id', rows[0]?.id);
    }
    if (idOf(row.m_pricelist_id) === null) {
      const { rows } = await e.tx.query<{ id: number }>(
        `SELECT m_pricelist_id AS id FROM m_pricelist WHERE ad_client_id = $1 AND issopricelist = 'N' AND isactive = 'Y' ORDER BY isdefault DESC, m_pricelist_id LIMIT 1`,
        [clientId],
      );
      fillEmpty(e, 'm_pricelist_id', rows[0]?.id);
    }
  }
  const dtId = idOf(row.c_doctype_id);
  const dt = dtId === null ? null : await documentTypeRow(e.tx, e.memo, dtId);
  if (dt && dt.docbasetype !== 'POR') throw invalid(`Document type ${dt.name} is not a requisition document type (POR) (column C_DocType_ID)`);
}

const HEADER_SQL = `SELECT h.m_requisition_id, h.documentno, h.processed, h.m_pricelist_id, h.datedoc, h.ad_client_id, pl.c_currency_id, COALESCE(c.stdprecision, 2) AS precision,
    (SELECT COALESCE(max(l.line), 0) FROM m_requisitionline l WHERE l.m_requisition_id = h.m_requisition_id) AS max_line
  FROM m_requisition h LEFT JOIN m_pricelist pl ON pl.m_pricelist_id = h.m_pricelist_id LEFT JOIN c_currency c ON c.c_currency_id = pl.c_currency_id
 WHERE h.m_requisition_id = $1`;

/** A product's price for a requisition: its price on the requisition's price list, else its vendor's (the line's, else the current one). */
async function requisitionPrice(e: ModelEvent, header: Row, productId: number): Promise<string | number | null> {
  const date = header.datedoc instanceof Date ? header.datedoc.toISOString() : String(header.datedoc ?? todayDate());
  const facts = await productFacts(e.tx, e.memo, productId, { priceListId: idOf(header.m_pricelist_id), date, isSOTrx: false, clientId: Number(header.ad_client_id) });
  if (facts?.pricestd !== null && facts?.pricestd !== undefined) return facts.pricestd;
  const vendor = idOf(e.row.c_bpartner_id) ?? (await currentVendor(e.tx, productId));
  return (await vendorPrices(e.tx, productId, vendor, idOf(header.c_currency_id)))?.pricestd ?? null;
}

/**
 * A requisition line: a product (with its unit) or a charge; its price from the price list or the
 * vendor unless given; LineNetAmt = Qty × PriceActual at the price list's currency precision; the
 * next line number. Lines of a processed requisition cannot change.
 */
export async function requisitionLineBeforeSave(e: ModelEvent): Promise<void> {
  const row = e.row;
  const isNew = e.type === 'before-new';
  const header = (await e.tx.query<Row>(HEADER_SQL, [row.m_requisition_id])).rows[0];
  if (!header) throw invalid(`Requisition ${String(row.m_requisition_id)} not found for column M_Requisition_ID`);
  if (header.processed === 'Y') throw invalid(`Requisition ${String(header.documentno)} is processed: its lines cannot change (column M_Requisition_ID)`);
  const productId = idOf(row.m_product_id);
  if (productId === null && idOf(row.c_charge_id) === null) throw invalid('A requisition line names a product or a charge (column M_Product_ID)');
  if (productId !== null && (isNew || e.changed.has('m_product_id') || e.changed.has('c_bpartner_id'))) {
    const { rows } = await e.tx.query<{ c_uom_id: number }>('SELECT c_uom_id FROM m_product WHERE m_product_id = $1', [productId]);
    fillEmpty(e, 'c_uom_id', rows[0]?.c_uom_id);
    const given = isNew ? e.given?.has('priceactual') : e.changed.has('priceactual');
    if (!given) row.priceactual = (await requisitionPrice(e, header, productId)) ?? 0;
  }
  if (isEmptyValue(row.qty)) row.qty = 1;
  if (Number(row.qty) <= 0) throw invalid('The quantity of a requisition line must be positive (column Qty)');
  row.linenetamt = toText(round(mul(String(row.qty), String(row.priceactual ?? 0)), Number(header.precision)));
  if (isNew && isEmptyValue(row.line)) row.line = (Math.floor(Number(header.max_line) / 10) + 1) * 10;
}

/** The requisition's total is the sum of its lines'. */
export async function requisitionLineAfterSave(e: ModelEvent): Promise<void> {
  const id = e.row.m_requisition_id ?? e.old?.m_requisition_id;
  await e.tx.query(`UPDATE m_requisition SET totallines = COALESCE((SELECT sum(linenetamt) FROM m_requisitionline WHERE m_requisition_id = $1 AND isactive = 'Y'), 0) WHERE m_requisition_id = $1`, [id]);
  e.memo.forget('m_requisition');
}

/** A product has one current vendor: marking one current unmarks the others. */
export async function productPoAfterSave(e: ModelEvent): Promise<void> {
  if (e.row.iscurrentvendor !== 'Y') return;
  await e.tx.query(`UPDATE m_product_po SET iscurrentvendor = 'N' WHERE m_product_id = $1 AND m_product_po_id <> $2 AND iscurrentvendor = 'Y'`, [e.row.m_product_id, e.row.m_product_po_id]);
}
