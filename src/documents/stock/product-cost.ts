/**
 * The cost a stock document values a product at, until costing proper (cost elements and cost
 * details) exists: the standard price of the client's purchase price list valid on the date, the
 * default list first, else 0. Shipments, moves and counts use the same value, so the inventory
 * account moves by the same amount whichever document moves the stock. Arguments are SQL
 * expressions (columns or parameters).
 */
export const purchasePriceCostSql = (product: string, date: string, client: string): string =>
  `(SELECT pp.pricestd FROM m_productprice pp
       JOIN m_pricelist_version v ON v.m_pricelist_version_id = pp.m_pricelist_version_id AND v.isactive = 'Y' AND v.validfrom <= ${date}
       JOIN m_pricelist pl ON pl.m_pricelist_id = v.m_pricelist_id AND pl.issopricelist = 'N' AND pl.isactive = 'Y' AND pl.ad_client_id IN (0, ${client})
      WHERE pp.m_product_id = ${product} AND pp.isactive = 'Y'
      ORDER BY CASE WHEN pl.isdefault = 'Y' THEN 0 ELSE 1 END, v.validfrom DESC LIMIT 1)`;
