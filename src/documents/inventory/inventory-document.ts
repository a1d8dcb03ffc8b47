import { current, definiteNumberAndDate, docId, noReactivation, requireLines, requireOpenPeriod } from '../engine/common.js';
import { refuse, type DocumentContext, type DocumentType } from '../engine/document-type.js';
import type { ReversalDetail } from '../engine/reversal.js';
import { idOf, nowTimestamp } from '../row-values.js';
import { applyStockDeltas } from '../stock/movements.js';
import { refuseNegativeStock } from '../stock/negative-stock.js';
import { accrualOnVoidByMovementDate, reverseStockDocument } from '../stock/stock-reversal.js';
import { completeCostAdjustment, prepareCostAdjustment, reverseCostAdjustment } from '../costadjust/cost-adjustment-document.js';
import { costInventory, INVENTORY_DIFFERENCE_SQL, postInventory } from './inventory-posting.js';

/** The stock changes of a count ($1): each line of a stocked product with a difference, in (I+) or out (I-) of its locator. */
const DELTAS_SQL = `SELECT il.m_inventoryline_id AS line_id, il.m_product_id, il.m_locator_id, COALESCE(il.m_attributesetinstance_id, 0) AS asi, x.qty,
    CASE WHEN x.qty > 0 THEN 'I+' ELSE 'I-' END AS movementtype
  FROM m_inventoryline il
  JOIN m_inventory h ON h.m_inventory_id = il.m_inventory_id
  JOIN c_doctype dt ON dt.c_doctype_id = h.c_doctype_id
  JOIN m_product p ON p.m_product_id = il.m_product_id AND p.producttype = 'I' AND p.isstocked = 'Y'
  CROSS JOIN LATERAL (SELECT ${INVENTORY_DIFFERENCE_SQL} AS qty) x
 WHERE il.m_inventory_id = $1 AND il.isactive = 'Y' AND x.qty <> 0`;

/** The inventory sub type of the count's document type (PI physical inventory, IU internal use, CA cost adjustment), or null. */
async function subType(d: DocumentContext): Promise<string | null> {
  const id = idOf(current(d, 'c_doctype_id'));
  if (id === null) return null;
  const { rows } = await d.wc.tx.query<{ docsubtypeinv: string | null }>('SELECT docsubtypeinv FROM c_doctype WHERE c_doctype_id = $1', [id], { name: 'doc_inventory_subtype' });
  return rows[0]?.docsubtypeinv ?? null;
}

async function moveStock(d: DocumentContext, inventoryId: number, date: unknown, stampInventory = false): Promise<void> {
  await refuseNegativeStock(d.wc.tx, DELTAS_SQL, inventoryId, 'inventory');
  await applyStockDeltas(d.wc.tx, DELTAS_SQL, 'm_inventoryline_id', inventoryId, date, d.wc.auth.userId, stampInventory);
  await costInventory(d, inventoryId, date);
}

/**
 * The book quantity of every line of a physical inventory is the stock on hand now: one join of
 * the lines with their storage, and only the lines whose book quantity changed are written.
 */
async function refreshBook(d: DocumentContext): Promise<void> {
  await d.wc.tx.query(
    `UPDATE m_inventoryline il SET qtybook = b.qty
       FROM (SELECT l.m_inventoryline_id AS id, COALESCE(sum(s.qtyonhand), 0) AS qty
               FROM m_inventoryline l
               LEFT JOIN m_storageonhand s ON s.m_product_id = l.m_product_id AND s.m_locator_id = l.m_locator_id
                                          AND s.m_attributesetinstance_id = COALESCE(l.m_attributesetinstance_id, 0)
              WHERE l.m_inventory_id = $1 GROUP BY l.m_inventoryline_id) b
      WHERE il.m_inventoryline_id = b.id AND il.qtybook IS DISTINCT FROM b.qty`,
    [docId(d)],
    { name: 'doc_inventory_refresh_book' },
  );
}

