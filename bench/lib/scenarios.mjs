// The scenarios of the benchmark, as request descriptions (see requests.mjs).
import { CUSTOMER_GROUP_ID, FIRST_ID, ORDER_MARK } from './dataset.mjs';
import { LOGIN } from './server.mjs';
import { upper } from './handwritten-sql.mjs';

/**
 * Demo data the order scenario uses: GardenWorld customer C&W Construction, Standard Order,
 * HQ warehouse, standard price list, ten stocked products. The partner location, currency and
 * sales representative are looked up at run time (orderLookups); these are the demo's values.
 */
export const ORDER_DEMO = {
  bpartnerId: 117,
  docTypeId: 132,
  warehouseId: 103,
  priceListId: 101,
  orgId: 11,
  productIds: [123, 124, 125, 127, 128, 129, 130, 133, 134, 135],
  bpartnerLocationId: 112,
  currencyId: 100,
  salesRepId: 101,
};

/** The order's partner location, currency (of the price list) and sales representative (the logged-in user), read through the API. */
export async function orderLookups(getJson, userId) {
  const d = ORDER_DEMO;
  const out = { ...d };
  const notes = [];
  try {
    const r = await getJson(`/api/v1/models/c_bpartner_location?${q({ $filter: `C_BPartner_ID eq ${d.bpartnerId} and IsShipTo eq true`, $top: '1', $select: 'Name' })}`);
    if (r.records?.[0]?.id) out.bpartnerLocationId = r.records[0].id;
  } catch (e) {
    notes.push(`partner location: ${e.message}`);
  }
  try {
    const r = await getJson(`/api/v1/models/m_pricelist/${d.priceListId}?$select=C_Currency_ID`);
    const c = r.C_Currency_ID;
    if (c && typeof c === 'object' && c.id) out.currencyId = c.id;
    else if (typeof c === 'number') out.currencyId = c;
  } catch (e) {
    notes.push(`currency: ${e.message}`);
  }
  if (userId) out.salesRepId = userId;
  return { order: out, notes };
}

/**
 * The partner of the order scenario's discount variant: a customer (found by its search key, else
 * created with a location of the demo partner's address) whose line-level discount schema has
 * quantity breaks (for a product, for a category, for everything, one giving the partner's flat
 * discount), so that pricing applies breaks and discounts to every line. Answers the order
 * description with that partner.
 */
export async function discountOrder(send, order) {
  const value = 'bench-breaks';
  const found = await send('GET', `/api/v1/models/c_bpartner?${q({ $filter: `Value eq '${value}'`, $expand: 'C_BPartner_Location', $top: '1' })}`);
  let bp = found.records?.[0];
  if (!bp) {
    const schema = await send('POST', '/api/v1/models/m_discountschema', { Name: 'Benchmark breaks', DiscountType: 'B', CumulativeLevel: 'L', ValidFrom: '2003-01-01' });
    const breaks = [
      { SeqNo: 10, BreakValue: 3, BreakDiscount: 3, M_Product_ID: 128 },
      { SeqNo: 20, BreakValue: 2, BreakDiscount: 2, M_Product_Category_ID: 110 },
      { SeqNo: 30, BreakValue: 3, BreakDiscount: 0, IsBPartnerFlatDiscount: true },
      { SeqNo: 40, BreakValue: 1, BreakDiscount: 1 },
    ];
    for (const b of breaks) await send('POST', '/api/v1/models/m_discountschemabreak', { M_DiscountSchema_ID: schema.id, ...b });
    bp = await send('POST', '/api/v1/models/c_bpartner', {
      Value: value, Name: 'Benchmark customer with breaks', C_BP_Group_ID: 103, IsCustomer: true, M_DiscountSchema_ID: schema.id, FlatDiscount: 1.5,
      C_BPartner_Location: [{ C_Location_ID: 120, Name: 'Stamford', IsBillTo: true, IsShipTo: true, IsPayFrom: true, IsRemitTo: true }],
    });
  }
  return { ...order, bpartnerId: bp.id, bpartnerLocationId: bp.C_BPartner_Location[0].id };
}

