import { ident } from '../db/sql.js';
import type { ModelEvent, PrepareNewEvent, Row } from '../events/model-events.js';
import { add, toNumber, type DecimalInput } from './decimal.js';
import type { DocumentKind } from './document-kinds.js';
import { discountPercent, isUnderLimit, lineNetAmount, nextLineNo, taxAmount } from './document-math.js';
import { chargeTax, prefetchProductFacts, productFacts, taxRate, type PricingContext } from './pricing.js';
import { vendorPrices } from './buying/vendor-price.js';
import { hasBreaks, partnerPrice, priceOfDiscount } from './pricing/line-price.js';
import { recomputeDocument } from './totals.js';
import { fillEmpty, fillUnset, idOf, invalid, isDefaulted, isEmptyValue, todayDate } from './row-values.js';
import { IDENTITY, unitConversion, type UnitConversion } from './units.js';

/**
 * The header of a line, locked for the rest of the transaction, with its currency precision and
 * price list rule; read once per write operation (the lines of one order share it) until the
 * operation writes the header.
 */
function lockHeader(e: Pick<ModelEvent, 'tx' | 'memo'>, kind: DocumentKind, headerId: number): Promise<Row | null> {
  return e.memo.get(kind.header, `locked:${headerId}`, async () => {
    const { rows } = await e.tx.query<Row>(
      `SELECT h.*, COALESCE(c.stdprecision, 2) AS doc_precision, pl.enforcepricelimit AS doc_enforce_limit, COALESCE(pl.priceprecision, 2) AS doc_price_precision
         FROM ${ident(kind.header)} h
         LEFT JOIN c_currency c ON c.c_currency_id = h.c_currency_id
         LEFT JOIN m_pricelist pl ON pl.m_pricelist_id = h.m_pricelist_id
        WHERE h.${ident(kind.headerKey)} = $1 FOR UPDATE OF h`,
      [headerId],
      { name: `doc_lock_${kind.header}` },
    );
    return rows[0] ?? null;
  });
}

/** What prices and taxes of a header's lines depend on. */
function pricingContext(e: Pick<ModelEvent, 'auth'>, kind: DocumentKind, header: Row): PricingContext {
  return {
    priceListId: idOf(header.m_pricelist_id),
    date: String(header[kind.dateColumn] ?? todayDate()),
    isSOTrx: header.issotrx !== 'N',
    clientId: Number(header.ad_client_id ?? e.auth.clientId),
  };
}

/**
 * Before the lines of one request go through their rules one by one: locks their header and
 * reads the facts of all their products in one statement each.
 */
export async function linesPrepare(e: PrepareNewEvent, kind: DocumentKind): Promise<void> {
  const headerIds = new Set(e.rows.map((r) => idOf(r[kind.headerKey])).filter((id): id is number => id !== null));
  if (headerIds.size !== 1) return;
  const header = await lockHeader(e, kind, [...headerIds][0]!);
  if (!header || header.processed === 'Y') return;
  const productIds = [...new Set(e.rows.map((r) => idOf(r.m_product_id)).filter((id): id is number => id !== null))];
  if (productIds.length > 1) await prefetchProductFacts(e.tx, e.memo, productIds, pricingContext(e, kind, header));
}

function refuseProcessed(kind: DocumentKind, header: Row): void {
  if (header.processed === 'Y') throw invalid(`${kind.name} ${String(header.documentno ?? '')} is processed: its lines cannot change (column ${kind.name}_ID)`);
}

/** Columns of a line whose change reprices it or changes its amounts. */
const pricingColumns = (kind: DocumentKind): string[] => [
  'm_product_id',
  'c_charge_id',
  'c_uom_id',
  'qtyentered',
  kind.qtyColumn,
  'priceentered',
  'pricelist',
  'pricelimit',
  'discount',
  'c_tax_id',
];

/** What a new line takes from its header: dates, warehouse, partner, currency. */
async function copyFromHeader(e: ModelEvent, header: Row): Promise<void> {
  for (const c of ['dateordered', 'datepromised', 'c_bpartner_id']) fillEmpty(e, c, header[c]);
  for (const c of ['m_warehouse_id', 'c_bpartner_location_id']) await fillUnset(e, c, idOf(header[c]));
  if (e.table.byName.has('c_currency_id') && idOf(header.c_currency_id) !== null) e.row.c_currency_id = Number(header.c_currency_id);
}

