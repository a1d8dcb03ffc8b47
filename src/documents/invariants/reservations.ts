import type { Queryable } from '../../db/types.js';
import { text, type Violation } from './violation.js';

/** Order lines of stocked items with the warehouse they reserve in and what they should reserve once their order is completed. */
const LINES = `SELECT ol.c_orderline_id, ol.m_product_id, COALESCE(NULLIF(ol.m_warehouse_id, 0), o.m_warehouse_id) AS wh,
         COALESCE(ol.m_attributesetinstance_id, 0) AS asi, o.issotrx, o.docstatus, o.documentno, ol.line, COALESCE(ol.qtyreserved, 0) AS reserved,
         CASE WHEN o.docstatus IN ('CO', 'WP') AND COALESCE(dt.docsubtypeso, '') <> 'ON'
              THEN GREATEST(ol.qtyordered - COALESCE(ol.qtydelivered, 0), 0) ELSE 0 END AS owed
    FROM c_orderline ol
    JOIN c_order o ON o.c_order_id = ol.c_order_id
    LEFT JOIN c_doctype dt ON dt.c_doctype_id = COALESCE(o.c_doctype_id, o.c_doctypetarget_id)
    JOIN m_product p ON p.m_product_id = ol.m_product_id AND p.producttype = 'I' AND p.isstocked = 'Y'
   WHERE o.ad_client_id = $1`;

/**
 * What each order line reserves against what it still owes: a completed order (or one waiting for
 * its prepayment) QtyOrdered − QtyDelivered, never less than 0; a closed or voided order and a
 * proposal nothing. An order not completed (a draft, or one prepared, unlocked or re-activated and
 * being changed) keeps what its last prepare reserved, as the original, and is left out.
 */
const LINE_SQL = `WITH l AS (${LINES})
  SELECT c_orderline_id, documentno, line, docstatus, owed::text AS expected, reserved::text AS actual
    FROM l WHERE docstatus IN ('CO', 'WP', 'CL', 'VO') AND reserved <> owed ORDER BY c_orderline_id`;

/** M_StorageReservation per product, warehouse, attribute instance and side against the lines' QtyReserved. */
const STORAGE_SQL = `WITH l AS (${LINES}), e AS (
    SELECT m_product_id, wh, asi, issotrx, sum(reserved) AS qty FROM l GROUP BY 1, 2, 3, 4
  ), r AS (
    SELECT m_product_id, m_warehouse_id AS wh, COALESCE(m_attributesetinstance_id, 0) AS asi, issotrx, sum(qty) AS qty
      FROM m_storagereservation WHERE ad_client_id = $1 GROUP BY 1, 2, 3, 4
  )
  SELECT COALESCE(e.m_product_id, r.m_product_id) AS product, COALESCE(e.wh, r.wh) AS warehouse, COALESCE(e.asi, r.asi) AS asi,
         COALESCE(e.issotrx, r.issotrx) AS issotrx, COALESCE(e.qty, 0)::text AS expected, COALESCE(r.qty, 0)::text AS actual
    FROM e FULL JOIN r ON r.m_product_id = e.m_product_id AND r.wh = e.wh AND r.asi = e.asi AND r.issotrx = e.issotrx
   WHERE COALESCE(e.qty, 0) <> COALESCE(r.qty, 0)
   ORDER BY 1, 2, 3, 4`;

/** (d) Reserved (sales) and ordered (purchase) quantities equal what the open order lines still owe. */
export async function reservationDifferences(q: Queryable, clientId: number): Promise<Violation[]> {
  const lines = await q.query<{ c_orderline_id: number; documentno: string; line: number; docstatus: string; expected: string; actual: string }>(LINE_SQL, [clientId]);
  const storage = await q.query<{ product: number; warehouse: number; asi: number; issotrx: string; expected: string; actual: string }>(STORAGE_SQL, [clientId]);
  return [
    ...lines.rows.map((r) => ({
      check: 'reservation' as const,
      subject: { orderLine: Number(r.c_orderline_id) },
      expected: text(r.expected),
      actual: text(r.actual),
      detail: `line ${String(r.line)} of order ${r.documentno} (${r.docstatus}) owes ${r.expected} and reserves ${r.actual}`,
    })),
    ...storage.rows.map((r) => ({
      check: 'reservation' as const,
      subject: { product: Number(r.product), warehouse: Number(r.warehouse), asi: Number(r.asi), sales: r.issotrx },
      expected: text(r.expected),
      actual: text(r.actual),
      detail: `order lines reserve ${r.expected} (${r.issotrx === 'Y' ? 'sales' : 'purchase'}), M_StorageReservation holds ${r.actual}`,
    })),
  ];
}
