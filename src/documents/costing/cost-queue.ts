/**
 * The cost layers (M_CostQueue) of products costed first in, first out (F) or last in, first out
 * (L), as common table expressions of the statement that costs a document's lines (cost-lines.ts).
 * They read `k` (a document's lines with their product, method, element, quantity, own amount and
 * current cost price and cost key: cost_org, cost_asi) and `s` (the schema), and give (a product's
 * layers are those of its line's cost key; "product" below means the product at that key):
 * - `fl`: the lines of queued products; a reduction with an amount of its own (a reversal of an
 *   addition) has a pool price, the unit price of that amount;
 * - `used`: what each reduction takes from each layer. Reductions of a product are laid end to end
 *   in line order, the product's layers with stock end to end in the method's order (oldest first
 *   for F, newest first for L; a pool price takes only the layers at that price, newest first), and
 *   a reduction takes from a layer the overlap of the two ranges: one join, however many lines;
 * - `fv`: a reduction's value (the sum of what it took, each layer at its price, and the part
 *   beyond the layers at the last layer's price, else the current cost price, as the original's
 *   MCostQueue.getCosts) and its short quantity with the price it went out at;
 * - `after`: the layers as they will be, with the document's additions, for the first layer's price.
 * Additions (and a reversal of a reduction) make a layer of their own; the part of a reduction
 * beyond the layers makes a layer with a negative quantity at its price, so that the layers' value
 * is always the stock's.
 */
export const QUEUE_CTES = `fl AS (
       SELECT k.line_id, k.m_product_id, k.cost_org, k.cost_asi, k.element, k.method, k.qty, k.cost_price,
              CASE WHEN k.qty < 0 AND k.amt IS NOT NULL THEN round(k.amt / k.qty, 8) END AS pool_price
         FROM k WHERE k.method IN ('F', 'L') AND k.element IS NOT NULL
     ), takes AS (
       SELECT fl.*, sum(-fl.qty) OVER (PARTITION BY fl.m_product_id, fl.cost_org, fl.cost_asi, fl.pool_price ORDER BY fl.line_id) AS need_end
         FROM fl WHERE fl.qty < 0
     ), pools AS (
       SELECT DISTINCT m_product_id, cost_org, cost_asi, element, method, pool_price FROM takes
     ), queue AS (
       SELECT q.m_costqueue_id, q.m_product_id, q.ad_org_id AS cost_org, q.m_attributesetinstance_id AS cost_asi, q.m_costelement_id,
              q.currentqty, q.currentcostprice
         FROM m_costqueue q CROSS JOIN s
        WHERE q.ad_client_id = s.ad_client_id AND q.c_acctschema_id = s.c_acctschema_id AND q.m_costtype_id = s.m_costtype_id AND q.currentqty > 0
          AND (q.m_product_id, q.ad_org_id, q.m_attributesetinstance_id) IN (SELECT m_product_id, cost_org, cost_asi FROM fl)
     ), layers AS (
       SELECT pools.m_product_id, pools.cost_org, pools.cost_asi, pools.pool_price, queue.m_costqueue_id, queue.currentqty, queue.currentcostprice,
              sum(queue.currentqty) OVER (PARTITION BY pools.m_product_id, pools.cost_org, pools.cost_asi, pools.pool_price
                ORDER BY CASE WHEN pools.method = 'F' AND pools.pool_price IS NULL THEN queue.m_costqueue_id ELSE -queue.m_costqueue_id END) AS cum_end
         FROM pools JOIN queue ON queue.m_product_id = pools.m_product_id AND queue.cost_org = pools.cost_org AND queue.cost_asi = pools.cost_asi
          AND queue.m_costelement_id = pools.element
          AND (pools.pool_price IS NULL OR queue.currentcostprice = pools.pool_price)
     ), used AS (
       SELECT t.line_id, l.m_costqueue_id, l.currentcostprice,
              least(t.need_end, l.cum_end) - greatest(t.need_end + t.qty, l.cum_end - l.currentqty) AS taken
         FROM takes t JOIN layers l ON l.m_product_id = t.m_product_id AND l.cost_org = t.cost_org AND l.cost_asi = t.cost_asi
          AND l.pool_price IS NOT DISTINCT FROM t.pool_price
        WHERE least(t.need_end, l.cum_end) > greatest(t.need_end + t.qty, l.cum_end - l.currentqty)
     ), last_layer AS (
       SELECT DISTINCT ON (m_product_id, cost_org, cost_asi, pool_price) m_product_id, cost_org, cost_asi, pool_price, currentcostprice AS price
         FROM layers ORDER BY m_product_id, cost_org, cost_asi, pool_price, cum_end DESC
     ), fv AS (
       SELECT t.line_id, t.pool_price, -t.qty - COALESCE(u.qty, 0) AS short,
              COALESCE(t.pool_price, ll.price, t.cost_price) AS short_price,
              -(COALESCE(u.amt, 0) + (-t.qty - COALESCE(u.qty, 0)) * COALESCE(ll.price, t.cost_price)) AS value
         FROM takes t
         LEFT JOIN (SELECT line_id, sum(taken) AS qty, sum(taken * currentcostprice) AS amt FROM used GROUP BY line_id) u ON u.line_id = t.line_id
         LEFT JOIN last_layer ll ON ll.m_product_id = t.m_product_id AND ll.cost_org = t.cost_org AND ll.cost_asi = t.cost_asi
          AND ll.pool_price IS NOT DISTINCT FROM t.pool_price
     )`;

