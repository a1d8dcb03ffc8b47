import { nextIds } from '../../db/ids.js';
import type { Tx } from '../../db/types.js';
import { badRequest } from '../../errors.js';
import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { convertedSql } from '../accounting/conversion.js';
import { dayText, flag, processRecordOf } from '../process-record.js';
import { nowTimestamp } from '../row-values.js';

/** A price list schema line (M_DiscountSchemaLine), as the statements below read it. */
interface SchemaLine {
  m_discountschemaline_id: number;
  seqno: number;
  m_product_category_id: number | null;
  m_product_id: number | null;
  c_bpartner_id: number | null;
  c_conversiontype_id: number | null;
  conversiondate: string | null;
  [column: string]: unknown;
}

interface VersionFacts {
  m_pricelist_version_id: number;
  ad_client_id: number;
  ad_org_id: number;
  m_discountschema_id: number | null;
  base_id: number | null;
  c_currency_id: number;
  precision: number;
}

const PRICES = ['list', 'std', 'limit'] as const;
type Price = (typeof PRICES)[number];
const COLUMN: Record<Price, string> = { list: 'pricelist', std: 'pricestd', limit: 'pricelimit' };
/** The base of each price (list 194): L list, S standard, X limit; F fixed and P product cost are set apart. */
const BASE_OF = (price: Price, base: string) => `CASE ${base} WHEN 'L' THEN pricelist WHEN 'S' THEN pricestd WHEN 'X' THEN pricelimit ELSE ${COLUMN[price]} END`;

/**
 * Rounding of list 155: N none, 0 whole, D dime, 5 nickel, Q quarter, T ten, h hundred, t thousand,
 * 9 ending in 9 or 5, else (C) the currency's precision.
 */
const ROUNDED = (x: string, mode: string, precision: string) => `CASE ${mode}
    WHEN 'N' THEN ${x} WHEN '0' THEN round(${x}, 0) WHEN 'D' THEN round(${x}, 1) WHEN 'T' THEN round(${x}, -1)
    WHEN 'h' THEN round(${x}, -2) WHEN 't' THEN round(${x}, -3) WHEN '5' THEN round(${x} * 20, 0) / 20 WHEN 'Q' THEN round(${x} * 4, 0) / 4
    WHEN '9' THEN CASE WHEN mod(round(${x}), 10) <= 5 THEN round(${x}) + (5 - mod(round(${x}), 10)) ELSE round(${x}) + (9 - mod(round(${x}), 10)) END
    ELSE round(${x}, ${precision}) END`;

/** The products a schema line prices: of the base version, or of current vendors without one; filtered by the line's category (with its sub-categories), product and vendor. */
const SELECTION_SQL = (fromBase: boolean) => `WITH RECURSIVE cat AS (
    SELECT c.m_product_category_id FROM m_product_category c WHERE c.m_product_category_id = $2
    UNION SELECT c.m_product_category_id FROM m_product_category c JOIN cat ON c.m_product_category_parent_id = cat.m_product_category_id)
  SELECT DISTINCT p.m_product_id FROM m_product p
  ${fromBase ? `JOIN m_productprice pp ON pp.m_product_id = p.m_product_id AND pp.m_pricelist_version_id = $1 AND pp.isactive = 'Y'` : `JOIN m_product_po po ON po.m_product_id = p.m_product_id AND po.iscurrentvendor = 'Y' AND po.isactive = 'Y' AND p.ad_client_id IN (0, $1)`}
  WHERE p.isactive = 'Y' AND ($2::bigint IS NULL OR p.m_product_category_id IN (SELECT m_product_category_id FROM cat))
    AND ($3::bigint IS NULL OR p.m_product_id = $3)
    AND ($4::bigint IS NULL OR EXISTS (SELECT 1 FROM m_product_po v WHERE v.m_product_id = p.m_product_id AND v.c_bpartner_id = $4))`;