/** The first string after `prefix` in the database's order (for ASCII: last character + 1). */
export function prefixUpperBound(prefix) {
  if (!/^[A-Za-z0-9 ]+$/.test(prefix)) throw new Error('--prefix takes letters, digits and spaces');
  return upper(prefix);
}

const q = (params) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');

/**
 * The name range of the list read, {lo, hi} (lo <= Name < hi): by default the names that start
 * with `prefix`; `hi` given (see matchesRange in dataset.mjs) widens or narrows it to a match count.
 */
export function listRange(prefix, hi = prefixUpperBound(prefix)) {
  return { lo: prefix, hi };
}

/** A prefix or a range as a range. */
const rangeOf = (r) => (typeof r === 'string' ? listRange(r) : r);
/** A string as an OData literal. */
const literal = (s) => `'${s.replace(/'/g, "''")}'`;

/** The list read: a name range (index-friendly) and a flag, ordered by name, first 50. `range`: a prefix or {lo, hi}. */
export function listQuery(range) {
  const { lo, hi } = rangeOf(range);
  const filter = `Name ge ${literal(lo)} and Name lt ${literal(hi)} and IsCustomer eq true`;
  return { $filter: filter, $orderby: 'Name', $top: '50' };
}

export function listPath(range, extra = {}) {
  return `/api/v1/models/c_bpartner?${q({ ...listQuery(range), ...extra })}`;
}

export function orderBody(order = ORDER_DEMO, today = new Date().toISOString().slice(0, 10)) {
  const d = order;
  return {
    AD_Org_ID: d.orgId,
    C_DocTypeTarget_ID: d.docTypeId,
    C_BPartner_ID: d.bpartnerId,
    C_BPartner_Location_ID: d.bpartnerLocationId,
    M_Warehouse_ID: d.warehouseId,
    M_PriceList_ID: d.priceListId,
    C_Currency_ID: d.currencyId,
    SalesRep_ID: d.salesRepId,
    IsSOTrx: true,
    DateOrdered: today,
    DatePromised: today,
    Description: ORDER_MARK,
    C_OrderLine: d.productIds.map((id, i) => ({ AD_Org_ID: d.orgId, Line: (i + 1) * 10, M_Product_ID: id, QtyEntered: 1 + (i % 3), QtyOrdered: 1 + (i % 3) })),
  };
}

/**
 * All scenarios, in the order they run (reads first, then writes, then login). Each has a key,
 * a title, a request description and, for some, the key of its pgbench ceiling.
 */