/** A physical inventory stamps the storage it counted with the count's date (M_StorageOnHand.DateLastInventory). */
async function stampCounted(d: DocumentContext, date: unknown): Promise<void> {
  await d.wc.tx.query(
    `UPDATE m_storageonhand s SET datelastinventory = $2::timestamp
       FROM m_inventoryline il
      WHERE il.m_inventory_id = $1 AND il.isactive = 'Y' AND s.m_product_id = il.m_product_id AND s.m_locator_id = il.m_locator_id
        AND s.m_attributesetinstance_id = COALESCE(il.m_attributesetinstance_id, 0) AND s.datelastinventory IS DISTINCT FROM $2::timestamp`,
    [docId(d), date],
    { name: 'doc_inventory_stamp' },
  );
}

// A reversal counts the original's book quantity where it counted (the swap), and returns what was used.
const LINES: ReversalDetail = { table: 'm_inventoryline', link: 'm_inventory_id', negate: ['qtyinternaluse', 'qtyentered'], backLink: 'reversalline_id' };

const reverse = async (d: DocumentContext, accrual: boolean): Promise<void> =>
  (await subType(d)) === 'CA' ? reverseCostAdjustment(d, accrual) : reverseStockDocument(
    d,
    accrual,
    LINES,
    (id, date) => moveStock(d, id, date),
    async (id) => {
      await d.wc.tx.query('UPDATE m_inventoryline SET qtybook = qtycount, qtycount = qtybook WHERE m_inventory_id = $1', [id]);
    },
  );

/**
 * Physical inventory and internal use (M_Inventory, MMI with sub type PI or IU): prepare takes the
 * book quantities from stock (PI); complete moves stock by each line's difference (M_Transaction
 * I+ / I-, refused where a warehouse that disallows negative inventory would go below zero) and
 * posts it against inventory differences or the line's charge (see postInventory). A completed
 * count is voided or reversed by a reversal that moves everything back. A cost adjustment (CA)
 * sets its products' costs and revalues their stock instead (src/documents/costadjust/).
 */
export const inventoryDocument: DocumentType = {
  table: 'm_inventory',
  refusal: noReactivation,
  details: [{ table: 'm_inventoryline', link: 'm_inventory_id' }],

  async prepare(d) {
    await requireOpenPeriod(d, 'movementdate');
    await requireLines(d, 'm_inventoryline');
    const type = await subType(d);
    if (type === 'CA') return prepareCostAdjustment(d);
    if (type !== 'PI' && type !== 'IU') throw refuse(`the document type's inventory sub type (DocSubTypeInv) is ${type ?? 'not set'}: counts take PI (physical inventory), IU (internal use) or CA (cost adjustment)`);
    if (type === 'PI') await refreshBook(d);
    else {
      const { rows } = await d.wc.tx.query<{ line: number }>(
        `SELECT line FROM m_inventoryline WHERE m_inventory_id = $1 AND isactive = 'Y' AND (c_charge_id IS NULL OR COALESCE(qtyinternaluse, 0) = 0) ORDER BY line LIMIT 1`,
        [docId(d)],
      );
      if (rows[0]) throw refuse(`line ${rows[0].line} of an internal use needs a charge and a quantity used`);
    }
  },

  async complete(d) {
    await definiteNumberAndDate(d, 'movementdate');
    const periodId = await requireOpenPeriod(d, 'movementdate');
    const date = current(d, 'movementdate');
    const type = await subType(d);
    if (type === 'CA') {
      await completeCostAdjustment(d, periodId);
      return 'CO';
    }
    const counted = type === 'PI';
    await moveStock(d, docId(d), date, counted);
    // The storage the count changed is stamped already; lines without a difference are stamped here.
    if (counted) await stampCounted(d, date);
    await postInventory(d, periodId);
    return 'CO';
  },

  async void(d) {
    if (d.row.docstatus === 'CO') return reverse(d, await accrualOnVoidByMovementDate(d));
    await d.wc.tx.query(
      `UPDATE m_inventoryline SET description = btrim(COALESCE(description, '') || ' Voided'), qtycount = qtybook, qtyinternaluse = 0, qtyentered = 0,
              updated = $2::timestamp, updatedby = $3 WHERE m_inventory_id = $1`,
      [docId(d), nowTimestamp(), d.wc.auth.userId],
    );
  },

  async close() {},

  reverseCorrect: (d) => reverse(d, false),
  reverseAccrual: (d) => reverse(d, true),
};
