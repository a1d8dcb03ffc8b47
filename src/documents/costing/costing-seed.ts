import type { Tx } from '../../db/types.js';
import { addOpeningStockCounts, FIRST_INVENTORY_ID, FIRST_LINE_ID } from '../inventory/opening-stock-seed.js';
import { costingMethodSql, materialElementSql } from './costing-method.js';
import { seedPriceSql } from './seed-price.js';

const DEMO_CLIENT = 11;

/** The description of the opening counts' cost details: their value is on no fact (the opening counts post none). */
export const OPENING_COST_DESCRIPTION = 'Opening stock';

/** The demo's material cost elements, with the original's ids: one per costing method the demo can choose. */
const ELEMENTS: readonly [id: number, name: string, method: string][] = [
  [100, 'Material', 'S'],
  [102, 'FIFO', 'F'],
  [103, 'Average PO', 'A'],
  [104, 'Average Invoice', 'I'],
];

/** The key of a cost (costing level client: organization 0, attribute instance 0), one row per key. */
const INDEXES = [
  `CREATE UNIQUE INDEX IF NOT EXISTS m_cost_key ON m_cost (ad_client_id, ad_org_id, m_product_id, m_attributesetinstance_id, m_costtype_id, c_acctschema_id, m_costelement_id)`,
  'CREATE INDEX IF NOT EXISTS m_costdetail_inoutline ON m_costdetail (m_inoutline_id) WHERE m_inoutline_id IS NOT NULL',
  'CREATE INDEX IF NOT EXISTS m_costdetail_inventoryline ON m_costdetail (m_inventoryline_id) WHERE m_inventoryline_id IS NOT NULL',
  'CREATE INDEX IF NOT EXISTS m_costdetail_product ON m_costdetail (ad_client_id, m_product_id)',
];

/**
 * The demo's opening cost per product of the schema's cost type under its costing method: the
 * value of its opening count lines (counted quantity × the seed price on the count's date, as
 * cost details of those lines, which post no facts) and of the product asset facts the demo came
 * with; the quantity is what the storage holds. So the stock value starts equal to what the
 * books and the opening counts say it is.
 */
const OPENING_DETAILS_SQL = `INSERT INTO m_costdetail (m_costdetail_id, m_costdetail_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
    c_acctschema_id, m_product_id, m_attributesetinstance_id, m_costelement_id, m_inventoryline_id, amt, qty, price, currentcostprice, currentqty,
    cumulatedamt, cumulatedqty, deltaamt, deltaqty, dateacct, issotrx, isbackdate, processed, description)
  SELECT nextval('m_costdetail_sq'), gen_random_uuid()::text, l.ad_client_id, l.ad_org_id, 'Y', $3::timestamp, 100, $3::timestamp, 100,
         a.c_acctschema_id, l.m_product_id, 0, ${materialElementSql('l.ad_client_id', costingMethodSql('l.m_product_id', 'a.c_acctschema_id'))},
         l.m_inventoryline_id, round(x.price * (l.qtycount - l.qtybook), 2), l.qtycount - l.qtybook, x.price, 0, 0, 0, 0, 0, 0, i.movementdate, 'N', 'N', 'Y', $5::text
    FROM m_inventoryline l JOIN m_inventory i ON i.m_inventory_id = l.m_inventory_id
    JOIN c_acctschema a ON a.ad_client_id = l.ad_client_id
    CROSS JOIN LATERAL (SELECT COALESCE(${seedPriceSql('l.m_product_id', 'i.movementdate', 'l.ad_client_id')}, 0) AS price) x
   WHERE l.m_inventory_id >= $1 AND l.m_inventory_id < $2 AND l.ad_client_id = $4 AND l.description = $5::text
   ORDER BY l.m_inventoryline_id`;

