/**
 * A row of M_CostHistory per cost a document's costing statement changed (cost-lines.ts): the cost
 * row's quantity, price and cumulated amount and quantity before (from `k`, the lines with the cost
 * they met) and after (`costs`, the upserted M_Cost rows), named by the first cost detail the
 * document wrote for that cost row (`details`, by the cost key of their lines in `p`), as the original's history of a cost change.
 */
export const COST_HISTORY_CTE = `history AS (
       INSERT INTO m_costhistory (m_costhistory_id, m_costhistory_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
              m_product_id, m_attributesetinstance_id, m_costtype_id, m_costelement_id, m_costdetail_id, dateacct, isbackdate,
              oldqty, oldcostprice, oldcqty, oldcamt, newqty, newcostprice, newcqty, newcamt)
       SELECT nextval('m_costhistory_sq'), gen_random_uuid()::text, s.ad_client_id, c.ad_org_id, 'Y', $5::timestamp, $4, $5::timestamp, $4,
              c.m_product_id, c.m_attributesetinstance_id, c.m_costtype_id, c.m_costelement_id, d.m_costdetail_id, $3::timestamp, 'N',
              COALESCE(b.qty, 0), COALESCE(b.price, 0), COALESCE(b.cqty, 0), COALESCE(b.camt, 0),
              c.currentqty, c.currentcostprice, c.cumulatedqty, c.cumulatedamt
         FROM costs c CROSS JOIN s
         JOIN (SELECT p.m_product_id, p.cost_org, p.cost_asi, p.element, min(dt.m_costdetail_id) AS m_costdetail_id
                 FROM details dt JOIN p ON p.line_id = dt.line_id GROUP BY p.m_product_id, p.cost_org, p.cost_asi, p.element) d
           ON d.m_product_id = c.m_product_id AND d.cost_org = c.ad_org_id AND d.cost_asi = c.m_attributesetinstance_id AND d.element = c.m_costelement_id
         LEFT JOIN (SELECT m_product_id, cost_org, cost_asi, element, max(qty_before) AS qty, max(cost_before) AS price, max(cqty_before) AS cqty,
                           max(camt_before) AS camt
                      FROM k GROUP BY m_product_id, cost_org, cost_asi, element) b
           ON b.m_product_id = c.m_product_id AND b.cost_org = c.ad_org_id AND b.cost_asi = c.m_attributesetinstance_id AND b.element = c.m_costelement_id
        ORDER BY c.m_product_id, c.ad_org_id, c.m_attributesetinstance_id
     )`;
