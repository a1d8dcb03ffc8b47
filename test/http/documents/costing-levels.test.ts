import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { login } from '../../helpers/login.js';
import { booksViolations } from '../../../src/documents/invariants/books-invariants.js';
import { insertSeedRows } from '../../../src/seed/insert-rows.js';
import { DEMO_LOTS } from '../../../src/seed/lots-seed.js';
import { idOf } from './document-helpers.js';
import { ASSET, average, cents, COGS, costingCalls } from './costing-helpers.js';
import { otherClientAdmin } from './other-client.js';

const HQ = { AD_Org_ID: 11, M_Warehouse_ID: 103 };
const STORE = { AD_Org_ID: 12, M_Warehouse_ID: 104 };
const HQ_LOCATOR = 101;
const STORE_LOCATOR = 102;
const MOVEMENT_TABLE = 323;
const SCHEMA = 101;
const AP_INVOICE = 123;
const FREIGHT = 200000;
const COST_ADJUSTMENT_DOCTYPE = 1131000;
/** A role of the demo client with access to HQ only, and its user (ids of this file). */
const HQ_ROLE = 1_135_000;
const HQ_USER = 1_135_001;

describe('costing levels: organization and batch/lot', () => {
  const fx = serverWithDemoRoles();
  const at = () => ({ server: fx.server, token: fx.admin });
  const c = costingCalls(at);
  const violations = () => booksViolations(fx.server.services.db, 11);

  /** The product's cost rows: [organization, instance, price, quantity], by organization and instance. */
  const costs = async (product: number) =>
    (await c.records('m_cost', `M_Product_ID eq ${product}`, 'AD_Org_ID,M_AttributeSetInstance_ID')).map((r) => [
      Number(idOf(r.AD_Org_ID)), Number(idOf(r.M_AttributeSetInstance_ID)), Number(r.CurrentCostPrice), Number(r.CurrentQty),
    ]);
  /** The value of the product's facts on an account in one organization. */
  const orgBalance = async (product: number, account: number, org: number) => {
    const facts = await c.records('fact_acct', `M_Product_ID eq ${product} and Account_ID eq ${account} and AD_Org_ID eq ${org}`, 'Fact_Acct_ID');
    return cents(facts.reduce((n, f) => n + Number(f.AmtAcctDr) - Number(f.AmtAcctCr), 0));
  };
  const move = (product: number, qty: number, from: number, to: number, line: Record<string, unknown> = {}) =>
    c.ok('POST', '/api/v1/models/m_movement', { M_MovementLine: [{ M_Product_ID: product, M_Locator_ID: from, M_LocatorTo_ID: to, MovementQty: qty, ...line }], 'doc-action': 'CO' });

  /** A product at level O (average PO) received 10 at 10 at HQ and 10 at 20 at the store. */
  const receivedInTwoOrganizations = async (method: string, level: string | null = 'O') => {
    const product = await c.product(method, 10, level);
    await c.receive(product, 10, 10, HQ);
    await c.receive(product, 10, 20, STORE);
    return product;
  };

  it('level O: receipts into two organizations keep a cost each; a shipment in each costs at its own; a move takes the value from one to the other; reversed, it brings it back', async () => {
    const product = await receivedInTwoOrganizations('A');
    assert.deepEqual(await costs(product), [[11, 0, 10, 10], [12, 0, 20, 10]], 'one cost row per organization with its own average');

    await c.ship(product, 2, HQ);
    await c.ship(product, 2, STORE);
    assert.equal(await orgBalance(product, COGS, 11), 20, 'the HQ shipment at the HQ cost');
    assert.equal(await orgBalance(product, COGS, 12), 40, 'the store shipment at the store cost');
    assert.deepEqual(await costs(product), [[11, 0, 10, 8], [12, 0, 20, 8]]);

    const moved = await move(product, 4, HQ_LOCATOR, STORE_LOCATOR);
    assert.equal(idOf(moved.DocStatus), 'CO');
    const storePrice = average(20, 8, 40, 4);
    assert.deepEqual(await costs(product), [[11, 0, 10, 4], [12, 0, storePrice, 12]], 'HQ gives 4 at 10, the store averages them in');
    const details = await c.records('m_costdetail', `M_MovementLine_ID eq ${moved.M_MovementLine[0].id}`, 'M_CostDetail_ID');
    assert.deepEqual(
      details.map((d) => [Number(idOf(d.AD_Org_ID)), Number(d.Qty), Number(d.Amt), d.IsSOTrx]),
      [[11, -4, -40, true], [12, 4, 40, false]],
      'a from side and a to side cost detail',
    );
    const facts = await c.records('fact_acct', `AD_Table_ID eq ${MOVEMENT_TABLE} and Record_ID eq ${moved.id}`, 'Fact_Acct_ID');
    assert.deepEqual(facts.map((f) => [Number(idOf(f.AD_Org_ID)), Number(f.AmtAcctDr), Number(f.AmtAcctCr)]), [[11, 0, 40], [12, 40, 0]]);
    assert.equal(await orgBalance(product, ASSET, 11), 40, 'HQ asset = its stock value');
    assert.equal(await orgBalance(product, ASSET, 12), cents(storePrice * 12), 'store asset = its stock value');
    assert.deepEqual(await violations(), []);

    const reversed = await c.ok('PUT', `/api/v1/models/m_movement/${moved.id}`, { 'doc-action': 'RC' });
    assert.equal(idOf(reversed.DocStatus), 'RE');
    assert.deepEqual(await costs(product), [[11, 0, 10, 8], [12, 0, average(storePrice, 12, -40, -4), 8]], 'the reversal takes the value back where it came from');
    assert.equal(await orgBalance(product, ASSET, 11), 80);
    assert.equal(await orgBalance(product, ASSET, 12), 160);
    assert.deepEqual(await violations(), []);
  });

  it('level O: an invoice match, a landed cost, a count and a cost adjustment change the cost of the organization of their stock only', async () => {
    const product = await c.product('A', 10, 'O');
    const hqReceipt = await c.receive(product, 10, 10, HQ);
    const storeReceipt = await c.receive(product, 10, 20, STORE);

    const orderLine = Number(idOf(storeReceipt.M_InOutLine[0].C_OrderLine_ID));
    const invoice = await c.ok('POST', '/api/v1/models/c_invoice', {
      C_Order_ID: Number(idOf(storeReceipt.C_Order_ID)), C_DocTypeTarget_ID: AP_INVOICE, C_InvoiceLine: [{ C_OrderLine_ID: orderLine, PriceEntered: 22 }], 'doc-action': 'CO',
    });
    assert.equal(idOf(invoice.DocStatus), 'CO');
    assert.deepEqual(await costs(product), [[11, 0, 10, 10], [12, 0, 22, 10]], 'the store receipt invoiced at 22 averages into the store cost');

    const freight = await c.ok('POST', '/api/v1/models/c_invoice', {
      AD_Org_ID: 11, C_BPartner_ID: 114, C_DocTypeTarget_ID: AP_INVOICE, C_InvoiceLine: [{ C_Charge_ID: FREIGHT, QtyEntered: 1, PriceEntered: 30, PriceActual: 30 }],
    });
    const [freightLine] = await c.records('c_invoiceline', `C_Invoice_ID eq ${freight.id}`);
    await c.ok('POST', '/api/v1/models/c_landedcost', { AD_Org_ID: 11, C_InvoiceLine_ID: freightLine!.id, M_InOut_ID: hqReceipt.id, LandedCostDistribution: 'Q' });
    assert.equal(idOf((await c.ok('PUT', `/api/v1/models/c_invoice/${freight.id}`, { 'doc-action': 'CO' })).DocStatus), 'CO');
    assert.deepEqual(await costs(product), [[11, 0, 13, 10], [12, 0, 22, 10]], 'freight of 30 on the HQ receipt goes into the HQ cost');

    const count = await c.ok('POST', '/api/v1/models/m_inventory', { ...STORE, M_InventoryLine: [{ M_Product_ID: product, M_Locator_ID: STORE_LOCATOR, QtyCount: 8 }], 'doc-action': 'CO' });
    assert.equal(idOf(count.DocStatus), 'CO');
    assert.equal(Number(count.M_InventoryLine[0].CurrentCostPrice), 22, 'the count takes 2 out at the store cost');
    assert.deepEqual(await costs(product), [[11, 0, 13, 10], [12, 0, 22, 8]]);

    const adjustment = await c.ok('POST', '/api/v1/models/m_inventory', {
      ...STORE, C_DocType_ID: COST_ADJUSTMENT_DOCTYPE, M_InventoryLine: [{ M_Product_ID: product, NewCostPrice: 25 }],
    });
    assert.equal(Number(adjustment.M_InventoryLine[0].CurrentCostPrice), 22, 'the adjustment line meets the store cost');
    assert.equal(idOf((await c.ok('PUT', `/api/v1/models/m_inventory/${adjustment.id}`, { 'doc-action': 'CO' })).DocStatus), 'CO');
    assert.deepEqual(await costs(product), [[11, 0, 13, 10], [12, 0, 25, 8]], 'the adjustment sets the store cost only');
    assert.equal(await orgBalance(product, ASSET, 11) + await orgBalance(product, ASSET, 12), 330, '10 at 13 and 8 at 25');
    assert.deepEqual(await violations(), []);
  });

  it('level O under FIFO: each organization keeps its layers; a move takes the oldest of the organization it leaves and makes a layer in the other', async () => {
    const product = await receivedInTwoOrganizations('F');
    await c.receive(product, 5, 12, HQ);
    await move(product, 12, HQ_LOCATOR, STORE_LOCATOR);
    const layers = (await c.records('m_costqueue', `M_Product_ID eq ${product}`, 'M_CostQueue_ID'))
      .filter((r) => Number(r.CurrentQty) !== 0)
      .map((r) => [Number(idOf(r.AD_Org_ID)), Number(r.CurrentQty), Number(r.CurrentCostPrice)]);
    assert.deepEqual(layers, [[12, 10, 20], [11, 3, 12], [12, 12, 10.33333333]], '10 at 10 and 2 at 12 moved: 124 for 12');
    assert.deepEqual(await costs(product), [[11, 0, 12, 3], [12, 0, 20, 22]]);
    assert.equal(await orgBalance(product, ASSET, 11), 36);
    assert.equal(await orgBalance(product, ASSET, 12), 324);
    assert.deepEqual(await violations(), []);
  });

  it('level B: a lot-tracked product received in two lots at two prices keeps a cost per lot; a shipment of each lot costs at its own', async () => {
    const product = await c.product('A', 10, 'B', { M_AttributeSet_ID: DEMO_LOTS.lotSet });
    const lot = async () => {
      const l = await c.ok('POST', '/api/v1/models/m_lot', { M_Product_ID: product });
      return Number((await c.ok('POST', '/api/v1/models/m_attributesetinstance', { M_AttributeSet_ID: DEMO_LOTS.lotSet, M_Lot_ID: l.id })).id);
    };
    const [a, b] = [await lot(), await lot()];
    await c.receive(product, 6, 10, HQ, { M_AttributeSetInstance_ID: a });
    await c.receive(product, 4, 25, HQ, { M_AttributeSetInstance_ID: b });
    assert.deepEqual(await costs(product), [[0, a, 10, 6], [0, b, 25, 4]], 'one cost row per lot');

    await c.ship(product, 2, HQ, { M_AttributeSetInstance_ID: b });
    assert.equal(await c.balance(product, COGS), 50, 'two of lot b at 25');
    await c.ship(product, 3, HQ, { M_AttributeSetInstance_ID: a });
    assert.equal(await c.balance(product, COGS), 80, 'then three of lot a at 10');
    assert.deepEqual(await costs(product), [[0, a, 10, 3], [0, b, 25, 2]]);
    const details = await c.details(product);
    assert.deepEqual(details.map((d) => [Number(idOf(d.M_AttributeSetInstance_ID)), Number(d.Qty), Number(d.Amt)]), [[a, 6, 60], [b, 4, 100], [b, -2, -50], [a, -3, -30]]);

    const moved = await move(product, 1, HQ_LOCATOR, STORE_LOCATOR, { M_AttributeSetInstance_ID: a });
    assert.equal(idOf(moved.DocStatus), 'CO');
    assert.deepEqual(await costs(product), [[0, a, 10, 3], [0, b, 25, 2]], 'a move between organizations keeps the lot costs');
    assert.equal(await orgBalance(product, ASSET, 12), 10, 'the lot moved at its own cost');
    assert.equal(await c.balance(product, ASSET), 80, 'the asset account holds the lots\' value');
    assert.deepEqual(await violations(), []);
  });

  it('the least privileged role reads the cost rows of both organizations and writes no cost detail; a role of HQ only, and another client, do not read the other\'s rows', async () => {
    const product = await receivedInTwoOrganizations('A');
    const rows = async (token: string) => {
      const r = await fx.server.request('GET', `/api/v1/models/m_cost?$filter=${encodeURIComponent(`M_Product_ID eq ${product}`)}`, { token });
      assert.equal(r.status, 200, r.text);
      return (r.body.records as Record<string, any>[]).map((x) => Number(idOf(x.AD_Org_ID))).sort();
    };
    assert.deepEqual(await rows(fx.ws), [11, 12], 'the web service role has HQ and the store');
    const [detail] = await c.details(product);
    const write = await fx.server.request('PUT', `/api/v1/models/m_costdetail/${detail!.id}`, { token: fx.ws, body: { Amt: 1 } });
    assert.equal(write.status, 403, write.text);

    const db = fx.server.services.db;
    const dict = fx.server.services.dictionary.current;
    const now = new Date().toISOString();
    const put = (table: string, r: Record<string, unknown>[]) => insertSeedRows(db, dict.byName.get(table.toLowerCase())!, r, now);
    await put('AD_Role', [{ AD_Role_ID: HQ_ROLE, AD_Client_ID: 11, AD_Org_ID: 0, Name: 'HQ costs only', UserLevel: ' CO', IsAccessAllOrgs: 'N', IsManual: 'Y' }]);
    await put('AD_Role_OrgAccess', [{ AD_Role_ID: HQ_ROLE, AD_Org_ID: 11, AD_Client_ID: 11, IsReadOnly: 'N', AD_Role_OrgAccess_UU: randomUUID() }]);
    await put('AD_User', [{ AD_User_ID: HQ_USER, AD_Client_ID: 11, AD_Org_ID: 0, Name: 'HQCosts', Password: 'HQCosts1!' }]);
    await put('AD_User_Roles', [{ AD_User_ID: HQ_USER, AD_Role_ID: HQ_ROLE, AD_Client_ID: 11, AD_Org_ID: 0, AD_User_Roles_UU: randomUUID() }]);
    const hq = await login(fx.server, { userName: 'HQCosts', password: 'HQCosts1!', clientId: 11, roleId: HQ_ROLE, organizationId: 11, warehouseId: 0 });
    assert.deepEqual(await rows(hq), [11], 'HQ only reads its own cost row');
    const storeRow = (await c.records('m_cost', `M_Product_ID eq ${product} and AD_Org_ID eq 12`))[0]!;
    const read = await fx.server.request('GET', `/api/v1/models/m_cost/${storeRow.id}`, { token: hq });
    assert.ok(read.status === 403 || read.status === 404, read.text);
    const change = await fx.server.request('PUT', `/api/v1/models/m_cost/${storeRow.id}`, { token: hq, body: { CurrentCostPrice: 1 } });
    assert.ok(change.status === 403 || change.status === 404, change.text);

    const other = await otherClientAdmin(fx.server);
    assert.deepEqual(await rows(other), [], 'another client reads none');
    const otherChange = await fx.server.request('PUT', `/api/v1/models/m_cost/${storeRow.id}`, { token: other, body: { CurrentCostPrice: 1 } });
    assert.ok(otherChange.status === 403 || otherChange.status === 404, otherChange.text);
    assert.deepEqual(await costs(product), [[11, 0, 10, 10], [12, 0, 20, 10]], 'nothing changed');
  });

  it('the level set on the schema applies to a category without one', async () => {
    const schemaBefore = await c.ok('GET', `/api/v1/models/c_acctschema/${SCHEMA}`);
    await c.ok('PUT', `/api/v1/models/c_acctschema/${SCHEMA}`, { CostingLevel: 'O' });
    try {
      const product = await receivedInTwoOrganizations('A', null);
      assert.deepEqual(await costs(product), [[11, 0, 10, 10], [12, 0, 20, 10]], 'costed per organization by the schema\'s level');
      await c.ship(product, 1, STORE);
      assert.equal(await orgBalance(product, COGS, 12), 20);
      const client = await c.product('A', 10, 'C');
      await c.receive(client, 1, 10, HQ);
      await c.receive(client, 1, 20, STORE);
      assert.deepEqual(await costs(client), [[0, 0, 15, 2]], 'a category at level C keeps the client level');
      assert.deepEqual(await violations(), []);
    } finally {
      await c.ok('PUT', `/api/v1/models/c_acctschema/${SCHEMA}`, { CostingLevel: idOf(schemaBefore.CostingLevel) });
    }
  });
});