const OPENING_COSTS_SQL = `WITH a AS (
    SELECT a.c_acctschema_id, a.ad_client_id, a.m_costtype_id, d.p_asset_acct FROM c_acctschema a JOIN c_acctschema_default d ON d.c_acctschema_id = a.c_acctschema_id
     WHERE a.ad_client_id = $2
  ), q AS (
    SELECT m_product_id, sum(qtyonhand) AS qty FROM m_storageonhand WHERE ad_client_id = $2 GROUP BY m_product_id
  ), v AS (
    SELECT f.m_product_id, sum(f.amtacctdr - f.amtacctcr) AS amt FROM fact_acct f JOIN a ON a.c_acctschema_id = f.c_acctschema_id
      JOIN c_validcombination vc ON vc.c_validcombination_id = a.p_asset_acct
     WHERE f.ad_client_id = $2 AND f.account_id = vc.account_id AND f.m_product_id IS NOT NULL GROUP BY f.m_product_id
    UNION ALL
    SELECT cd.m_product_id, sum(cd.amt) FROM m_costdetail cd WHERE cd.ad_client_id = $2 AND cd.description = $3 GROUP BY cd.m_product_id
  ), p AS (
    SELECT COALESCE(q.m_product_id, v.m_product_id) AS m_product_id, COALESCE(max(q.qty), 0) AS qty, COALESCE(sum(v.amt), 0) AS amt
      FROM q FULL JOIN v ON v.m_product_id = q.m_product_id GROUP BY 1
  )
  INSERT INTO m_cost (m_cost_id, m_cost_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, m_product_id,
    m_attributesetinstance_id, c_acctschema_id, m_costtype_id, m_costelement_id, costingmethod, currentcostprice, currentqty,
    cumulatedamt, cumulatedqty, futurecostprice, iscostfrozen, processed)
  SELECT nextval('m_cost_sq'), gen_random_uuid()::text, a.ad_client_id, 0, 'Y', $1::timestamp, 100, $1::timestamp, 100, p.m_product_id, 0,
         a.c_acctschema_id, a.m_costtype_id, e.element, e.method,
         CASE WHEN p.qty > 0 THEN round(p.amt / p.qty, 8) ELSE COALESCE(${seedPriceSql('p.m_product_id', '$1::timestamp', 'a.ad_client_id')}, 0) END,
         p.qty, p.amt, p.qty, 0, 'N', 'Y'
    FROM p CROSS JOIN a
    CROSS JOIN LATERAL (SELECT ${costingMethodSql('p.m_product_id', 'a.c_acctschema_id')} AS method) m
    CROSS JOIN LATERAL (SELECT m.method, ${materialElementSql('a.ad_client_id', 'm.method')} AS element) e
   WHERE e.element IS NOT NULL
   ORDER BY p.m_product_id`;

/**
 * Costing: the key of M_Cost and the lookups of cost details by line; for the demo, its material
 * cost elements and the opening cost of its stock (cost details of the opening counts and an
 * M_Cost row per product). The opening counts are made first when they are not yet (they are
 * made once, whichever runs first). Applied once: a demo that has cost elements is left as it is.
 */
export async function addCostingSeed(tx: Tx): Promise<void> {
  for (const statement of INDEXES) await tx.query(statement);
  await addOpeningStockCounts(tx);
  const { rows: client } = await tx.query('SELECT 1 FROM c_acctschema WHERE ad_client_id = $1', [DEMO_CLIENT]);
  const { rows: elements } = await tx.query('SELECT 1 FROM m_costelement WHERE ad_client_id = $1', [DEMO_CLIENT]);
  if (!client.length || elements.length) return;
  const now = new Date().toISOString().replace('T', ' ').slice(0, 23);
  for (const [id, name, method] of ELEMENTS) {
    await tx.query(
      `INSERT INTO m_costelement (m_costelement_id, m_costelement_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
         name, description, costelementtype, costingmethod, iscalculated)
       VALUES ($1, gen_random_uuid()::text, $2, 0, 'Y', $3::timestamp, 100, $3::timestamp, 100, $4, $5, 'M', $6, 'N')`,
      [id, DEMO_CLIENT, now, name, `Material cost, costing method ${method}`, method],
    );
  }
  await tx.query(`SELECT setval('m_costelement_sq', GREATEST((SELECT last_value FROM m_costelement_sq), (SELECT max(m_costelement_id) FROM m_costelement)))`);
  await tx.query(OPENING_DETAILS_SQL, [FIRST_INVENTORY_ID, FIRST_LINE_ID, now, DEMO_CLIENT, OPENING_COST_DESCRIPTION]);
  await tx.query(OPENING_COSTS_SQL, [now, DEMO_CLIENT, OPENING_COST_DESCRIPTION]);
}
