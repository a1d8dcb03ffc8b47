import type { Row } from '../../events/model-events.js';
import { insertRecord } from '../../records/write/persist.js';
import { runDocumentAction } from '../engine/engine.js';
import { refuse, type DocumentContext } from '../engine/document-type.js';
import { docId } from '../engine/common.js';
import { todayDate } from '../row-values.js';

/**
 * What a confirmation ($1) did not confirm, per warehouse, locator, product and attribute instance:
 * the difference (target less confirmed) is lost at the locator moved from, the scrapped quantity
 * at the locator moved to; with the quantity on hand there now, which the count lowers by it.
 */
const WRITE_OFFS_SQL = `SELECT x.kind, l.m_warehouse_id, w.ad_org_id, x.m_locator_id, ml.m_product_id, x.asi, sum(x.qty) AS qty, array_agg(x.confirm_line_id) AS confirm_lines,
       (SELECT COALESCE(sum(s.qtyonhand), 0) FROM m_storageonhand s
         WHERE s.m_product_id = ml.m_product_id AND s.m_locator_id = x.m_locator_id AND s.m_attributesetinstance_id = x.asi) AS onhand
  FROM m_movementlineconfirm c
  JOIN m_movementline ml ON ml.m_movementline_id = c.m_movementline_id
  CROSS JOIN LATERAL (VALUES ('DifferenceQty', ml.m_locator_id, COALESCE(ml.m_attributesetinstance_id, 0), c.differenceqty, c.m_movementlineconfirm_id),
                             ('ScrappedQty', ml.m_locatorto_id, COALESCE(NULLIF(ml.m_attributesetinstanceto_id, 0), ml.m_attributesetinstance_id, 0), c.scrappedqty, c.m_movementlineconfirm_id))
       AS x(kind, m_locator_id, asi, qty, confirm_line_id)
  JOIN m_locator l ON l.m_locator_id = x.m_locator_id
  JOIN m_warehouse w ON w.m_warehouse_id = l.m_warehouse_id
 WHERE c.m_movementconfirm_id = $1 AND c.isactive = 'Y' AND x.qty <> 0
 GROUP BY x.kind, l.m_warehouse_id, w.ad_org_id, x.m_locator_id, ml.m_product_id, x.asi
 ORDER BY x.kind, l.m_warehouse_id, x.m_locator_id, ml.m_product_id`;

const COUNT_TYPE_SQL = `SELECT c_doctype_id FROM c_doctype WHERE ad_client_id = $1 AND docbasetype = 'MMI' AND docsubtypeinv = 'PI' AND isactive = 'Y'
 ORDER BY CASE WHEN isdefault = 'Y' THEN 0 ELSE 1 END, c_doctype_id LIMIT 1`;

/**
 * As the original's MMovementConfirm.createDifferenceDoc: what did not arrive is written off by a
 * physical inventory of the warehouse moved from, what arrived scrapped by one of the warehouse
 * moved to (one per warehouse and kind), completed with the confirmation. Each confirmation line
 * keeps the inventory line of its write-off, the confirmation its first inventory. Answers the
 * inventories' document numbers.
 */
export async function writeOffDifferences(d: DocumentContext): Promise<string[]> {
  const tx = d.wc.tx;
  const { rows } = await tx.query<Row>(WRITE_OFFS_SQL, [docId(d)]);
  if (!rows.length) return [];
  const type = await tx.query<{ c_doctype_id: number }>(COUNT_TYPE_SQL, [d.row.ad_client_id]);
  const docTypeId = type.rows[0]?.c_doctype_id;
  if (!docTypeId) throw refuse('the client has no Physical Inventory document type to write off the differences');
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    const key = `${String(r.kind)}:${String(r.m_warehouse_id)}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const table = d.wc.dict.byName.get('m_inventory')!;
  const numbers: string[] = [];
  for (const lines of groups.values()) {
    const first = lines[0]!;
    for (const l of lines) {
      if (Number(l.onhand) < Number(l.qty)) throw refuse(`the ${String(l.kind)} ${String(l.qty)} of product ${String(l.m_product_id)} is more than locator ${String(l.m_locator_id)} holds (${String(l.onhand)})`);
    }
    const created = await insertRecord(d.wc, table, {
      AD_Org_ID: Number(first.ad_org_id), M_Warehouse_ID: Number(first.m_warehouse_id), C_DocType_ID: Number(docTypeId), MovementDate: todayDate(),
      Description: `Move Confirm ${String(d.row.documentno)}`,
      M_InventoryLine: lines.map((l) => ({
        M_Locator_ID: Number(l.m_locator_id), M_Product_ID: Number(l.m_product_id), M_AttributeSetInstance_ID: Number(l.asi),
        QtyCount: Number(l.onhand) - Number(l.qty), Description: String(l.kind),
      })),
    });
    await d.wc.deferred.flush();
    const inventoryId = Number(created.row.m_inventory_id);
    const done = await runDocumentAction(d.wc, table, inventoryId, 'CO');
    if (done.status !== 'CO') throw refuse(`the inventory ${String(done.row.documentno)} ended in status ${done.status}`);
    numbers.push(String(done.row.documentno));
    await tx.query(
      `UPDATE m_movementlineconfirm c SET m_inventoryline_id = il.m_inventoryline_id
         FROM m_movementline ml, m_inventoryline il
        WHERE c.m_movementconfirm_id = $1 AND c.m_movementlineconfirm_id = ANY($3::bigint[]) AND ml.m_movementline_id = c.m_movementline_id
          AND il.m_inventory_id = $2 AND il.m_product_id = ml.m_product_id AND il.m_locator_id IN (ml.m_locator_id, ml.m_locatorto_id)`,
      [docId(d), inventoryId, lines.flatMap((l) => l.confirm_lines as unknown[])],
    );
    if (d.changes.m_inventory_id === undefined && d.row.m_inventory_id == null) d.changes.m_inventory_id = inventoryId;
  }
  return numbers;
}
