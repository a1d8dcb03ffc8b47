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
 * The costing level of a product in an accounting schema, as the original's product costing: its
 * category's (M_Product_Category_Acct.CostingLevel) when set, else the schema's
 * (C_AcctSchema.CostingLevel), else C. C: client, O: organization, B: batch/lot. Arguments are SQL expressions.
 */
export const costingLevelSql = (product: string, schema: string): string =>
  `COALESCE((SELECT NULLIF(btrim(pca.costinglevel), '') FROM m_product_category_acct pca JOIN m_product pp ON pp.m_product_category_id = pca.m_product_category_id
              WHERE pp.m_product_id = ${product} AND pca.c_acctschema_id = ${schema} AND pca.isactive = 'Y' LIMIT 1),
            (SELECT NULLIF(btrim(a.costinglevel), '') FROM c_acctschema a WHERE a.c_acctschema_id = ${schema}), 'C')`;

/**
 * The organization of the cost key of a costing level (`level`, an SQL expression): the line's
 * organization `org` at level O, else 0 (*).
 */
export const costOrgSql = (level: string, org: string): string => `(CASE WHEN ${level} = 'O' THEN ${org} ELSE 0 END)`;

/**
 * The attribute set instance of the cost key of a costing level: the line's instance `asi` at
 * level B, else 0.
 */
export const costAsiSql = (level: string, asi: string): string => `(CASE WHEN ${level} = 'B' THEN COALESCE(${asi}, 0) ELSE 0 END)`;

/**
 * Joins the M_Cost row of a product (`alias`.m_product_id) for the schema (`schema` a row with
 * c_acctschema_id, ad_client_id, m_costtype_id), an element and a cost key (`org`, `asi`: SQL
 * expressions of the cost key's organization and instance; 0 and 0 at costing level client).
 */
export const costRowJoin = (alias: string, schema: string, element: string, org = '0', asi = '0'): string =>
  `LEFT JOIN m_cost c ON c.ad_client_id = ${schema}.ad_client_id AND c.ad_org_id = ${org} AND c.m_product_id = ${alias}.m_product_id
     AND c.m_attributesetinstance_id = ${asi} AND c.m_costtype_id = ${schema}.m_costtype_id AND c.c_acctschema_id = ${schema}.c_acctschema_id
     AND c.m_costelement_id = ${element}`;

/**
 * A product's current cost price in a schema (`schema` parameter or column) of a client: its
 * M_Cost price under its costing method, at the cost key its costing level gives a line of the
 * organization `org` and the instance `asi` (both 0 by default: the client level's key), else the
 * seed price on `date`, else 0.
 */
export const currentCostSql = (product: string, client: string, schema: string, date: string, org = '0', asi = '0'): string =>
  `COALESCE((SELECT NULLIF(c.currentcostprice, 0) FROM m_cost c JOIN c_acctschema a ON a.c_acctschema_id = c.c_acctschema_id
              CROSS JOIN LATERAL (SELECT ${costingLevelSql(product, schema)} AS level OFFSET 0) lv
              WHERE c.c_acctschema_id = ${schema} AND c.ad_client_id = ${client} AND c.ad_org_id = ${costOrgSql('lv.level', org)} AND c.m_product_id = ${product}
                AND c.m_attributesetinstance_id = ${costAsiSql('lv.level', asi)} AND c.m_costtype_id = a.m_costtype_id
                AND c.m_costelement_id = ${materialElementSql(client, costingMethodSql(product, schema))}),
            ${seedPriceSql(product, date, client)}, 0)`;