/**
 * After the lines' values (`p`, with `queued` set on lines of queued products): the layers taken
 * from lose what was taken; additions and short parts become new layers; `after` lists every
 * layer with stock once the document is costed, in the order of its method (`rank`), so that the
 * cost's price is the first one's, as the original's.
 */
export const QUEUE_WRITES = `queue_taken AS (
       UPDATE m_costqueue q SET currentqty = q.currentqty - x.taken, updated = $5::timestamp, updatedby = $4
         FROM (SELECT m_costqueue_id, sum(taken) AS taken FROM used GROUP BY m_costqueue_id) x, s
        WHERE q.m_costqueue_id = x.m_costqueue_id AND q.ad_client_id = s.ad_client_id
     ), new_layers AS (
       SELECT p.line_id, p.m_product_id, p.cost_org, p.cost_asi, p.element, p.method, p.qty, round(p.value / p.qty, 8) AS price
         FROM p WHERE p.queued AND p.qty > 0
       UNION ALL
       SELECT fl.line_id, fl.m_product_id, fl.cost_org, fl.cost_asi, fl.element, fl.method, -fv.short, fv.short_price
         FROM fv JOIN fl ON fl.line_id = fv.line_id WHERE fv.short > 0
     ), queue_added AS (
       INSERT INTO m_costqueue (m_costqueue_id, m_costqueue_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
              c_acctschema_id, m_costtype_id, m_costelement_id, m_product_id, m_attributesetinstance_id, currentcostprice, currentqty)
       SELECT nextval('m_costqueue_sq'), gen_random_uuid()::text, s.ad_client_id, n.cost_org, 'Y', $5::timestamp, $4, $5::timestamp, $4,
              s.c_acctschema_id, s.m_costtype_id, n.element, n.m_product_id, n.cost_asi, n.price, n.qty
         FROM new_layers n CROSS JOIN s ORDER BY n.line_id
     ), after AS (
       SELECT queue.m_product_id, queue.cost_org, queue.cost_asi, 0 AS src, queue.m_costqueue_id AS ord, queue.currentqty - COALESCE(x.taken, 0) AS qty, queue.currentcostprice AS price
         FROM queue LEFT JOIN (SELECT m_costqueue_id, sum(taken) AS taken FROM used GROUP BY m_costqueue_id) x ON x.m_costqueue_id = queue.m_costqueue_id
        WHERE queue.m_costelement_id IN (SELECT element FROM fl)
       UNION ALL
       SELECT m_product_id, cost_org, cost_asi, 1, line_id, qty, price FROM new_layers WHERE qty > 0
     ), first_layer AS (
       SELECT DISTINCT ON (a.m_product_id, a.cost_org, a.cost_asi) a.m_product_id, a.cost_org, a.cost_asi, a.price
         FROM after a JOIN (SELECT DISTINCT m_product_id, cost_org, cost_asi, method FROM fl) f
           ON f.m_product_id = a.m_product_id AND f.cost_org = a.cost_org AND f.cost_asi = a.cost_asi
        WHERE a.qty > 0
        ORDER BY a.m_product_id, a.cost_org, a.cost_asi, CASE WHEN f.method = 'F' THEN a.src ELSE -a.src END, CASE WHEN f.method = 'F' THEN a.ord ELSE -a.ord END
     )`;