/** New prices of the selection copied from the base version, converted to the version's currency at the line's date and conversion type. */
const COPY_FROM_BASE_SQL = (convert: (column: string) => string) => `INSERT INTO m_productprice (m_productprice_id, m_productprice_uu, m_pricelist_version_id, m_product_id, ad_client_id, ad_org_id, isactive,
    created, createdby, updated, updatedby, pricelist, pricestd, pricelimit)
  SELECT s.id, gen_random_uuid()::text, $3, pp.m_product_id, $4, $5, 'Y', $6::timestamp, $7, $6::timestamp, $7,
         COALESCE(${convert('pp.pricelist')}, 0), COALESCE(${convert('pp.pricestd')}, 0), COALESCE(${convert('pp.pricelimit')}, 0)
    FROM unnest($1::bigint[], $2::bigint[]) AS s(id, product)
    JOIN m_productprice pp ON pp.m_product_id = s.product AND pp.m_pricelist_version_id = $8
    JOIN m_pricelist_version bv ON bv.m_pricelist_version_id = pp.m_pricelist_version_id
    JOIN m_pricelist bl ON bl.m_pricelist_id = bv.m_pricelist_id`;

/** New prices of the selection from the current vendor: its list price as list and standard price, its PO price as limit. */
const COPY_FROM_VENDOR_SQL = (convert: (column: string) => string) => `INSERT INTO m_productprice (m_productprice_id, m_productprice_uu, m_pricelist_version_id, m_product_id, ad_client_id, ad_org_id, isactive,
    created, createdby, updated, updatedby, pricelist, pricestd, pricelimit)
  SELECT DISTINCT ON (po.m_product_id) s.id, gen_random_uuid()::text, $3, po.m_product_id, $4, $5, 'Y', $6::timestamp, $7, $6::timestamp, $7,
         COALESCE(${convert('po.pricelist')}, 0), COALESCE(${convert('po.pricelist')}, 0), COALESCE(${convert('po.pricepo')}, 0)
    FROM unnest($1::bigint[], $2::bigint[]) AS s(id, product)
    JOIN m_product_po po ON po.m_product_id = s.product AND po.iscurrentvendor = 'Y' AND po.isactive = 'Y' AND $8::bigint IS NULL
   ORDER BY po.m_product_id, po.pricelist DESC`;