function mayOverwriteLimit(e: ModelEvent): Promise<boolean> {
  if (!e.dict.byName.get('ad_role')?.byName.has('overwritepricelimit')) return Promise.resolve(false);
  return e.memo.get('ad_role', `overwritepricelimit:${e.auth.roleId}`, async () => {
    const { rows } = await e.tx.query<{ o: string | null }>('SELECT overwritepricelimit AS o FROM ad_role WHERE ad_role_id = $1', [e.auth.roleId]);
    return rows[0]?.o === 'Y';
  });
}

/** Sets a column on a new line when unset, on a changed line unless the caller changed it too. */
async function derive(e: ModelEvent, column: string, value: number | null): Promise<void> {
  if (value === null) return;
  if (e.type === 'before-new') await fillUnset(e, column, value);
  else if (!e.changed.has(column)) e.row[column] = value;
}

/** A row value as an amount for the decimal math (numbers, decimal text, or nothing). */
const amount = (v: unknown): DecimalInput => (typeof v === 'number' || typeof v === 'string' ? v : null);

/** Whether the caller set a column: a non-empty value on a new line, a changed one on an update. */
const givenBy = (e: ModelEvent) => (c: string): boolean => (e.type === 'before-new' ? !isEmptyValue(e.row[c]) : e.changed.has(c));

/**
 * How a line was priced from its product: whether it was, and whether PriceEntered holds the
 * price list's standard price per product unit, still to discount and convert.
 */
interface Priced {
  repriced: boolean;
  inProductUnit: boolean;
}

const NOT_PRICED: Priced = { repriced: false, inProductUnit: false };

/** The partner of a line's document, for its discount schema. */
const partnerOf = (header: Row): number | null => idOf(header.c_bpartner_id);

/** Whether the caller set the line's discount: named in a new line's request, or changed. */
const discountGiven = (e: ModelEvent): boolean => (e.type === 'before-new' ? (e.given?.has('discount') ?? false) : e.changed.has('discount'));

/**
 * A changed quantity of a line whose partner's schema has breaks takes the standard price again,
 * for the break it reaches (the original's quantity callout), unless the caller sets the price.
 */
async function requotesOnQuantity(e: ModelEvent, kind: DocumentKind, header: Row, ctx: PricingContext): Promise<boolean> {
  if (!['qtyentered', kind.qtyColumn].some((c) => e.changed.has(c))) return false;
  if (e.changed.has('priceentered') || discountGiven(e)) return false;
  return hasBreaks(e.tx, e.memo, partnerOf(header), ctx.isSOTrx);
}

/**
 * A new product brings its unit, its prices on the price list's current version (unless the caller
 * set them) and its tax category's tax; a charge brings its tax category's tax.
 */
async function applyProductOrCharge(e: ModelEvent, kind: DocumentKind, header: Row, ctx: PricingContext): Promise<Priced> {
  const row = e.row;
  const isNew = e.type === 'before-new';
  const given = givenBy(e);
  const productId = idOf(row.m_product_id);
  if (productId === null) {
    const chargeId = idOf(row.c_charge_id);
    if (chargeId !== null && (isNew || e.changed.has('c_charge_id'))) await derive(e, 'c_tax_id', await chargeTax(e.tx, chargeId, ctx));
    return NOT_PRICED;
  }
  if (!isNew && !e.changed.has('m_product_id')) {
    if (!(await requotesOnQuantity(e, kind, header, ctx))) return NOT_PRICED;
    const p = await productFacts(e.tx, e.memo, productId, ctx);
    if (p?.pricestd === null || p?.pricestd === undefined) return NOT_PRICED;
    row.priceentered = p.pricestd;
    return { repriced: true, inProductUnit: true };
  }
  const facts = await productFacts(e.tx, e.memo, productId, ctx);
  if (!facts) return NOT_PRICED;
  // A purchase line without a price list price takes its vendor's price (M_Product_PO).
  const vendor = !ctx.isSOTrx && (facts.pricestd === null || facts.pricestd === undefined) ? await vendorPrices(e.tx, productId, idOf(e.row.c_bpartner_id), idOf(e.row.c_currency_id)) : null;
  const p = vendor ? { ...facts, ...vendor } : facts;
  await derive(e, 'c_uom_id', idOf(p.c_uom_id));
  let inProductUnit = false;
  if (p.pricestd !== null && p.pricestd !== undefined) {
    // Price list prices are per unit of the product.
    if (!given('pricelist')) row.pricelist = p.pricelist ?? 0;
    if (!given('pricelimit')) row.pricelimit = p.pricelimit ?? 0;
    if (!given('priceentered') && !discountGiven(e)) {
      row.priceentered = p.pricestd;
      inProductUnit = true;
    }
  } else if (!given('priceentered') && !(discountGiven(e) && given('pricelist'))) {
    throw invalid(`Product ${productId} is not on the price list valid on ${ctx.date.slice(0, 10)}: give PriceEntered (column M_Product_ID)`);
  }
  await derive(e, 'c_tax_id', idOf(p.tax_id));
  return { repriced: true, inProductUnit };
}

