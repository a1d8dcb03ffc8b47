import type { Queryable } from '../db/types.js';
import type { OperationMemo } from '../events/operation-memo.js';
import { compare, dec, div, isZero, mul, round, toNumber, type Decimal, type DecimalInput } from './decimal.js';
import { invalid } from './row-values.js';

/**
 * How a document line's quantities and prices in its own unit (C_UOM_ID: QtyEntered,
 * PriceEntered) relate to those in its product's unit (QtyOrdered, QtyInvoiced, MovementQty,
 * PriceActual), as the original's MUOMConversion: the conversion from the product's unit to the
 * line's, the product's own one first, then a generic one of the client or System.
 */
export interface UnitConversion {
  /** The line is in the product's unit: everything passes unchanged. */
  readonly identity: boolean;
  /** A quantity in the line's unit, in the product's unit. */
  toProductQty(qty: DecimalInput): number;
  /** A quantity in the product's unit, in the line's unit. */
  toEnteredQty(qty: DecimalInput): number;
  /** A price per unit of the line, per unit of the product. */
  toProductPrice(price: DecimalInput): number;
  /** A price per unit of the product, per unit of the line. */
  toEnteredPrice(price: DecimalInput): number;
}

/** Digits kept by converted prices, and by the inverse of a divide rate (as the original). */
const PRICE_SCALE = 12;
const RATE_SCALE = 50;

const same = (v: DecimalInput): number => toNumber(dec(v ?? 0));

export const IDENTITY: UnitConversion = { identity: true, toProductQty: same, toEnteredQty: same, toProductPrice: same, toEnteredPrice: same };

interface ConversionRow {
  product_uom: number | null;
  product_precision: number | null;
  line_precision: number | null;
  product_uom_name: string | null;
  line_uom_name: string | null;
  multiplyrate: string | null;
  dividerate: string | null;
}

const CONVERSION_SQL = `SELECT p.c_uom_id AS product_uom, pu.stdprecision AS product_precision, lu.stdprecision AS line_precision,
    pu.name AS product_uom_name, lu.name AS line_uom_name, r.multiplyrate::text AS multiplyrate, r.dividerate::text AS dividerate
  FROM m_product p
  LEFT JOIN c_uom pu ON pu.c_uom_id = p.c_uom_id
  LEFT JOIN c_uom lu ON lu.c_uom_id = $2
  LEFT JOIN LATERAL (
    SELECT c.multiplyrate, c.dividerate FROM c_uom_conversion c
     WHERE c.isactive = 'Y' AND c.c_uom_id = p.c_uom_id AND c.c_uom_to_id = $2
       AND (c.m_product_id = p.m_product_id OR (c.m_product_id IS NULL AND c.ad_client_id IN (0, $3)))
     ORDER BY CASE WHEN c.m_product_id IS NULL THEN 1 ELSE 0 END, c.ad_client_id DESC, c.c_uom_conversion_id LIMIT 1) r ON true
 WHERE p.m_product_id = $1`;

function conversionOf(r: ConversionRow, productId: number): UnitConversion {
  const divide = r.dividerate === null ? null : dec(r.dividerate);
  const multiply = r.multiplyrate === null ? null : dec(r.multiplyrate);
  if (divide === null || multiply === null || isZero(divide)) {
    throw invalid(`Product ${productId} has no conversion from its unit ${r.product_uom_name ?? String(r.product_uom)} to ${r.line_uom_name ?? 'the line unit'} (column C_UOM_ID)`);
  }
  // Product unit → line unit: the multiply rate, or the inverse of the divide rate when it is below one (fewer rounding losses).
  const toEntered: Decimal = compare(multiply, 1) >= 0 ? multiply : div(1, divide, RATE_SCALE);
  const linePrecision = Number(r.line_precision ?? 2);
  const productPrecision = Number(r.product_precision ?? 0);
  return {
    identity: false,
    // The original rounds to the line unit's precision, then the product quantity to the product unit's.
    toProductQty: (qty) => toNumber(round(round(mul(qty ?? 0, divide), linePrecision), productPrecision)),
    toEnteredQty: (qty) => toNumber(round(mul(qty ?? 0, toEntered), linePrecision)),
    toProductPrice: (price) => toNumber(round(mul(price ?? 0, toEntered), PRICE_SCALE)),
    toEnteredPrice: (price) => toNumber(round(mul(price ?? 0, divide), PRICE_SCALE)),
  };
}

/**
 * The conversion of a line of `productId` in unit `lineUomId`. The product's unit, when the caller
 * knows it, spares the lookup for a line in that unit; a line in a unit the product has no
 * conversion to is refused (400). Lines without a product or unit keep their quantities.
 */
export async function unitConversion(
  q: Queryable,
  memo: OperationMemo,
  productId: number | null,
  lineUomId: number | null,
  productUomId: number | null | undefined,
  clientId: number,
): Promise<UnitConversion> {
  if (productId === null || lineUomId === null || lineUomId === productUomId) return IDENTITY;
  return memo.get('c_uom_conversion', `conversion:${productId}:${lineUomId}:${clientId}`, async () => {
    const { rows } = await q.query<ConversionRow>(CONVERSION_SQL, [productId, lineUomId, clientId], { name: 'doc_uom_conversion' });
    const r = rows[0];
    if (!r || Number(r.product_uom) === lineUomId) return IDENTITY;
    return conversionOf(r, productId);
  });
}
