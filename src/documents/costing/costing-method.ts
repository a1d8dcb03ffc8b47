import { seedPriceSql } from './seed-price.js';

/**
 * The costing method of a product in an accounting schema, as the original's product costing:
 * its category's (M_Product_Category_Acct.CostingMethod) when set, else the schema's
 * (C_AcctSchema.CostingMethod). Arguments are SQL expressions.
 */
export const costingMethodSql = (product: string, schema: string): string =>
  `COALESCE((SELECT NULLIF(btrim(pca.costingmethod), '') FROM m_product_category_acct pca JOIN m_product pp ON pp.m_product_category_id = pca.m_product_category_id
              WHERE pp.m_product_id = ${product} AND pca.c_acctschema_id = ${schema} AND pca.isactive = 'Y' LIMIT 1),
            (SELECT a.costingmethod FROM c_acctschema a WHERE a.c_acctschema_id = ${schema}))`;

/** The client's material cost element (CostElementType M) of a costing method, or null when it has none. */
export const materialElementSql = (client: string, method: string): string =>
  `(SELECT ce.m_costelement_id FROM m_costelement ce
     WHERE ce.ad_client_id = ${client} AND ce.costelementtype = 'M' AND ce.costingmethod = ${method} AND ce.isactive = 'Y'
     ORDER BY ce.m_costelement_id LIMIT 1)`;

/**
 * Joins the M_Cost row of a product (`alias`.m_product_id) for the schema (`schema` a row with
 * c_acctschema_id, ad_client_id, m_costtype_id) and an element: costing level client, so
 * organization 0 and no attribute instance.
 */
export const costRowJoin = (alias: string, schema: string, element: string): string =>
  `LEFT JOIN m_cost c ON c.ad_client_id = ${schema}.ad_client_id AND c.ad_org_id = 0 AND c.m_product_id = ${alias}.m_product_id
     AND c.m_attributesetinstance_id = 0 AND c.m_costtype_id = ${schema}.m_costtype_id AND c.c_acctschema_id = ${schema}.c_acctschema_id
     AND c.m_costelement_id = ${element}`;

/**
 * A product's current cost price in a schema (`schema` parameter or column) of a client: its
 * M_Cost price under its costing method, else the seed price on `date`, else 0.
 */
export const currentCostSql = (product: string, client: string, schema: string, date: string): string =>
  `COALESCE((SELECT NULLIF(c.currentcostprice, 0) FROM m_cost c JOIN c_acctschema a ON a.c_acctschema_id = c.c_acctschema_id
              WHERE c.c_acctschema_id = ${schema} AND c.ad_client_id = ${client} AND c.ad_org_id = 0 AND c.m_product_id = ${product}
                AND c.m_attributesetinstance_id = 0 AND c.m_costtype_id = a.m_costtype_id
                AND c.m_costelement_id = ${materialElementSql(client, costingMethodSql(product, schema))}),
            ${seedPriceSql(product, date, client)}, 0)`;
