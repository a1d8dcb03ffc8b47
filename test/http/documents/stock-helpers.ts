import assert from 'node:assert/strict';
import type { TestServer } from '../../helpers/server.js';
import { idOf, q } from './document-helpers.js';

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Reads of stock, reservations, order lines and accounting facts, as a client would make them. */
export function stockHelpers(at: () => { server: TestServer; token: string }) {
  const get = async (path: string) => {
    const { server, token } = at();
    const r = await server.request('GET', path, { token });
    assert.equal(r.status, 200, r.text);
    return r.body;
  };
  const sum = (records: Record<string, unknown>[], column: string) => round2(records.reduce((n, x) => n + Number(x[column]), 0));
  return {
    /** On hand at the HQ warehouse's locator 101. */
    onHand: async (product: number) => sum((await get(`/api/v1/models/m_storageonhand?$filter=${q(`M_Product_ID eq ${product} and M_Locator_ID eq 101`)}`)).records, 'QtyOnHand'),
    /** On hand at any locator. */
    onHandAt: async (product: number, locator: number) =>
      sum((await get(`/api/v1/models/m_storageonhand?$filter=${q(`M_Product_ID eq ${product} and M_Locator_ID eq ${locator}`)}`)).records, 'QtyOnHand'),
    /** Reserved by sales orders at the HQ warehouse. */
    reserved: async (product: number) =>
      sum((await get(`/api/v1/models/m_storagereservation?$filter=${q(`M_Product_ID eq ${product} and M_Warehouse_ID eq 103 and IsSOTrx eq true`)}`)).records, 'Qty'),
    orderLines: async (orderId: number) => (await get(`/api/v1/models/c_orderline?$filter=${q(`C_Order_ID eq ${orderId}`)}&$orderby=Line`)).records as Record<string, any>[],
    /** A document's facts through $expand=fact_acct.record_id: sums and accounts. */
    facts: async (table: string, id: number) => {
      const body = await get(`/api/v1/models/${table}/${id}?$expand=fact_acct.record_id`);
      const facts = (body['fact_acct.record_id'] ?? body.fact_acct ?? []) as Record<string, unknown>[];
      return { dr: sum(facts, 'AmtAcctDr'), cr: sum(facts, 'AmtAcctCr'), count: facts.length, accounts: facts.map((f) => Number(idOf(f.Account_ID))), rows: facts };
    },
  };
}
