import type { Queryable, Tx } from '../db/types.js';
import type { OperationMemo } from '../events/operation-memo.js';

/** The version of a price list valid on a date: the one with the latest ValidFrom on or before it. */
export const versionOnDate = (priceList: string, date: string): string =>
  `(SELECT v.m_pricelist_version_id FROM m_pricelist_version v
     WHERE v.m_pricelist_id = ${priceList} AND v.isactive = 'Y' AND v.validfrom <= ${date}::timestamp
     ORDER BY v.validfrom DESC LIMIT 1)`;

/**
 * The tax of a tax category for a document: active, valid on the date, for its side (sales,
 * purchase or both), not a part of a summary tax; the category's default first, else the first.
 */
const taxOfCategory = (category: string, date: string, side: string, client: string): string =>
  `(SELECT t.c_tax_id FROM c_tax t
     WHERE t.c_taxcategory_id = ${category} AND t.isactive = 'Y' AND t.parent_tax_id IS NULL
       AND (t.validfrom IS NULL OR t.validfrom <= ${date}::timestamp)
       AND COALESCE(t.sopotype, 'B') IN ('B', ${side}) AND t.ad_client_id IN (0, ${client})
     ORDER BY CASE WHEN t.isdefault = 'Y' THEN 0 ELSE 1 END, t.validfrom DESC, t.c_tax_id LIMIT 1)`;

export interface ProductFacts {
  c_uom_id: number | null;
  m_product_category_id: number | null;
  /** Null when the product is not on the price list's current version. */
  pricelist: number | null;
  pricestd: number | null;
  pricelimit: number | null;
  tax_id: number | null;
}

export interface PricingContext {
  priceListId: number | null;
  /** The document date prices and taxes are valid on. */
  date: string;
  isSOTrx: boolean;
  clientId: number;
}

const PRODUCTS_SQL = `SELECT p.m_product_id, p.c_uom_id, p.m_product_category_id, pp.pricelist, pp.pricestd, pp.pricelimit,
    ${taxOfCategory('p.c_taxcategory_id', '$3', '$4', '$5')} AS tax_id
  FROM m_product p
  LEFT JOIN m_productprice pp ON pp.m_product_id = p.m_product_id AND pp.isactive = 'Y'
   AND pp.m_pricelist_version_id = ${versionOnDate('$2', '$3')}
  WHERE p.m_product_id = ANY($1::bigint[])`;

/** Where a product's facts for one pricing context are kept in an operation's memo. */
const factsKey = (productId: number, c: PricingContext): string => `facts:${productId}:${c.priceListId}:${c.date}:${c.isSOTrx}:${c.clientId}`;

async function loadProductFacts(q: Queryable, productIds: number[], c: PricingContext): Promise<Map<number, ProductFacts>> {
  const { rows } = await q.query<ProductFacts & { m_product_id: number }>(PRODUCTS_SQL, [productIds, c.priceListId, c.date, c.isSOTrx ? 'S' : 'P', c.clientId], {
    name: 'doc_products',
  });
  return new Map(rows.map((r) => [Number(r.m_product_id), r]));
}

/** A product's unit, its prices on the price list's current version and its tax category's tax. */
export function productFacts(tx: Tx, memo: OperationMemo, productId: number, c: PricingContext): Promise<ProductFacts | null> {
  return memo.get('m_product', factsKey(productId, c), async () => (await loadProductFacts(tx, [productId], c)).get(productId) ?? null);
}

/** Reads the facts of several products in one statement, for productFacts to find. */
export async function prefetchProductFacts(tx: Tx, memo: OperationMemo, productIds: number[], c: PricingContext): Promise<void> {
  const missing = productIds.filter((id) => memo.peek('m_product', factsKey(id, c)) === undefined);
  if (!missing.length) return;
  const found = await loadProductFacts(tx, missing, c);
  for (const id of missing) memo.set('m_product', factsKey(id, c), found.get(id) ?? null);
}

const CHARGE_TAX_SQL = `SELECT ${taxOfCategory('ch.c_taxcategory_id', '$2', '$3', '$4')} AS tax_id FROM c_charge ch WHERE ch.c_charge_id = $1`;

/** The tax of a charge's tax category. */
export async function chargeTax(tx: Tx, chargeId: number, c: PricingContext): Promise<number | null> {
  const { rows } = await tx.query<{ tax_id: number | null }>(CHARGE_TAX_SQL, [chargeId, c.date, c.isSOTrx ? 'S' : 'P', c.clientId], { name: 'doc_charge_tax' });
  const id = rows[0]?.tax_id;
  return id === null || id === undefined ? null : Number(id);
}

/** A tax's rate in percent (0 when unknown). */
export async function taxRate(tx: Tx, taxId: number): Promise<number | string> {
  const { rows } = await tx.query<{ rate: number | string | null }>('SELECT rate FROM c_tax WHERE c_tax_id = $1', [taxId], { name: 'doc_tax_rate' });
  return rows[0]?.rate ?? 0;
}
