import type { Tx } from '../../db/types.js';

const DEMO_CLIENT = 11;

/** The demo's LIFO material cost element: the original makes one the first time a product is costed LIFO (its demo has FIFO, 102). */
export const LIFO_ELEMENT = 1129000;

/**
 * FIFO and LIFO costing: the index the layers of a product are read by, and the demo's LIFO
 * material cost element (once; a demo without an accounting schema or with one already is left as it is).
 */
export async function addCostQueueSeed(tx: Tx): Promise<void> {
  await tx.query(
    `CREATE INDEX IF NOT EXISTS m_costqueue_product ON m_costqueue (ad_client_id, m_product_id, m_costelement_id, c_acctschema_id) WHERE currentqty > 0`,
  );
  const { rows: client } = await tx.query('SELECT 1 FROM c_acctschema WHERE ad_client_id = $1', [DEMO_CLIENT]);
  const { rows: lifo } = await tx.query(`SELECT 1 FROM m_costelement WHERE ad_client_id = $1 AND costingmethod = 'L' AND costelementtype = 'M'`, [DEMO_CLIENT]);
  if (!client.length || lifo.length) return;
  await tx.query(
    `INSERT INTO m_costelement (m_costelement_id, m_costelement_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
       name, description, costelementtype, costingmethod, iscalculated)
     VALUES ($1, gen_random_uuid()::text, $2, 0, 'Y', now(), 100, now(), 100, 'LIFO', 'Material cost, costing method L', 'M', 'L', 'N')`,
    [LIFO_ELEMENT, DEMO_CLIENT],
  );
}
