/**
 * The price a product's cost starts at when it has no cost yet (no M_Cost row, or one at 0): the
 * standard price of the client's purchase price list valid on the date, the default list first,
 * else null. As the original seeds a standard cost from the first purchase, a product costed
 * here for the first time takes a price a person set, not 0. Arguments are SQL expressions
 * (columns or parameters).
 */
export const seedPriceSql = (product: string, date: string, client: string): string =>
  `(SELECT pp.pricestd FROM m_productprice pp
       JOIN m_pricelist_version v ON v.m_pricelist_version_id = pp.m_pricelist_version_id AND v.isactive = 'Y' AND v.validfrom <= ${date}
       JOIN m_pricelist pl ON pl.m_pricelist_id = v.m_pricelist_id AND pl.issopricelist = 'N' AND pl.isactive = 'Y' AND pl.ad_client_id IN (0, ${client})
      WHERE pp.m_product_id = ${product} AND pp.isactive = 'Y'
      ORDER BY CASE WHEN pl.isdefault = 'Y' THEN 0 ELSE 1 END, v.validfrom DESC LIMIT 1)`;