export function scenarioList({ rows, prefix, range = listRange(prefix), uuidFile, order = ORDER_DEMO, books = null, discounted = null }) {
  const partner = { orgId: 11, groupId: CUSTOMER_GROUP_ID };
  return [
    { key: 'list', title: 'list read (name range, top 50)', method: 'GET', path: listPath(range), auth: true, ceiling: 'list' },
    { key: 'listEstimated', title: 'list read, estimated count', method: 'GET', path: listPath(range, { $rowcount: 'estimated' }), auth: true },
    {
      key: 'listStartswith',
      title: 'list read, startswith()',
      method: 'GET',
      path: `/api/v1/models/c_bpartner?${q({ $filter: `startswith(Name,'${prefix}') and IsCustomer eq true`, $orderby: 'Name', $top: '50' })}`,
      auth: true,
    },
    { key: 'listExpand', title: 'list read + $expand', method: 'GET', path: listPath(range, { $expand: 'C_BPartner_Location' }), auth: true, ceiling: 'listExpand' },
    { key: 'byId', title: 'read by id', method: 'GET', path: `/api/v1/models/c_bpartner/${FIRST_ID}`, pathGen: { kind: 'randomInt', prefix: '/api/v1/models/c_bpartner/', lo: FIRST_ID, hi: FIRST_ID + rows - 1 }, auth: true, ceiling: 'byId' },
    { key: 'byUuid', title: 'read by uuid', method: 'GET', path: '/api/v1/models/c_bpartner/', pathGen: { kind: 'randomLine', prefix: '/api/v1/models/c_bpartner/', file: uuidFile }, auth: true },
    { key: 'createPartner', title: 'create partner', method: 'POST', path: '/api/v1/models/c_bpartner', bodyGen: { kind: 'partner', ...partner }, auth: true },
    { key: 'createOrder', title: 'create order, 10 lines', method: 'POST', path: '/api/v1/models/c_order', bodyGen: { kind: 'json', value: orderBody(order) }, auth: true },
    // One connection: its pgbench replay runs the same keys on every transaction and so cannot run
    // concurrently (the copies would queue on the unique indexes); both sides run serially.
    {
      key: 'createCompleteOrder',
      title: '10-line order create + complete',
      method: 'POST',
      path: '/api/v1/models/c_order',
      bodyGen: { kind: 'json', value: { ...orderBody(order), 'doc-action': 'CO' } },
      auth: true,
      connections: 1,
    },
    // The same order for a partner whose discount schema has breaks (discountOrder), when there is one.
    ...(discounted
      ? [
          {
            key: 'createCompleteOrderBreaks',
            title: '10-line order create + complete, breaks',
            method: 'POST',
            path: '/api/v1/models/c_order',
            bodyGen: { kind: 'json', value: { ...orderBody(discounted), 'doc-action': 'CO' } },
            auth: true,
            connections: 1,
          },
        ]
      : []),
    // The books scenarios settle the same fixtures (booksFixtures), one request at a time, as the order.
    ...(books
      ? [
          { key: 'createCompleteAllocation', title: 'allocation create + complete', method: 'POST', path: '/api/v1/models/c_allocationhdr', bodyGen: { kind: 'json', value: allocationBody(books) }, auth: true, connections: 1 },
          {
            key: 'createCompleteMatchedInvoice',
            title: 'matched vendor invoice create + complete',
            method: 'POST',
            path: '/api/v1/models/c_invoice',
            bodyGen: { kind: 'json', value: matchedInvoiceBody(books) },
            auth: true,
            connections: 1,
          },
        ]
      : []),
    { key: 'batch', title: 'batch, 100 creates in 1 tx', method: 'POST', path: '/api/v1/batch?transaction=true', bodyGen: { kind: 'partnerBatch', size: 100, ...partner }, auth: true },
    { key: 'batchSerial', title: 'batch, 1 connection', method: 'POST', path: '/api/v1/batch?transaction=true', bodyGen: { kind: 'partnerBatch', size: 100, ...partner }, auth: true, connections: 1 },
    { key: 'login', title: 'login', method: 'POST', path: '/api/v1/auth/tokens', bodyGen: { kind: 'json', value: LOGIN }, auth: false },
  ];
}

/** The request whose SQL makes each pgbench ceiling (read with showsql). */
export function ceilingRequests({ rows, prefix, range = listRange(prefix) }) {
  const sampleId = FIRST_ID + Math.min(rows - 1, 17);
  return [
    { key: 'list', path: listPath(range, { showsql: 'true' }) },
    { key: 'listExpand', path: listPath(range, { $expand: 'C_BPartner_Location', showsql: 'true' }) },
    { key: 'byId', path: `/api/v1/models/c_bpartner/${sampleId}?showsql=true`, variables: { [String(sampleId)]: { name: 'id', set: `random(${FIRST_ID}, ${FIRST_ID + rows - 1})` } } },
  ];
}

/** The hand-written server's two reads (bench/handwritten-server.mjs), paired with Dictum's scenario keys. */
export function handwrittenScenarios({ rows, prefix, range = listRange(prefix) }) {
  return {
    list: { key: 'hwList', title: 'list read (name range, top 50)', method: 'GET', path: `/partners?${q({ lo: range.lo, hi: range.hi, top: '50' })}`, auth: false },
    byId: { key: 'hwById', title: 'read by id', method: 'GET', path: `/partners/${FIRST_ID}`, pathGen: { kind: 'randomInt', prefix: '/partners/', lo: FIRST_ID, hi: FIRST_ID + rows - 1 }, auth: false },
  };
}

