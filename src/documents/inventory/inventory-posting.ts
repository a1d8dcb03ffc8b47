import { chargeAccountSql } from '../accounting/charge-account.js';
import { accountSchema } from '../accounting/facts.js';
import { postFactRows } from '../accounting/fact-rows.js';
import { current, docId, docTypeOf } from '../engine/common.js';
import { refuse, type DocumentContext } from '../engine/document-type.js';
import { nowTimestamp } from '../row-values.js';
import { costLines, reversedValueSql } from '../costing/cost-lines.js';

/**
 * The quantity difference of each line of a count ($1) that changes stock: counted less book for
 * a physical inventory, the quantity used out for internal use.
 */
export const INVENTORY_DIFFERENCE_SQL = `CASE WHEN dt.docsubtypeinv = 'IU' THEN -COALESCE(il.qtyinternaluse, 0) ELSE il.qtycount - il.qtybook END`;

/** The stocked lines of a count ($1) with a difference, to cost: all move at the product's cost, a reversal's at its original's value. */
const COST_LINES_SQL = `SELECT il.m_inventoryline_id AS line_id, il.m_product_id, il.ad_org_id, il.m_attributesetinstance_id AS asi, x.qty, NULL::numeric AS price,
    ${reversedValueSql('m_inventoryline_id', 'il')} AS amt, NULL::numeric AS landed, 'N'::text AS issotrx
  FROM m_inventoryline il
  JOIN m_inventory h ON h.m_inventory_id = il.m_inventory_id
  JOIN c_doctype dt ON dt.c_doctype_id = h.c_doctype_id
  JOIN m_product p ON p.m_product_id = il.m_product_id AND p.producttype = 'I'
  CROSS JOIN LATERAL (SELECT ${INVENTORY_DIFFERENCE_SQL} AS qty) x
 WHERE il.m_inventory_id = $1 AND il.isactive = 'Y' AND x.qty <> 0`;

/** Costs the differences of the count `inventoryId` (M_CostDetail and M_Cost) in one statement. */
export async function costInventory(d: DocumentContext, inventoryId: number, date: unknown): Promise<void> {
  const schema = await accountSchema(d);
  await costLines(d.wc.tx, {
    column: 'm_inventoryline_id', lines: COST_LINES_SQL, documentId: inventoryId, schemaId: schema.schemaId,
    date, userId: d.wc.auth.userId, now: nowTimestamp(), name: 'doc_inventory_costs',
  });
}

/**
 * Posts a count as the original's Doc_Inventory, in one statement however many lines it has:
 * per line with a difference, product asset debited by the difference's value (credited when
 * stock went down) against the line charge's account (internal use, or a count line with a
 * charge), else the warehouse differences account of the line's warehouse (M_Warehouse_Acct
 * W_Differences_Acct; a warehouse without one takes the client's first). The value is the
 * line's cost detail (costInventory, before), its unit cost written on the line as CurrentCostPrice. A line whose
 * other account is missing refuses the action (everything rolls back).
 */
export async function postInventory(d: DocumentContext, periodId: number): Promise<void> {
  const schema = await accountSchema(d);
  const asset = schema.accounts.p_asset_acct;
  if (!asset) throw refuse('the accounting schema has no p_asset_acct');
  const dt = await docTypeOf(d);
  const rows = await postFactRows(d, {
    periodId,
    dateAcct: current(d, 'movementdate'),
    glCategoryId: dt?.gl_category_id ?? null,
    ctes: `l AS (
       SELECT il.m_inventoryline_id, il.line, il.m_product_id, cd.qty, cd.price AS cost, cd.amt,
              CASE WHEN il.c_charge_id IS NOT NULL THEN ${chargeAccountSql('il.c_charge_id', 'h.ad_client_id')} ELSE wd.account_id END AS other
         FROM m_inventoryline il
         JOIN m_inventory h ON h.m_inventory_id = il.m_inventory_id
         JOIN c_doctype dt ON dt.c_doctype_id = h.c_doctype_id
         JOIN m_product p ON p.m_product_id = il.m_product_id AND p.producttype = 'I'
         JOIN m_locator loc ON loc.m_locator_id = il.m_locator_id
         JOIN m_costdetail cd ON cd.m_inventoryline_id = il.m_inventoryline_id AND cd.c_acctschema_id = $2
         LEFT JOIN LATERAL (SELECT v.account_id FROM m_warehouse_acct wa JOIN c_validcombination v ON v.c_validcombination_id = wa.w_differences_acct
                             WHERE wa.c_acctschema_id = $2 AND wa.ad_client_id = h.ad_client_id AND wa.isactive = 'Y'
                             ORDER BY CASE WHEN wa.m_warehouse_id = loc.m_warehouse_id THEN 0 ELSE 1 END, wa.m_warehouse_id LIMIT 1) wd ON true
        WHERE il.m_inventory_id = $1 AND il.isactive = 'Y' AND cd.qty <> 0
     ), costed AS (
       UPDATE m_inventoryline il SET currentcostprice = l.cost FROM l WHERE il.m_inventoryline_id = l.m_inventoryline_id AND il.currentcostprice IS DISTINCT FROM l.cost
     )`,
    facts: `SELECT $3::bigint AS ad_org_id, CASE WHEN s.side = 1 THEN $4::bigint ELSE l.other END AS account_id, s.dr, s.cr, s.qty,
              l.m_inventoryline_id AS line_id, l.m_product_id, row_number() OVER (ORDER BY l.line, l.m_inventoryline_id, s.side) AS ord
         FROM l CROSS JOIN LATERAL (VALUES (1, greatest(l.amt, 0), greatest(-l.amt, 0), l.qty), (2, greatest(-l.amt, 0), greatest(l.amt, 0), -l.qty)) AS s(side, dr, cr, qty)
        WHERE l.amt <> 0 AND l.other IS NOT NULL`,
    params: [docId(d), schema.schemaId, d.row.ad_org_id, asset],
    answer: 'SELECT min(l.line) AS missing FROM l WHERE l.amt <> 0 AND l.other IS NULL',
  });
  const missing = rows[0]?.missing;
  if (missing !== null && missing !== undefined) throw refuse(`line ${String(missing)} has no account to post its difference to (the charge's account or the warehouse's differences account)`);
}
