import assert from 'node:assert/strict';
import type { TestServer } from '../../helpers/server.js';
import { documentCalls, idOf, q } from './document-helpers.js';

/** The demo's accounts (C_ElementValue values, also the ids of their default combinations). */
export const ASSET = 14100;
export const COGS = 51100;
const COMBINATIONS = { P_Asset_Acct: 14100, P_COGS_Acct: 51100, P_Expense_Acct: 51200, P_InventoryClearing_Acct: 51290, P_InvoicePriceVariance_Acct: 58100, P_Revenue_Acct: 41000 };
const OTHER = 58100;

/** The weighted average the original computes (MCost.setWeightedAverage): at 8 decimals, half up. */
export const average = (price: number, qty: number, amt: number, addQty: number) => Math.round(((price * qty + amt) / (qty + addQty)) * 1e8) / 1e8;
export const cents = (n: number) => Math.round(n * 100) / 100;

let serial = 0;

/** Requests that set up costed products and read their costs, as a client would. */
export function costingCalls(at: () => { server: TestServer; token: string }) {
  const { call, ok } = documentCalls(at);
  const records = async (table: string, filter: string, order = `${table}_ID`) =>
    (await ok('GET', `/api/v1/models/${table}?$filter=${q(filter)}&$orderby=${order}`)).records as Record<string, any>[];

  /**
   * A stocked product of a category of its own whose costing method is `method` and costing level
   * `level` (M_Product_Category_Acct; null: the schema's), on the purchase list at `cost` and the
   * sales list at 30; `extra` adds product columns (as an attribute set).
   */
  async function product(method: string, cost: number, level: string | null = 'C', extra: Record<string, unknown> = {}) {
    serial++;
    const tag = `${Date.now()}-${serial}`;
    const category = await ok('POST', '/api/v1/models/m_product_category', { Value: `COST-${tag}`, Name: `Costed ${tag}`, PlannedMargin: 0 });
    // A category may come with its accounting rows (copied from the defaults); else it gets one here.
    const [acct] = await records('m_product_category_acct', `M_Product_Category_ID eq ${category.id}`);
    if (acct) await ok('PUT', `/api/v1/models/m_product_category_acct/${acct.id}`, { CostingMethod: method, CostingLevel: level });
    else {
      await ok('POST', '/api/v1/models/m_product_category_acct', {
        M_Product_Category_ID: category.id, C_AcctSchema_ID: 101, CostingMethod: method, CostingLevel: level, ...COMBINATIONS,
        P_CostAdjustment_Acct: OTHER, P_PurchasePriceVariance_Acct: OTHER, P_RateVariance_Acct: OTHER, P_TradeDiscountGrant_Acct: OTHER, P_TradeDiscountRec_Acct: OTHER,
      });
    }
    const p = await ok('POST', '/api/v1/models/m_product', {
      Value: `CP-${tag}`, Name: `Costed product ${tag}`, M_Product_Category_ID: category.id, C_TaxCategory_ID: 107, C_UOM_ID: 100, ProductType: 'I', IsStocked: true, IsPurchased: true, IsSold: true, ...extra,
    });
    await ok('POST', '/api/v1/models/m_productprice', { M_PriceList_Version_ID: 105, M_Product_ID: p.id, PriceList: cost, PriceStd: cost, PriceLimit: cost });
    await ok('POST', '/api/v1/models/m_productprice', { M_PriceList_Version_ID: 104, M_Product_ID: p.id, PriceList: 30, PriceStd: 30, PriceLimit: 30 });
    return Number(p.id);
  }

  /**
   * A completed purchase order of `qty` at `price`, received in full at the HQ warehouse, or where
   * `at` says (the order's AD_Org_ID and M_Warehouse_ID); `line` adds receipt line columns (as an instance).
   */
  async function receive(productId: number, qty: number, price: number, at: Record<string, unknown> = {}, line: Record<string, unknown> = {}) {
    const po = await ok('POST', '/api/v1/models/c_order', {
      C_BPartner_ID: 114, C_DocTypeTarget_ID: 126, IsSOTrx: false, ...at, C_OrderLine: [{ M_Product_ID: productId, QtyEntered: qty, PriceEntered: price }], 'doc-action': 'CO',
    });
    const [ol] = await records('c_orderline', `C_Order_ID eq ${po.id}`);
    return ok('POST', '/api/v1/models/m_inout', { C_Order_ID: po.id, ...at, M_InOutLine: [{ C_OrderLine_ID: ol!.id, ...line }], 'doc-action': 'CO' });
  }

  /** A completed sales order of `qty`, shipped in full (from where `at` says, with the shipment line columns `line`). */
  async function ship(productId: number, qty: number, at: Record<string, unknown> = {}, line: Record<string, unknown> = {}) {
    const so = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, ...at, C_OrderLine: [{ M_Product_ID: productId, QtyEntered: qty }], 'doc-action': 'CO' });
    const [ol] = await records('c_orderline', `C_Order_ID eq ${so.id}`);
    return ok('POST', '/api/v1/models/m_inout', { C_Order_ID: so.id, ...at, M_InOutLine: [{ C_OrderLine_ID: ol!.id, ...line }], 'doc-action': 'CO' });
  }

  /** The product's cost row (client level) of the demo's cost type. */
  async function cost(productId: number) {
    const rows = await records('m_cost', `M_Product_ID eq ${productId}`);
    assert.equal(rows.length, 1, `one cost row of product ${productId}`);
    return { price: Number(rows[0]!.CurrentCostPrice), qty: Number(rows[0]!.CurrentQty), element: Number(idOf(rows[0]!.M_CostElement_ID)) };
  }

  /** Debit − credit of the product's facts on an account. */
  async function balance(productId: number, account: number) {
    const facts = await records('fact_acct', `M_Product_ID eq ${productId} and Account_ID eq ${account}`, 'Fact_Acct_ID');
    return Math.round(facts.reduce((n, f) => n + Number(f.AmtAcctDr) - Number(f.AmtAcctCr), 0) * 100) / 100;
  }

  const details = (productId: number) => records('m_costdetail', `M_Product_ID eq ${productId}`, 'M_CostDetail_ID');

  return { call, ok, records, product, receive, ship, cost, balance, details };
}