/**
 * Documents the books scenarios settle against, made through the service before they are
 * measured (booksFixtures): a customer invoice and a receipt of 1,000,000 each, allocated 1 at a
 * time, and a purchase order of 100,000 Oak Trees at 0.01 (below the approval limit) received whole, invoiced 1 at a time from
 * the receipt line. Each request is then the same and stays valid for 100,000 requests.
 */
export const BOOKS_DEMO = { customerId: 117, vendorId: 114, productId: 128, itemId: 123, noTaxId: 104, purchaseOrderTypeId: 126, apInvoiceTypeId: 123, mark: 'dictum bench books' };

/** The requests that make the fixtures, in order; each answer's id feeds the next ones. */
export const booksFixtureBodies = {
  invoice: () => ({
    C_BPartner_ID: BOOKS_DEMO.customerId, C_DocTypeTarget_ID: 116, IsSOTrx: true, Description: BOOKS_DEMO.mark,
    C_InvoiceLine: [{ M_Product_ID: BOOKS_DEMO.productId, QtyEntered: 100000, PriceEntered: 10, PriceActual: 10, C_Tax_ID: BOOKS_DEMO.noTaxId }],
    'doc-action': 'CO',
  }),
  receipt: () => ({ C_BPartner_ID: BOOKS_DEMO.customerId, IsReceipt: true, PayAmt: 1000000, Description: BOOKS_DEMO.mark, 'doc-action': 'CO' }),
  purchaseOrder: () => ({
    C_BPartner_ID: BOOKS_DEMO.vendorId, C_DocTypeTarget_ID: BOOKS_DEMO.purchaseOrderTypeId, IsSOTrx: false, Description: BOOKS_DEMO.mark,
    C_OrderLine: [{ M_Product_ID: BOOKS_DEMO.itemId, QtyEntered: 100000, PriceEntered: 0.01 }],
    'doc-action': 'CO',
  }),
  materialReceipt: (orderId, orderLineId) => ({ C_Order_ID: orderId, Description: BOOKS_DEMO.mark, M_InOutLine: [{ C_OrderLine_ID: orderLineId }], 'doc-action': 'CO' }),
};

/** A payment allocated to an invoice, created and completed in one request. */
export const allocationBody = ({ invoiceId, paymentId }) => ({ C_AllocationLine: [{ C_Invoice_ID: invoiceId, C_Payment_ID: paymentId, Amount: 1 }], 'doc-action': 'CO' });

/** A vendor invoice of one unit from a receipt line, created and completed in one request: matched to the receipt (M_MatchInv) and the order (M_MatchPO). */
export const matchedInvoiceBody = ({ orderId, receiptLineId }) => ({
  C_Order_ID: orderId, C_DocTypeTarget_ID: BOOKS_DEMO.apInvoiceTypeId, C_InvoiceLine: [{ M_InOutLine_ID: receiptLineId, QtyInvoiced: 1 }], 'doc-action': 'CO',
});

/**
 * Makes the books fixtures through the service with `post(path, body)` (answers the record) and
 * answers the ids the two scenarios need.
 */
export async function booksFixtures(post) {
  const invoice = await post('/api/v1/models/c_invoice', booksFixtureBodies.invoice());
  const payment = await post('/api/v1/models/c_payment', booksFixtureBodies.receipt());
  const order = await post('/api/v1/models/c_order', booksFixtureBodies.purchaseOrder());
  const orderLine = (order.C_OrderLine ?? [])[0]?.id;
  if (!orderLine) throw new Error('the purchase order of the books fixtures has no line');
  const receipt = await post('/api/v1/models/m_inout', booksFixtureBodies.materialReceipt(order.id, orderLine));
  const receiptLine = (receipt.M_InOutLine ?? [])[0]?.id;
  if (!receiptLine) throw new Error('the receipt of the books fixtures has no line');
  return { invoiceId: invoice.id, paymentId: payment.id, orderId: order.id, receiptLineId: receiptLine };
}