/** The conversion between the line's unit and its product's (the product's unit comes from the memo of its prices). */
async function lineUnits(e: ModelEvent, ctx: PricingContext): Promise<UnitConversion> {
  const productId = idOf(e.row.m_product_id);
  if (productId === null) return IDENTITY;
  const p = await productFacts(e.tx, e.memo, productId, ctx);
  return unitConversion(e.tx, e.memo, productId, idOf(e.row.c_uom_id), idOf(p?.c_uom_id), ctx.clientId);
}

/**
 * Which of a line's quantities decides the other: the entered one (in the line's unit) when the
 * caller gives it, or gives neither, or changes the unit or product; the one in the product's unit
 * when only it is given (or set by an earlier rule, which leaves QtyEntered empty).
 */
export async function quantitySource(e: ModelEvent, qtyColumn: string): Promise<'entered' | 'product' | null> {
  const row = e.row;
  if (e.type !== 'before-new') {
    if (['qtyentered', 'c_uom_id', 'm_product_id'].some((c) => e.changed.has(c))) return 'entered';
    return e.changed.has(qtyColumn) ? 'product' : null;
  }
  if (e.given?.has('qtyentered')) return 'entered';
  if (e.given?.has(qtyColumn)) return 'product';
  if (isEmptyValue(row.qtyentered) && !isEmptyValue(row[qtyColumn])) return 'product';
  const ruleSetQty = !isEmptyValue(row[qtyColumn]) && !(await isDefaulted(e, qtyColumn));
  return ruleSetQty && (await isDefaulted(e, 'qtyentered')) ? 'product' : 'entered';
}

/** The quantity in the product's unit follows the entered one through the unit conversion, or the other way round (see quantitySource). */
export async function applyQuantities(e: ModelEvent, qtyColumn: string, units: UnitConversion): Promise<void> {
  const row = e.row;
  const source = await quantitySource(e, qtyColumn);
  if (source === 'entered') {
    row.qtyentered = row.qtyentered ?? 0;
    row[qtyColumn] = units.toProductQty(amount(row.qtyentered));
  } else if (source === 'product') row.qtyentered = units.toEnteredQty(amount(row[qtyColumn]));
}

/**
 * The entered price of a line priced from its product: the standard price after the partner's
 * discount schema, or the list price less a discount the caller gives, in the line's unit.
 */
async function applyDiscounts(e: ModelEvent, header: Row, ctx: PricingContext, units: UnitConversion, priced: Priced, kind: DocumentKind): Promise<void> {
  const row = e.row;
  const productId = idOf(row.m_product_id);
  const priceGiven = e.type === 'before-new' ? !isEmptyValue(row.priceentered) && !priced.inProductUnit : e.changed.has('priceentered');
  if (discountGiven(e) && !priceGiven && !isEmptyValue(row.pricelist)) {
    const actual = priceOfDiscount(amount(row.pricelist), amount(row.discount), Number(header.doc_price_precision ?? 2));
    row.priceentered = units.toEnteredPrice(actual);
    return;
  }
  if (!priced.inProductUnit || productId === null) return;
  const p = await productFacts(e.tx, e.memo, productId, ctx);
  const std = await partnerPrice(e.tx, e.memo, {
    partnerId: partnerOf(header),
    isSOTrx: ctx.isSOTrx,
    productId,
    categoryId: idOf(p?.m_product_category_id),
    qty: amount(row[kind.qtyColumn]),
    priceStd: amount(row.priceentered),
    precision: Number(header.doc_price_precision ?? 2),
  });
  row.priceentered = units.toEnteredPrice(std);
}

/** The actual price is the entered one in the product's unit; the discount follows; a limit price may be enforced. */
async function applyPrices(e: ModelEvent, header: Row, ctx: PricingContext, units: UnitConversion): Promise<void> {
  const row = e.row;
  row.priceentered = row.priceentered ?? 0;
  row.priceactual = units.toProductPrice(amount(row.priceentered));
  if (e.table.byName.has('discount') && !isEmptyValue(row.pricelist)) row.discount = discountPercent(amount(row.pricelist), amount(row.priceactual));
  if (ctx.isSOTrx && header.doc_enforce_limit === 'Y' && isUnderLimit(amount(row.priceactual), amount(row.pricelimit)) && !(await mayOverwriteLimit(e))) {
    throw invalid(`Price ${String(row.priceactual)} is under the limit price ${String(row.pricelimit)} (column PriceEntered)`);
  }
}

