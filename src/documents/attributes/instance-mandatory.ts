import type { ModelEvent } from '../../events/model-events.js';
import { refuse } from '../engine/document-type.js';

/** A stock document's lines: table, link to the header, and when the original counts the line as a shipment. */
interface StockLines {
  table: string;
  link: string;
  /** SQL (header h) true where a set mandatory "when shipping" (S) demands an instance too. */
  shipping: string;
}

const STOCK_LINES: Record<string, StockLines> = {
  // Shipments and customer returns are sales transactions: the original asks an instance of sets mandatory when shipping too.
  m_inout: { table: 'm_inoutline', link: 'm_inout_id', shipping: `h.issotrx = 'Y'` },
  // Moves and counts ask it only of sets always mandatory.
  m_movement: { table: 'm_movementline', link: 'm_movement_id', shipping: 'false' },
  m_inventory: { table: 'm_inventoryline', link: 'm_inventory_id', shipping: 'false' },
};

/**
 * The first active line of a product without an attribute set instance whose instance is
 * mandatory, as the original's MProduct.isASIMandatoryFor: the product's attribute set has
 * instance attributes and is always mandatory (or mandatory when shipping, on a shipment), or
 * the product is costed by batch/lot in one of the client's accounting schemas.
 */
const missingSql = (l: StockLines, header: string) => `SELECT l.line, p.value AS product, s.name AS set_name, s.islot, s.isserno
  FROM ${l.table} l
  JOIN ${header} h ON h.${l.link} = l.${l.link}
  JOIN m_product p ON p.m_product_id = l.m_product_id
  LEFT JOIN m_attributeset s ON s.m_attributeset_id = p.m_attributeset_id AND s.m_attributeset_id <> 0
 WHERE l.${l.link} = $1 AND l.isactive = 'Y' AND COALESCE(l.m_attributesetinstance_id, 0) = 0
   AND ((s.isinstanceattribute = 'Y' AND (s.mandatorytype = 'Y' OR (s.mandatorytype = 'S' AND ${l.shipping})))
        OR EXISTS (SELECT 1 FROM c_acctschema a
                     LEFT JOIN m_product_category_acct pca ON pca.c_acctschema_id = a.c_acctschema_id AND pca.m_product_category_id = p.m_product_category_id
                    WHERE a.ad_client_id = l.ad_client_id AND a.isactive = 'Y' AND COALESCE(pca.costinglevel, a.costinglevel) = 'B'))
 ORDER BY l.line, l.${l.table}_id LIMIT 1`;

interface Missing {
  line: number;
  product: string;
  set_name: string | null;
  islot: string | null;
  isserno: string | null;
}

const what = (m: Missing): string => (m.islot === 'Y' && m.isserno === 'Y' ? 'a lot and serial number' : m.islot === 'Y' ? 'a lot' : m.isserno === 'Y' ? 'a serial number' : 'an attribute set instance');

/**
 * Refuses to prepare or complete a shipment, receipt, move or count with a line whose product
 * demands an attribute set instance (lot, serial number) and that names none.
 */
export async function refuseMissingInstance(e: ModelEvent): Promise<void> {
  const lines = STOCK_LINES[e.table.dbName];
  if (!lines) return;
  // Kept for the operation under the lines' table: complete prepares again in the same request,
  // and unless the lines were written since (the memo then forgets them) the answer is the same.
  const m = await e.memo.get(lines.table, `missing-instance:${String(e.row[lines.link])}`, async () => {
    const { rows } = await e.tx.query<Missing>(missingSql(lines, e.table.dbName), [e.row[lines.link]], { name: `attr_missing_${lines.table}` });
    return rows[0] ?? null;
  });
  if (!m) return;
  const reason = m.set_name ? `its attribute set ${m.set_name} demands one` : 'it is costed by batch/lot';
  throw refuse(`line ${m.line}: product ${m.product} needs ${what(m)} (column M_AttributeSetInstance_ID): ${reason}`);
}

/** The stock documents whose preparing and completing checks the instances of their lines. */
export const INSTANCE_CHECKED_DOCUMENTS = Object.keys(STOCK_LINES);
