// Pricing benchmark (node bench/pricing.mjs; build first: npm run build).
// Creates and completes 100-line sales orders, one request after another, for a partner without a
// discount schema and for a partner whose schema has quantity breaks (by quantity, by product and
// by product category, the quantities reaching them) and a flat partner discount, alternating the
// two so that both see the same database state; prints the mean and median time of each and the
// share the discounts add (target: at most 10%).
// A third variant orders for the demo partner of the order benchmark (bench/run.mjs), for comparison.
// Options: --orders 20, --create-only (the orders are created, not completed) (per variant, after 3 warm-up orders each); DATABASE_URL names a database whose
// name starts with dictum_bench (default: dictum_bench_pricing on the local server).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertBenchDatabase, defaultDatabaseUrl, ensureDatabase, withDatabase } from './lib/database.mjs';
import { freePort, loginSession, sendJson, startDictum } from './lib/server.mjs';
import { ORDER_DEMO } from './lib/scenarios.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const option = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const orders = option('orders', 20);
const WARMUP = 3;
const LINES = 100;
const databaseUrl = process.env.DATABASE_URL ?? withDatabase(defaultDatabaseUrl(), 'dictum_bench_pricing');
assertBenchDatabase(databaseUrl);

const call = sendJson;

/** A discount schema with line-level quantity breaks (general, for a product and for a category) and a customer that uses it. */
async function discountCustomer(baseUrl, token) {
  const tag = Date.now().toString(36);
  const schemaId = await breakSchema(baseUrl, token, tag);
  return customer(baseUrl, token, `disc-${tag}`, { M_DiscountSchema_ID: schemaId, FlatDiscount: 1.5 });
}

/** A new customer of the standard group with a location (the columns given added). */
async function customer(baseUrl, token, value, body = {}) {
  const bp = await call(baseUrl, token, 'POST', '/api/v1/models/c_bpartner', {
    Value: `bench-${value}`, Name: `Bench customer ${value}`, C_BP_Group_ID: 103, IsCustomer: true, ...body,
    C_BPartner_Location: [{ C_Location_ID: 120, Name: 'Stamford', IsBillTo: true, IsShipTo: true, IsPayFrom: true, IsRemitTo: true }],
  });
  return bp.id;
}

async function breakSchema(baseUrl, token, tag) {
  const schema = await call(baseUrl, token, 'POST', '/api/v1/models/m_discountschema', { Name: `Bench breaks ${tag}`, DiscountType: 'B', CumulativeLevel: 'L', ValidFrom: '2003-01-01' });
  const breaks = [
    { SeqNo: 10, BreakValue: 15, BreakDiscount: 3, M_Product_ID: 128 },
    { SeqNo: 20, BreakValue: 10, BreakDiscount: 2, M_Product_Category_ID: 110 },
    { SeqNo: 30, BreakValue: 18, BreakDiscount: 4 },
    { SeqNo: 40, BreakValue: 5, BreakDiscount: 0, IsBPartnerFlatDiscount: true },
    { SeqNo: 50, BreakValue: 1, BreakDiscount: 1 },
  ];
  for (const b of breaks) await call(baseUrl, token, 'POST', '/api/v1/models/m_discountschemabreak', { M_DiscountSchema_ID: schema.id, ...b });
  return schema.id;
}

/** A 100-line order of the demo's ten products, quantities 1 to 20, completed in the same request. */
const orderBody = (bpartnerId) => ({
  AD_Org_ID: ORDER_DEMO.orgId, C_DocTypeTarget_ID: ORDER_DEMO.docTypeId, C_BPartner_ID: bpartnerId, M_Warehouse_ID: ORDER_DEMO.warehouseId, M_PriceList_ID: ORDER_DEMO.priceListId,
  C_OrderLine: Array.from({ length: LINES }, (_, i) => ({ M_Product_ID: ORDER_DEMO.productIds[i % ORDER_DEMO.productIds.length], QtyEntered: 1 + (i % 20) })),
  ...(process.argv.includes('--create-only') ? {} : { 'doc-action': 'CO' }),
});

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

await ensureDatabase(databaseUrl);
const server = await startDictum({ root, databaseUrl, port: await freePort() });
try {
  const { token } = await loginSession(server.baseUrl);
  const discounted = await discountCustomer(server.baseUrl, token);
  const plainCustomer = await customer(server.baseUrl, token, `plain-${Date.now().toString(36)}`);
  // The same kind of new customer with and without the schema: only the discounts differ.
  const variants = [
    { name: 'plain (a new customer without schema)', body: orderBody(plainCustomer), times: [] },
    { name: 'breaks + partner flat discount', body: orderBody(discounted), times: [] },
    { name: 'demo partner 117 (the order benchmark\'s)', body: orderBody(ORDER_DEMO.bpartnerId), times: [] },
  ];
  const plain = await call(server.baseUrl, token, 'POST', '/api/v1/models/c_order', variants[0].body);
  const sample = await call(server.baseUrl, token, 'POST', '/api/v1/models/c_order', variants[1].body);
  console.log(`sample orders of ${LINES} lines: plain ${plain.DocumentNo} totals ${plain.TotalLines}, discounted ${sample.DocumentNo} totals ${sample.TotalLines}`);
  if (!(Number(sample.TotalLines) < Number(plain.TotalLines))) throw new Error('the discounted order is not cheaper: the schema did not apply');
  for (let round = 0; round < WARMUP + orders; round++) {
    for (const v of round % 2 ? [...variants].reverse() : variants) {
      const t0 = performance.now();
      const o = await call(server.baseUrl, token, 'POST', '/api/v1/models/c_order', v.body);
      const ms = performance.now() - t0;
      if (!process.argv.includes('--create-only') && (o.DocStatus?.id ?? o.DocStatus) !== 'CO') throw new Error(`order ${o.DocumentNo} ended in ${JSON.stringify(o.DocStatus)}`);
      if (round >= WARMUP) v.times.push(ms);
    }
  }
  for (const v of variants) console.log(`${v.name}: ${v.times.length} orders of ${LINES} lines, create + complete mean ${mean(v.times).toFixed(1)} ms, median ${median(v.times).toFixed(1)} ms`);
  const added = (median(variants[1].times) / median(variants[0].times) - 1) * 100;
  console.log(`discounts add ${added.toFixed(1)}% (median; target at most 10%)`);
} finally {
  await server.stop();
}