/** LineNetAmt, and for invoice lines TaxAmt and LineTotalAmt. */
async function applyAmounts(e: ModelEvent, header: Row): Promise<void> {
  const row = e.row;
  const precision = Number(header.doc_precision ?? 2);
  // As the original: the entered price times the entered quantity (the same as actual price times quantity in the product's unit).
  row.linenetamt = lineNetAmount(amount(row.priceentered), amount(row.qtyentered), precision);
  if (!e.table.byName.has('taxamt')) return;
  const taxId = idOf(row.c_tax_id);
  const included = header.istaxincluded === 'Y';
  row.taxamt = taxId === null ? 0 : taxAmount(amount(row.linenetamt), await taxRate(e.tx, taxId), included, precision);
  if (e.table.byName.has('linetotalamt')) row.linetotalamt = included ? row.linenetamt : toNumber(add(amount(row.linenetamt), amount(row.taxamt)));
}

/**
 * Rules of an order or invoice line before it is saved:
 * - refuses lines of a processed document;
 * - a new line takes dates, warehouse, partner and currency from its header;
 * - a product brings its unit, its prices on the header's price list (current version on the
 *   document date) and its tax category's tax; a charge its tax category's tax;
 * - the quantity in the product's unit follows the entered one in the line's unit (or the other
 *   way round when only it is given), the actual price the entered one, through the conversion of
 *   the line's unit to the product's (refused without one); LineNetAmt = round(PriceEntered ×
 *   QtyEntered, currency precision, HALF_UP);
 * - invoice lines also get TaxAmt and LineTotalAmt; a new line without number gets the next ten.
 */
export async function lineBeforeSave(e: ModelEvent, kind: DocumentKind): Promise<void> {
  const row = e.row;
  const isNew = e.type === 'before-new';
  const headerId = idOf(row[kind.headerKey]);
  if (headerId === null) return;
  const header = await lockHeader(e, kind, headerId);
  if (!header) throw invalid(`${kind.name} ${headerId} not found for column ${kind.name}_ID`);
  refuseProcessed(kind, header);
  if (!isNew && !pricingColumns(kind).some((c) => e.changed.has(c))) return;
  if (isNew) await copyFromHeader(e, header);
  const ctx = pricingContext(e, kind, header);
  // Only PriceActual given: the entered price follows it (converted below once the unit is known).
  const fromActual = isNew && isEmptyValue(row.priceentered) && !isEmptyValue(row.priceactual);
  if (fromActual) row.priceentered = row.priceactual;
  const priced = await applyProductOrCharge(e, kind, header, ctx);
  const units = await lineUnits(e, ctx);
  if (fromActual) row.priceentered = units.toEnteredPrice(amount(row.priceentered));
  await applyQuantities(e, kind.qtyColumn, units);
  await applyDiscounts(e, header, ctx, units, priced, kind);
  const unitChanged = !isNew && e.changed.has('c_uom_id');
  if (isNew || priced.repriced || unitChanged || ['priceentered', 'pricelist', 'pricelimit', 'discount'].some((c) => e.changed.has(c))) await applyPrices(e, header, ctx, units);
  await applyAmounts(e, header);
  if (isNew && isEmptyValue(row.line)) {
    const { rows } = await e.tx.query<{ max: number | null }>(`SELECT MAX(line) AS max FROM ${ident(kind.line)} WHERE ${ident(kind.headerKey)} = $1`, [headerId]);
    row.line = nextLineNo(rows[0]?.max ?? 0);
  }
}

/** Lines of a processed document cannot be deleted either. */
export async function lineBeforeDelete(e: ModelEvent, kind: DocumentKind): Promise<void> {
  const headerId = idOf(e.row[kind.headerKey]);
  if (headerId === null) return;
  const header = await lockHeader(e, kind, headerId);
  if (header) refuseProcessed(kind, header);
}

/** After a line is written or deleted, the document's tax rows and totals follow. */
export async function lineAfterSave(e: ModelEvent, kind: DocumentKind): Promise<void> {
  if (e.type === 'after-change' && !['linenetamt', 'c_tax_id', kind.headerKey].some((c) => e.changed.has(c))) return;
  const recompute = (headerId: unknown) => {
    const id = idOf(headerId);
    if (id !== null) e.defer(`totals:${kind.header}:${id}`, () => recomputeDocument(e, kind, id));
  };
  recompute(e.row[kind.headerKey]);
  if (e.type === 'after-change' && e.changed.has(kind.headerKey)) recompute(e.old?.[kind.headerKey]);
}
