import type { Tx } from '../../db/types.js';
import type { ModelEvent, Row } from '../../events/model-events.js';
import { fillEmpty, idOf, invalid, isEmptyValue } from '../row-values.js';
import { documentTypeRow } from '../document-types.js';
import { mul, round, toText } from '../decimal.js';

/** The shipment (or receipt) an RMA returns from: its side, partner, order and currency. */
const SHIPMENT_SQL = `SELECT io.m_inout_id, io.documentno, io.docstatus, io.issotrx, io.movementtype, io.c_bpartner_id, io.c_order_id, io.salesrep_id,
    COALESCE(o.c_currency_id, (SELECT pl.c_currency_id FROM m_pricelist pl WHERE pl.m_pricelist_id = o.m_pricelist_id),
             (SELECT a.c_currency_id FROM c_acctschema a JOIN ad_clientinfo ci ON ci.c_acctschema1_id = a.c_acctschema_id WHERE ci.ad_client_id = io.ad_client_id)) AS c_currency_id
  FROM m_inout io LEFT JOIN c_order o ON o.c_order_id = io.c_order_id
 WHERE io.m_inout_id = $1 AND io.ad_client_id = $2`;

/** The RMA document type of a side: sub type RM (Customer Return Material, Vendor Return Material). */
async function rmaDocType(tx: Tx, clientId: number, isSOTrx: string): Promise<number | null> {
  const { rows } = await tx.query<{ id: number }>(
    `SELECT c_doctype_id AS id FROM c_doctype WHERE ad_client_id IN (0, $1) AND docbasetype IN ('SOO', 'POO') AND docsubtypeso = 'RM' AND issotrx = $2 AND isactive = 'Y'
      ORDER BY CASE WHEN isdefault = 'Y' THEN 0 ELSE 1 END, c_doctype_id LIMIT 1`,
    [clientId, isSOTrx],
  );
  return idOf(rows[0]?.id);
}

/**
 * A new or changed RMA: what it returns (InOut_ID, a completed shipment to a customer or receipt
 * from a vendor) gives its side, partner, order, sales representative and currency; the document
 * type defaults to the side's Return Material type and must be one (sub type RM) of that side;
 * the RMA type and name default. Lines hold the RMA to its shipment, so it cannot change then.
 */
export async function rmaBeforeSave(e: ModelEvent): Promise<void> {
  const row = e.row;
  const isNew = e.type === 'before-new';
  const clientId = Number(row.ad_client_id ?? e.auth.clientId);
  const inoutId = idOf(row.inout_id);
  if (inoutId === null) throw invalid('An RMA returns what a shipment or receipt moved: InOut_ID is mandatory (column InOut_ID)');
  if (isNew || e.changed.has('inout_id')) {
    const io = (await e.tx.query<Row>(SHIPMENT_SQL, [inoutId, clientId])).rows[0];
    if (!io) throw invalid(`Shipment ${inoutId} not found for column InOut_ID`);
    if (io.docstatus !== 'CO' && io.docstatus !== 'CL') throw invalid(`Shipment ${String(io.documentno)} is not completed (status ${String(io.docstatus)}): only completed shipments and receipts are returned (column InOut_ID)`);
    if (io.movementtype !== 'C-' && io.movementtype !== 'V+') throw invalid(`${String(io.documentno)} is itself a return (column InOut_ID)`);
    if (!isNew) {
      const lines = await e.tx.query('SELECT 1 FROM m_rmaline WHERE m_rma_id = $1 LIMIT 1', [row.m_rma_id]);
      if (lines.rows.length) throw invalid('The RMA has lines of its shipment: delete them before it returns another one (column InOut_ID)');
    }
    row.issotrx = io.issotrx;
    row.c_bpartner_id = io.c_bpartner_id;
    row.c_order_id = io.c_order_id;
    fillEmpty(e, 'salesrep_id', io.salesrep_id);
    fillEmpty(e, 'c_currency_id', io.c_currency_id);
    if (isNew && isEmptyValue(row.name)) row.name = `Return of ${String(io.documentno)}`;
  }
  if (idOf(row.c_doctype_id) === null || (isNew && !e.given?.has('c_doctype_id'))) row.c_doctype_id = await rmaDocType(e.tx, clientId, String(row.issotrx));
  const dt = idOf(row.c_doctype_id) === null ? null : await documentTypeRow(e.tx, e.memo, idOf(row.c_doctype_id)!);
  if (!dt || dt.docsubtypeso !== 'RM' || dt.issotrx !== row.issotrx) {
    const side = row.issotrx === 'Y' ? 'customer' : 'vendor';
    throw invalid(`The document type of the RMA must be a ${side} Return Material type (sub type RM) for ${row.issotrx === 'Y' ? 'a shipment' : 'a receipt'} (column C_DocType_ID)`);
  }
  if (idOf(row.m_rmatype_id) === null) {
    const { rows } = await e.tx.query<{ id: number }>(`SELECT m_rmatype_id AS id FROM m_rmatype WHERE ad_client_id IN (0, $1) AND isactive = 'Y' ORDER BY m_rmatype_id LIMIT 1`, [clientId]);
    fillEmpty(e, 'm_rmatype_id', rows[0]?.id);
  }
}

