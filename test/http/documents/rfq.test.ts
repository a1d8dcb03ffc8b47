import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { insertSeedRows } from '../../../src/seed/insert-rows.js';
import { addRfqSeed } from '../../../src/seed/rfq-seed.js';
import { idOf, q, documentCalls } from './document-helpers.js';

const SEED_FARM = 120;
const PATIO_FUN = 121;
const TREE_FARM = 114;
const OAK_TREE = 123;
const ELM_TREE = 124;
const DEMO_TOPIC = 1123000;
const OTHER_CLIENT_RFQ = 1123990;

type Rec = Record<string, any>;

describe('requests for quotation: responses, ranking and the purchase order of the winner', () => {
  const fx = serverWithDemoRoles();
  const at = () => ({ server: fx.server, token: fx.admin });
  const { call, ok } = documentCalls(at);
  const rows = async (table: string, filter: string, order = `${table}_ID`): Promise<Rec[]> =>
    (await ok('GET', `/api/v1/models/${table}?$filter=${q(filter)}&$orderby=${order}`)).records;
  const run = async (slug: string, rfqId: number, params: Rec = {}, token = fx.admin) =>
    call('POST', `/api/v1/processes/${slug}`, { 'model-name': 'c_rfq', 'record-id': rfqId, ...params }, token);
  const runOk = async (slug: string, rfqId: number, params: Rec = {}) => {
    const r = await run(slug, rfqId, params);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.isError, false, r.body.summary);
    return r.body.summary as string;
  };
  const refusal = (r: { status: number; body: Rec; text: string }, pattern: RegExp) => {
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.status, 400);
    assert.equal(typeof r.body.title, 'string');
    assert.match(r.body.detail, pattern);
  };

  /** A topic with Seed Farm and Patio Fun subscribed; an RfQ of Oak Trees and Elm Trees, 10 to buy and 50 to ask about. */
  async function rfqWithLines(quoteType = 'A', askedQty: number | null = 50) {
    const topic = await ok('POST', '/api/v1/models/c_rfq_topic', { Name: `Trees ${Date.now()}` });
    for (const bp of [SEED_FARM, PATIO_FUN]) await ok('POST', '/api/v1/models/c_rfq_topicsubscriber', { C_RfQ_Topic_ID: topic.id, C_BPartner_ID: bp });
    const rfq = await ok('POST', '/api/v1/models/c_rfq', { Name: 'Spring trees', C_RfQ_Topic_ID: topic.id, QuoteType: quoteType, DateWorkStart: '2026-03-02', DeliveryDays: 14 });
    for (const product of [OAK_TREE, ELM_TREE]) {
      const line = await ok('POST', '/api/v1/models/c_rfqline', { C_RfQ_ID: rfq.id, M_Product_ID: product });
      await ok('POST', '/api/v1/models/c_rfqlineqty', { C_RfQLine_ID: line.id, Qty: 10, IsPurchaseQty: true });
      if (askedQty !== null) await ok('POST', '/api/v1/models/c_rfqlineqty', { C_RfQLine_ID: line.id, Qty: askedQty });
    }
    return rfq;
  }

  /** The responses of an RfQ by partner, with their quantities (in line and quantity order). */
  async function responses(rfqId: number) {
    const out = new Map<number, { response: Rec; lines: Rec[]; qtys: Rec[] }>();
    for (const response of await rows('c_rfqresponse', `C_RfQ_ID eq ${rfqId}`)) {
      const lines = await rows('c_rfqresponseline', `C_RfQResponse_ID eq ${response.id}`);
      const qtys: Rec[] = [];
      for (const line of lines) qtys.push(...(await rows('c_rfqresponselineqty', `C_RfQResponseLine_ID eq ${line.id}`)));
      out.set(Number(idOf(response.C_BPartner_ID)), { response, lines, qtys });
    }
    return out;
  }

  /** Prices in the order of the quantities: Oak 10, Oak 50, Elm 10, Elm 50 ([price, discount %]). */
  async function quote(qtys: Rec[], prices: [number, number?][]) {
    for (const [n, [price, discount]] of prices.entries()) {
      await ok('PUT', `/api/v1/models/c_rfqresponselineqty/${qtys[n]!.id}`, { Price: price, ...(discount ? { Discount: discount } : {}) });
    }
  }

  it('the demo topic has two subscribed vendors; the migration run again adds nothing', async () => {
    const subscribers = await rows('c_rfq_topicsubscriber', `C_RfQ_Topic_ID eq ${DEMO_TOPIC}`);
    assert.deepEqual(subscribers.map((s) => idOf(s.C_BPartner_ID)), [SEED_FARM, PATIO_FUN]);
    const db = fx.server.services.db;
    const counts = async () =>
      (await db.query(`SELECT (SELECT count(*)::int FROM ad_column WHERE ad_table_id BETWEEN 670 AND 677) AS c, (SELECT count(*)::int FROM ad_process WHERE ad_process_id BETWEEN 1123100 AND 1123103) AS p,
        (SELECT count(*)::int FROM ad_process_access WHERE ad_process_id BETWEEN 1123100 AND 1123103) AS a, (SELECT count(*)::int FROM c_rfq_topicsubscriber) AS s`)).rows[0];
    const before = await counts();
    assert.deepEqual(before, { c: 157, p: 4, a: 4, s: 2 });
    await db.tx((tx) => addRfqSeed(tx));
    assert.deepEqual(await counts(), before);
  });

  it('responses for the subscribers, prices entered, the cheaper vendor wins and gets one purchase order', async () => {
    const rfq = await rfqWithLines();
    assert.equal(idOf(rfq.QuoteType), 'A');
    assert.equal(rfq.IsQuoteAllQty, true);
    assert.ok(rfq.DocumentNo, 'a document number');
    assert.equal(String(rfq.DateWorkComplete).slice(0, 10), '2026-03-16', 'work start and delivery days');
    assert.equal(idOf(rfq.C_Currency_ID), 100, "the client's accounting currency");
    const lines = await rows('c_rfqline', `C_RfQ_ID eq ${rfq.id}`);
    assert.deepEqual(lines.map((l) => l.Line), [10, 20]);
    const qty = (await rows('c_rfqlineqty', `C_RfQLine_ID eq ${lines[0]!.id}`))[0]!;
    assert.equal(idOf(qty.C_UOM_ID), 100, "the product's unit");

    assert.equal(await runOk('c_rfq_create', rfq.id), 'RfQ responses created: 2');
    assert.equal(await runOk('c_rfq_create', rfq.id), 'RfQ responses created: 0', 'a partner who responded gets no second response');
    const before = await responses(rfq.id);
    assert.deepEqual([...before.keys()], [SEED_FARM, PATIO_FUN]);
    const seed = before.get(SEED_FARM)!;
    const patio = before.get(PATIO_FUN)!;
    assert.equal(seed.lines.length, 2);
    assert.equal(seed.qtys.length, 4);
    assert.equal(seed.response.Name, 'Spring trees');
    assert.equal(idOf(seed.response.C_BPartner_Location_ID), 118);

    refusal(await call('PUT', `/api/v1/models/c_rfqresponse/${seed.response.id}`, { IsComplete: true }), /cannot be complete/);
    await quote(seed.qtys, [[5], [4.5], [6.5, 10], [5.5]]);
    await quote(patio.qtys, [[6], [5], [6], [5.8]]);
    await quote(patio.qtys.slice(3), [[0]]);
    refusal(await call('PUT', `/api/v1/models/c_rfqresponse/${patio.response.id}`, { IsComplete: true }), /every quantity/);
    await quote(patio.qtys.slice(3), [[5.8]]);
    for (const r of [seed, patio]) await ok('PUT', `/api/v1/models/c_rfqresponse/${r.response.id}`, { IsComplete: true });

    assert.equal(await runOk('c_rfq_responserank', rfq.id), 'RfQ responses ranked: 2');
    const ranked = await responses(rfq.id);
    const seedRanked = ranked.get(SEED_FARM)!;
    const patioRanked = ranked.get(PATIO_FUN)!;
    assert.deepEqual(seedRanked.qtys.map((x) => x.Ranking), [1, 1, 1, 1]);
    assert.deepEqual(patioRanked.qtys.map((x) => x.Ranking), [2, 2, 2, 2]);
    assert.deepEqual([seedRanked.response.Ranking, seedRanked.response.IsSelectedWinner], [4, true]);
    assert.deepEqual([patioRanked.response.Ranking, patioRanked.response.IsSelectedWinner], [8, false]);
    assert.deepEqual(seedRanked.lines.map((l) => l.IsSelectedWinner), [true, true]);
    const elm10 = (await rows('c_rfqlineqty', `C_RfQLine_ID eq ${lines[1]!.id}`, 'Qty'))[0]!;
    assert.equal(elm10.BestResponseAmt, 5.85, '6.50 less 10 %');

    assert.equal(await runOk('c_rfq_createpo', rfq.id), 'Purchase orders created: 1');
    const withOrder = (await responses(rfq.id)).get(SEED_FARM)!.response;
    const orderId = idOf(withOrder.C_Order_ID);
    assert.ok(orderId, 'the response names its order');
    const order = await ok('GET', `/api/v1/models/c_order/${String(orderId)}`);
    assert.deepEqual([idOf(order.C_BPartner_ID), order.IsSOTrx, idOf(order.DocStatus)], [SEED_FARM, false, 'DR']);
    assert.equal(String(order.DatePromised).slice(0, 10), '2026-03-16', "promised at the RfQ's work-complete date");
    const orderLines = await rows('c_orderline', `C_Order_ID eq ${String(orderId)}`, 'Line');
    assert.deepEqual(
      orderLines.map((l) => [idOf(l.M_Product_ID), l.QtyOrdered, l.PriceEntered]),
      [[OAK_TREE, 10, 5], [ELM_TREE, 10, 5.85]],
      'the purchase quantities at the net response prices',
    );
    assert.match(await runOk('c_rfq_createpo', rfq.id), /No purchase order to create/);
    assert.equal((await rows('c_order', `C_BPartner_ID eq ${SEED_FARM} and Description eq '${`RfQ ${rfq.DocumentNo}: Spring trees`}'`)).length, 1, 'no second order');
  });

  it('quote selected lines: each vendor wins its cheaper line and gets an order of that line alone', async () => {
    const rfq = await rfqWithLines('S');
    await runOk('c_rfq_create', rfq.id);
    const all = await responses(rfq.id);
    await quote(all.get(SEED_FARM)!.qtys, [[5], [4], [9], [8]]);
    await quote(all.get(PATIO_FUN)!.qtys, [[6], [5], [7], [6]]);
    for (const r of all.values()) await ok('PUT', `/api/v1/models/c_rfqresponse/${r.response.id}`, { IsComplete: true });
    await runOk('c_rfq_responserank', rfq.id);
    const ranked = await responses(rfq.id);
    assert.deepEqual([...ranked.values()].map((r) => r.response.IsSelectedWinner), [false, false], 'no winner of the whole RfQ when it quotes selected lines');
    assert.deepEqual(ranked.get(SEED_FARM)!.lines.map((l) => l.IsSelectedWinner), [true, false]);
    assert.deepEqual(ranked.get(PATIO_FUN)!.lines.map((l) => l.IsSelectedWinner), [false, true]);
    assert.equal(await runOk('c_rfq_createpo', rfq.id), 'Purchase orders created: 2');
    const ordered = await responses(rfq.id);
    for (const [vendor, product, price] of [[SEED_FARM, OAK_TREE, 5], [PATIO_FUN, ELM_TREE, 7]] as const) {
      const orderId = idOf(ordered.get(vendor)!.response.C_Order_ID);
      assert.equal(idOf((await ok('GET', `/api/v1/models/c_order/${String(orderId)}`)).C_BPartner_ID), vendor);
      const lines = await rows('c_orderline', `C_Order_ID eq ${String(orderId)}`, 'Line');
      assert.deepEqual(lines.map((l) => [idOf(l.M_Product_ID), l.QtyOrdered, l.PriceEntered]), [[product, 10, price]]);
    }
    assert.match(await runOk('c_rfq_createpo', rfq.id), /No purchase order to create/);
  });

  it('quote total only: one quantity per line; the lower total wins and its order has the purchase quantities', async () => {
    const twoQuantities = await rfqWithLines('T');
    const refused = await run('c_rfq_create', twoQuantities.id);
    assert.equal(refused.body.isError, true, refused.text);
    assert.match(refused.body.summary, /Line 10: 2 quantities/);
    const rfq = await rfqWithLines('T', null);
    assert.equal(rfq.IsQuoteTotalAmt, true);
    await runOk('c_rfq_create', rfq.id);
    const all = await responses(rfq.id);
    refusal(await call('PUT', `/api/v1/models/c_rfqresponse/${all.get(SEED_FARM)!.response.id}`, { IsComplete: true }), /total price/);
    await ok('PUT', `/api/v1/models/c_rfqresponse/${all.get(SEED_FARM)!.response.id}`, { Price: 120, IsComplete: true });
    await ok('PUT', `/api/v1/models/c_rfqresponse/${all.get(PATIO_FUN)!.response.id}`, { Price: 110, IsComplete: true });
    await runOk('c_rfq_responserank', rfq.id);
    const ranked = await responses(rfq.id);
    assert.deepEqual([ranked.get(PATIO_FUN)!.response.Ranking, ranked.get(PATIO_FUN)!.response.IsSelectedWinner], [1, true]);
    assert.deepEqual([ranked.get(SEED_FARM)!.response.Ranking, ranked.get(SEED_FARM)!.response.IsSelectedWinner], [2, false]);
    assert.equal(await runOk('c_rfq_createpo', rfq.id), 'Purchase orders created: 1');
    const orderId = idOf((await responses(rfq.id)).get(PATIO_FUN)!.response.C_Order_ID);
    assert.equal(idOf((await ok('GET', `/api/v1/models/c_order/${String(orderId)}`)).C_BPartner_ID), PATIO_FUN);
    const orderLines = await rows('c_orderline', `C_Order_ID eq ${String(orderId)}`, 'Line');
    assert.deepEqual(orderLines.map((l) => [idOf(l.M_Product_ID), l.QtyOrdered]), [[OAK_TREE, 10], [ELM_TREE, 10]]);
    assert.ok(orderLines.every((l) => Number(l.PriceEntered) > 0), 'lines without a quoted price take the price list price');
  });

  it('refuses: ranking without complete responses, answers to another RfQ line, responses for a closed RfQ, changes to a closed RfQ, a negative quantity', async () => {
    const rfq = await rfqWithLines();
    const noneComplete = await run('c_rfq_responserank', rfq.id);
    assert.equal(noneComplete.body.isError, true, noneComplete.text);
    assert.match(noneComplete.body.summary, /no complete responses/);
    assert.match((await run('c_rfq_createpo', rfq.id)).body.summary, /no complete responses/);
    const line = (await rows('c_rfqline', `C_RfQ_ID eq ${rfq.id}`))[0]!;
    refusal(await call('POST', '/api/v1/models/c_rfqlineqty', { C_RfQLine_ID: line.id, Qty: -1 }), /positive/);

    const partner = await run('c_rfq_create', rfq.id, { 'C_BPartner_ID': TREE_FARM });
    assert.equal(partner.body.summary, 'RfQ responses created: 1', 'one partner given');
    const [own] = await rows('c_rfqresponse', `C_RfQ_ID eq ${rfq.id}`);
    const [line10] = await rows('c_rfqresponseline', `C_RfQResponse_ID eq ${own!.id}`);
    const line20 = (await rows('c_rfqline', `C_RfQ_ID eq ${rfq.id}`))[1]!;
    const qtyOfLine20 = (await rows('c_rfqlineqty', `C_RfQLine_ID eq ${line20.id}`))[0]!;
    refusal(await call('POST', '/api/v1/models/c_rfqresponselineqty', { C_RfQResponseLine_ID: line10!.id, C_RfQLineQty_ID: qtyOfLine20.id }), /not part of the RfQ/);
    const otherRfqLine = (await rows('c_rfqline', `C_RfQ_ID eq ${(await rfqWithLines()).id}`))[0]!;
    refusal(await call('POST', '/api/v1/models/c_rfqresponseline', { C_RfQResponse_ID: own!.id, C_RfQLine_ID: otherRfqLine.id }), /not part of the RfQ/);
    assert.match(await runOk('c_rfq_close', rfq.id), /closed with 1 response/);
    const closed = await ok('GET', `/api/v1/models/c_rfq/${rfq.id}`);
    assert.deepEqual([closed.Processed, closed.IsRfQResponseAccepted], [true, false]);
    refusal(await call('PUT', `/api/v1/models/c_rfq/${rfq.id}`, { Name: 'changed' }), /closed|processed/);
    refusal(await call('POST', '/api/v1/models/c_rfqline', { C_RfQ_ID: rfq.id, M_Product_ID: OAK_TREE }), /closed/);
    const again = await run('c_rfq_create', rfq.id);
    assert.equal(again.body.isError, true);
    assert.match(again.body.summary, /closed/);
    assert.match((await run('c_rfq_responserank', rfq.id)).body.summary, /closed/);
    const response = (await rows('c_rfqresponse', `C_RfQ_ID eq ${rfq.id}`))[0]!;
    refusal(await call('PUT', `/api/v1/models/c_rfqresponse/${response.id}`, { Description: 'late' }), /closed|processed/);
    const qty = (await rows('c_rfqresponselineqty', `C_RfQResponseLine_ID eq ${(await rows('c_rfqresponseline', `C_RfQResponse_ID eq ${response.id}`))[0]!.id}`))[0]!;
    refusal(await call('PUT', `/api/v1/models/c_rfqresponselineqty/${qty.id}`, { Price: 3 }), /closed/);
    refusal(await call('PUT', `/api/v1/models/c_rfqresponseline/${line10!.id}`, { IsSelectedWinner: true }), /closed/);
  });

  it('the least-privileged role reads RfQs but runs none of the processes; another client’s RfQ is invisible', async () => {
    const rfq = await rfqWithLines();
    const asWs = await call('GET', `/api/v1/models/c_rfq/${rfq.id}`, undefined, fx.ws);
    assert.equal(asWs.status, 200, asWs.text);
    assert.equal(asWs.body.AD_Client_ID.propertyLabel, 'Tenant', "the standard columns carry the seed's element names");
    for (const token of [fx.user, fx.ws]) {
      const r = await run('c_rfq_create', rfq.id, {}, token);
      assert.ok(r.status === 403 || r.status === 404, `${r.status} ${r.text}`);
    }
    assert.equal((await rows('c_rfqresponse', `C_RfQ_ID eq ${rfq.id}`)).length, 0);

    const db = fx.server.services.db;
    const table = fx.server.services.dictionary.current.byName.get('c_rfq')!;
    await insertSeedRows(db, table, [
      { C_RfQ_ID: OTHER_CLIENT_RFQ, AD_Client_ID: 1123991, AD_Org_ID: 1123992, DocumentNo: 'OTHER-1', Name: 'Other company RfQ', C_RfQ_Topic_ID: DEMO_TOPIC, QuoteType: 'S', C_Currency_ID: 100, DateResponse: new Date().toISOString(), SalesRep_ID: 100 },
    ], new Date().toISOString());
    const read = await call('GET', `/api/v1/models/c_rfq/${OTHER_CLIENT_RFQ}`);
    assert.ok(read.status === 403 || read.status === 404, `${read.status} ${read.text}`);
    assert.deepEqual(await rows('c_rfq', `Name eq 'Other company RfQ'`), []);
    const rank = await run('c_rfq_responserank', OTHER_CLIENT_RFQ);
    assert.equal(rank.status, 404, rank.text);
    assert.equal(rank.body.status, 404);
  });
});
