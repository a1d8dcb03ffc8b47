import type { Queryable } from '../../db/types.js';

export interface VendorPrices {
  pricelist: number | string;
  pricestd: number | string;
  pricelimit: number | string;
}

/**
 * A product's purchase prices from its vendor's data (M_Product_PO), for a purchase line whose
 * price list has no price for it, as the original's MProductPricing falls back to the vendor: the
 * PO price (else the last PO price) is the standard and limit price, the vendor's list price (else
 * the PO price) the list price; a row in the document's currency first. Null when the vendor has none.
 */
export async function vendorPrices(q: Queryable, productId: number, vendorId: number | null, currencyId: number | null): Promise<VendorPrices | null> {
  if (vendorId === null) return null;
  const { rows } = await q.query<{ pricelist: string | null; pricepo: string | null; pricelastpo: string | null }>(
    `SELECT pricelist::text, pricepo::text, pricelastpo::text FROM m_product_po
      WHERE m_product_id = $1 AND c_bpartner_id = $2 AND isactive = 'Y' AND discontinued IS DISTINCT FROM 'Y'
      ORDER BY CASE WHEN c_currency_id = $3 THEN 0 ELSE 1 END LIMIT 1`,
    [productId, vendorId, currencyId],
    { name: 'doc_vendor_prices' },
  );
  const r = rows[0];
  if (!r) return null;
  const nonZero = (v: string | null) => (v !== null && Number(v) !== 0 ? v : null);
  const std = nonZero(r.pricepo) ?? nonZero(r.pricelastpo);
  if (std === null) return null;
  return { pricestd: std, pricelist: nonZero(r.pricelist) ?? std, pricelimit: std };
}

/**
 * The vendor a product is bought from: its current vendor in M_Product_PO, else its first vendor
 * there (the original's strategic vendor of a requisition line); null when it has none.
 */
export async function currentVendor(q: Queryable, productId: number): Promise<number | null> {
  const { rows } = await q.query<{ id: number }>(
    `SELECT c_bpartner_id AS id FROM m_product_po WHERE m_product_id = $1 AND isactive = 'Y' AND c_bpartner_id IS NOT NULL
      ORDER BY CASE WHEN iscurrentvendor = 'Y' THEN 0 ELSE 1 END, m_product_po_id LIMIT 1`,
    [productId],
    { name: 'doc_current_vendor' },
  );
  return rows[0] ? Number(rows[0].id) : null;
}