/** SET clauses with their own parameters after the version ($1) and products ($2). */
function setClauses(build: (p: (v: unknown) => string) => string[]): { sets: string; params: unknown[] } {
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length + 2}`;
  };
  return { sets: build(p).join(', '), params };
}

/** The line's surcharge and discount on each price's base (all three from the prices before the change), its rounding, then its fixed prices. */
function calculations(line: SchemaLine, precision: number): { sets: string; params: unknown[] }[] {
  const base = (price: Price) => line[`${price}_base`] ?? 'L';
  return [
    setClauses((p) =>
      PRICES.map((price) => `${COLUMN[price]} = (${BASE_OF(price, `${p(base(price))}::text`)} + ${p(line[`${price}_addamt`] ?? 0)}::numeric) * (1 - ${p(line[`${price}_discount`] ?? 0)}::numeric / 100)`),
    ),
    setClauses((p) => PRICES.map((price) => `${COLUMN[price]} = ${ROUNDED(COLUMN[price], `${p(line[`${price}_rounding`] ?? 'C')}::text`, `${p(precision)}::int`)}`)),
    setClauses((p) => PRICES.map((price) => `${COLUMN[price]} = CASE WHEN ${p(base(price))}::text = 'F' THEN COALESCE(${p(line[`${price}_fixed`] ?? null)}::numeric, 0) ELSE ${COLUMN[price]} END`)),
  ];
}

async function versionFacts(tx: Tx, versionId: number): Promise<VersionFacts> {
  const { rows } = await tx.query<VersionFacts>(
    `SELECT v.m_pricelist_version_id, v.ad_client_id, v.ad_org_id, v.m_discountschema_id, v.m_pricelist_version_base_id AS base_id, pl.c_currency_id,
            COALESCE(c.stdprecision, 2) AS precision
       FROM m_pricelist_version v JOIN m_pricelist pl ON pl.m_pricelist_id = v.m_pricelist_id LEFT JOIN c_currency c ON c.c_currency_id = pl.c_currency_id
      WHERE v.m_pricelist_version_id = $1`,
    [versionId],
  );
  return rows[0]!;
}

/** One schema line: its selection, fresh copies of their base prices (unless the version is its own base), and the line's calculation. */
async function applyLine(c: ProcessCall, v: VersionFacts, line: SchemaLine, now: string): Promise<string> {
  const tx = c.tx;
  const baseId = v.base_id === null ? null : Number(v.base_id);
  const fromBase = baseId !== null;
  const { rows } = await tx.query<{ m_product_id: number }>(SELECTION_SQL(fromBase), [fromBase ? baseId : v.ad_client_id, line.m_product_category_id, line.m_product_id, line.c_bpartner_id]);
  const products = rows.map((r) => Number(r.m_product_id));
  if (!products.length) return `line ${line.seqno}: no products`;
  const versionId = Number(v.m_pricelist_version_id);
  if (baseId !== versionId) {
    await tx.query('DELETE FROM m_productprice WHERE m_pricelist_version_id = $1 AND m_product_id = ANY($2::bigint[])', [versionId, products]);
    const ids = await nextIds(tx, 'M_ProductPrice', products.length);
    const from = fromBase ? 'bl.c_currency_id' : 'po.c_currency_id';
    // At the line's conversion date (else now) and type (else the client's default).
    const convert = (column: string) => convertedSql(column, from, '$11::bigint', '$10::bigint', 'COALESCE($9::timestamp, $6::timestamp)', '$4::bigint');
    const date = line.conversiondate ? dayText(line.conversiondate) : null;
    await tx.query(fromBase ? COPY_FROM_BASE_SQL(convert) : COPY_FROM_VENDOR_SQL(convert), [
      ids, products, versionId, v.ad_client_id, v.ad_org_id, now, c.auth.userId, baseId, date, line.c_conversiontype_id, v.c_currency_id,
    ]);
  }
  for (const { sets, params } of calculations(line, Number(v.precision))) {
    await tx.query(`UPDATE m_productprice SET ${sets} WHERE m_pricelist_version_id = $1 AND m_product_id = ANY($2::bigint[])`, [versionId, products, ...params]);
  }
  return `line ${line.seqno}: ${products.length} prices`;
}

/**
 * Create Price List (the original's M_PriceList_Create), on a price list version: with DeleteOld its
 * prices go first; then each active line of the version's discount schema, by SeqNo, copies the
 * prices of its products from the base version (M_Pricelist_Version_Base_ID; without one, from
 * the products' current vendors) into the version, converted to its currency, and sets list,
 * standard and limit price to (base + surcharge) × (1 − discount/100) on the base the line names
 * (list, standard or limit price), rounded as the line says, or to the line's fixed price.
 */
export async function priceListCreate(c: ProcessCall): Promise<ProcessOutcome> {
  const { id } = await processRecordOf(c, 'm_pricelist_version', 'a price list version');
  const v = await versionFacts(c.tx, id);
  if (v.m_discountschema_id === null) throw badRequest('Invalid parameter', 'The price list version has no discount schema (column M_DiscountSchema_ID)');
  const { rows: lines } = await c.tx.query<SchemaLine>(`SELECT * FROM m_discountschemaline WHERE m_discountschema_id = $1 AND isactive = 'Y' ORDER BY seqno, m_discountschemaline_id`, [
    v.m_discountschema_id,
  ]);
  if (!lines.length) throw badRequest('Invalid parameter', `The discount schema ${Number(v.m_discountschema_id)} of the price list version has no active lines`);
  const now = nowTimestamp();
  if (flag(c, 'DeleteOld', false)) {
    const { rowCount } = await c.tx.query('DELETE FROM m_productprice WHERE m_pricelist_version_id = $1', [id]);
    c.log({ msg: `Deleted: ${rowCount ?? 0}` });
  }
  for (const line of lines) c.log({ msg: await applyLine(c, v, line, now) });
  const { rows } = await c.tx.query<{ n: number }>('SELECT count(*)::int AS n FROM m_productprice WHERE m_pricelist_version_id = $1', [id]);
  return { summary: `Prices of the version: ${rows[0]?.n ?? 0}` };
}
