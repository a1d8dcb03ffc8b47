import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { csvRows } from '../../helpers/files.js';
import { idOf, q, documentCalls } from './document-helpers.js';

const HQ = 103;
const CUSTOMER = 117;
const STANDARD_ORDER = 132;

type Rec = Record<string, any>;

describe("replenishment: the demo's levels of the HQ warehouse", () => {
  const fx = serverWithDemoRoles();
  const { ok } = documentCalls(() => ({ server: fx.server, token: fx.admin }));
  const rows = async (table: string, filter: string) => (await ok('GET', `/api/v1/models/${table}?$filter=${q(filter)}&$orderby=${table}_ID`)).records as Rec[];
  const sum = (list: Rec[], column: string) => list.reduce((n, r) => n + Number(r[column]), 0);

  /** The report of the HQ warehouse (CSV): quantity to order by search key, with the stock it read. */
  async function report() {
    const r = await ok('POST', '/api/v1/processes/rv_t_replenish_production', { M_Warehouse_ID: HQ, 'report-type': 'CSV' });
    assert.equal(r.isError, false, r.summary);
    const csv = csvRows(Buffer.from(r.exportFile, 'base64'));
    return new Map(csv.slice(1).map((x) => [x[0]!, { onHand: Number(x[5]), reserved: Number(x[6]), ordered: Number(x[7]), qty: Number(x[11]) }]));
  }

  /** The product's quantity on hand over the locators of the HQ warehouse. */
  async function onHandAtHq(product: number) {
    const locators = (await rows('m_locator', `M_Warehouse_ID eq ${HQ}`)).map((l) => Number(l.id));
    return sum((await rows('m_storageonhand', `M_Product_ID eq ${product}`)).filter((s) => locators.includes(Number(idOf(s.M_Locator_ID)))), 'QtyOnHand');
  }

  /**
   * What the levels should propose from the stock the API shows: on hand over the HQ locators,
   * reserved and ordered from the reservations; reorder below minimum (1) up to the maximum when at
   * or below the minimum, maintain maximum (2) always up to it; nothing below 1. No demo product
   * has a vendor, so no minimum order or pack applies.
   */
  async function expected() {
    const out = new Map<string, { onHand: number; reserved: number; ordered: number; qty: number }>();
    for (const level of await rows('m_replenish', `M_Warehouse_ID eq ${HQ} and IsActive eq true`)) {
      const product = Number(idOf(level.M_Product_ID));
      const onHand = await onHandAtHq(product);
      const reservations = await rows('m_storagereservation', `M_Product_ID eq ${product} and M_Warehouse_ID eq ${HQ}`);
      const reserved = sum(reservations.filter((s) => s.IsSOTrx === true), 'Qty');
      const ordered = sum(reservations.filter((s) => s.IsSOTrx === false), 'Qty');
      const [min, max] = [Number(level.Level_Min), Math.max(Number(level.Level_Max), Number(level.Level_Min))];
      const projected = onHand - reserved + ordered;
      const type = idOf(level.ReplenishType);
      const qty = type === '2' || (type === '1' && projected <= min) ? max - projected : 0;
      if (qty >= 1) out.set((await ok('GET', `/api/v1/models/m_product/${product}`)).Value, { onHand, reserved, ordered, qty });
    }
    return out;
  }

  it('the report proposes out of the box what the levels and the stock say, and follows a new reservation', async () => {
    const levels = await rows('m_replenish', `M_Warehouse_ID eq ${HQ}`);
    assert.ok(levels.length >= 5, 'the demo has levels in the HQ warehouse');
    assert.deepEqual([...new Set(levels.map((l) => idOf(l.ReplenishType)))].sort(), ['1', '2'], 'reorder below minimum and maintain maximum');

    const first = await expected();
    assert.ok(first.size >= 3, 'several levels call for an order');
    assert.ok(first.size < levels.length, 'a level above its minimum calls for none');
    assert.deepEqual(await report(), first);

    // A prepared sales order reserves stock of a product that stood above its minimum.
    const valueOf = async (l: Rec) => (await ok('GET', `/api/v1/models/m_product/${idOf(l.M_Product_ID)}`)).Value as string;
    let above: Rec | undefined;
    for (const l of levels) if (!above && idOf(l.ReplenishType) === '1' && !first.has(await valueOf(l))) above = l;
    assert.ok(above, 'a reorder level above its minimum');
    const product = Number(idOf(above.M_Product_ID));
    const value = await valueOf(above);
    const stock = await onHandAtHq(product);
    await ok('POST', '/api/v1/models/c_order', {
      C_BPartner_ID: CUSTOMER, C_DocTypeTarget_ID: STANDARD_ORDER, IsSOTrx: true, M_Warehouse_ID: HQ,
      C_OrderLine: [{ M_Product_ID: product, QtyEntered: Math.ceil(stock - Number(above.Level_Min)), PriceEntered: 10 }], 'doc-action': 'PR',
    });
    const second = await expected();
    assert.ok(second.has(value), 'the reservation brings it to its minimum');
    assert.deepEqual(await report(), second);
  });
});
