import type { Tx } from '../db/types.js';

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

const PRODUCT_SQL = `SELECT p.c_uom_id, pp.pricelist, pp.pricestd, pp.pricelimit,
    ${taxOfCategory('p.c_taxcategory_id', '$3', '$4', '$5')} AS tax_id
  FROM m_product p
  LEFT JOIN m_productprice pp ON pp.m_product_id = p.m_product_id AND pp.isactive = 'Y'
   AND pp.m_pricelist_version_id = ${versionOnDate('$2', '$3')}
  WHERE p.m_product_id = $1`;

/** A product's unit, its prices on the price list's current version and its tax category's tax. */
export async function productFacts(tx: Tx, productId: number, c: PricingContext): Promise<ProductFacts | null> {
  const { rows } = await tx.query<ProductFacts>(PRODUCT_SQL, [productId, c.priceListId, c.date, c.isSOTrx ? 'S' : 'P', c.clientId], { name: 'doc_product' });
  return rows[0] ?? null;
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
