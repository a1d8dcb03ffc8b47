import type { Tx } from '../../db/types.js';

const DEMO_CLIENT = 11;
const HQ_WAREHOUSE = 103;

/**
 * The demo's replenishment levels of stocked products of the HQ warehouse, as GardenWorld keeps
 * some: [id, product, replenish type (1 reorder below minimum, 2 maintain maximum), minimum, maximum].
 * With the demo's stock, Holly Bush and Plum Tree are at or below their minimum, Grass Seeder and
 * Patio Table are kept at their maximum, and Azalea Bush is above its minimum, so the Replenish
 * Report proposes four of them out of the box.
 */
const LEVELS: [id: number, product: number, type: '1' | '2', min: number, max: number][] = [
  [1134000, 129, '1', 50, 100],
  [1134001, 130, '1', 20, 50],
  [1134002, 128, '1', 50, 150],
  [1134003, 143, '2', 0, 20],
  [1134004, 134, '2', 10, 30],
];

/**
 * Adds the demo's M_Replenish levels (organization of the HQ warehouse). A database without the
 * demo warehouse, or a level whose product is missing or which exists already, is left as it is.
 */
export async function addDemoReplenishLevels(tx: Tx, now = new Date().toISOString()): Promise<void> {
  const { rows } = await tx.query<{ ad_org_id: string }>('SELECT ad_org_id FROM m_warehouse WHERE m_warehouse_id = $1 AND ad_client_id = $2', [HQ_WAREHOUSE, DEMO_CLIENT]);
  if (!rows.length) return;
  for (const [id, product, type, min, max] of LEVELS) {
    await tx.query(
      `INSERT INTO m_replenish (m_replenish_id, m_replenish_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
         m_product_id, m_warehouse_id, replenishtype, level_min, level_max)
       SELECT $1, gen_random_uuid()::text, $2, $3, 'Y', $4::timestamp, 100, $4::timestamp, 100, p.m_product_id, $5, $6, $7, $8
         FROM m_product p
        WHERE p.m_product_id = $9 AND p.ad_client_id = $2
          AND NOT EXISTS (SELECT 1 FROM m_replenish r WHERE r.m_replenish_id = $1 OR (r.m_product_id = $9 AND r.m_warehouse_id = $5))`,
      [id, DEMO_CLIENT, rows[0]!.ad_org_id, now, HQ_WAREHOUSE, type, min, max, product],
    );
  }
}