/**
 * What a shipment line can still be returned: moved minus what the lines of other RMAs (not
 * voided) return. The lines are locked, so two RMAs cannot return the same quantity at once.
 */
export async function returnableQty(tx: Tx, inoutLineId: number, exceptRmaLineId: number | null): Promise<number> {
  const { rows } = await tx.query<{ moved: string; returned: string }>(
    `SELECT il.movementqty::text AS moved,
            COALESCE((SELECT sum(r.qty) FROM m_rmaline r JOIN m_rma h ON h.m_rma_id = r.m_rma_id
                       WHERE r.m_inoutline_id = il.m_inoutline_id AND r.isactive = 'Y' AND h.docstatus NOT IN ('VO', 'RE')
                         AND r.m_rmaline_id IS DISTINCT FROM $2), 0)::text AS returned
       FROM m_inoutline il WHERE il.m_inoutline_id = $1 FOR UPDATE OF il`,
    [inoutLineId, exceptRmaLineId],
  );
  return rows[0] ? Number(rows[0].moved) - Number(rows[0].returned) : 0;
}

const LINE_SOURCE_SQL = `SELECT h.m_rma_id, h.documentno, h.processed, h.inout_id, il.m_inout_id, il.m_product_id, il.c_charge_id, il.line AS shipline,
    ol.priceactual, ol.c_tax_id, (SELECT COALESCE(max(x.line), 0) FROM m_rmaline x WHERE x.m_rma_id = h.m_rma_id) AS max_line
  FROM m_rma h LEFT JOIN m_inoutline il ON il.m_inoutline_id = $2 LEFT JOIN c_orderline ol ON ol.c_orderline_id = il.c_orderline_id
 WHERE h.m_rma_id = $1`;

/**
 * An RMA line returns a line of the RMA's shipment: its product or charge, tax and price (the
 * order line's) come from it; the quantity defaults to what can still be returned, and more is
 * refused (the original's AmtReturned>Shipped); the amount is quantity × price.
 */
export async function rmaLineBeforeSave(e: ModelEvent): Promise<void> {
  const row = e.row;
  const isNew = e.type === 'before-new';
  const inoutLineId = idOf(row.m_inoutline_id);
  if (inoutLineId === null) throw invalid('An RMA line returns a shipment line: M_InOutLine_ID is mandatory (column M_InOutLine_ID)');
  const src = (await e.tx.query<Row>(LINE_SOURCE_SQL, [row.m_rma_id, inoutLineId])).rows[0];
  if (!src) throw invalid(`RMA ${String(row.m_rma_id)} not found for column M_RMA_ID`);
  if (src.processed === 'Y') throw invalid(`RMA ${String(src.documentno)} is processed: its lines cannot change (column M_RMA_ID)`);
  if (idOf(src.m_inout_id) === null || idOf(src.m_inout_id) !== idOf(src.inout_id)) throw invalid(`Shipment line ${inoutLineId} is not a line of the RMA's shipment (column M_InOutLine_ID)`);
  if (isNew || e.changed.has('m_inoutline_id')) {
    row.m_product_id = src.m_product_id;
    row.c_charge_id = src.c_charge_id;
    fillEmpty(e, 'c_tax_id', src.c_tax_id);
    if (isEmptyValue(row.amt) || !e.given?.has('amt')) row.amt = src.priceactual ?? 0;
  }
  const returnable = await returnableQty(e.tx, inoutLineId, isNew ? null : idOf(row.m_rmaline_id));
  if (isNew && !e.given?.has('qty')) row.qty = returnable;
  const qty = Number(row.qty ?? 0);
  if (qty <= 0) throw invalid('The quantity returned must be positive (column Qty)');
  if (qty > returnable) throw invalid(`Returned quantity ${qty} is more than shipped line ${String(src.shipline)} can still return (${returnable}) (column Qty)`);
  row.linenetamt = toText(round(mul(qty, String(row.amt ?? 0)), 2));
  if (isNew && isEmptyValue(row.line)) row.line = (Math.floor(Number(src.max_line) / 10) + 1) * 10;
}

/** The RMA's amount is the sum of its lines'. */
export async function rmaLineAfterSave(e: ModelEvent): Promise<void> {
  const rmaId = e.row.m_rma_id ?? e.old?.m_rma_id;
  await e.tx.query(`UPDATE m_rma SET amt = COALESCE((SELECT sum(linenetamt) FROM m_rmaline WHERE m_rma_id = $1 AND isactive = 'Y'), 0) WHERE m_rma_id = $1`, [rmaId]);
  e.memo.forget('m_rma');
}
