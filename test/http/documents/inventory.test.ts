import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import type { ModelEvent } from '../../../src/events/model-events.js';
import { idOf, q } from './document-helpers.js';
import { stockHelpers } from './stock-helpers.js';

const ASSET = 14100;
const DIFFERENCES = 1109000;
const CHARGE_EXPENSE = 79600;

describe('physical inventory and internal use (M_Inventory)', () => {
  const fx = serverWithDemoRoles();
  const call = (method: string, path: string, body?: unknown, token = fx.admin) => fx.server.request(method, path, { token, body });
  const stock = stockHelpers(() => ({ server: fx.server, token: fx.admin }));
  const at = stock.onHandAt;
  const count = (lines: Record<string, unknown>[], extra: Record<string, unknown> = {}, token = fx.admin) =>
    call('POST', '/api/v1/models/m_inventory', { M_Warehouse_ID: 103, M_InventoryLine: lines, ...extra }, token);
  const factRows = async (id: number) =>
    (await stock.facts('m_inventory', id)).rows.map((f: any) => [Number(idOf(f.Account_ID)), f.AmtAcctDr, f.AmtAcctCr, f.Qty]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const seen: string[] = [];

  before(() => {
    for (const table of ['m_inventory', 'm_movement']) {
      for (const type of ['after-prepare', 'after-complete', 'after-void', 'after-reverse-correct'] as const) {
        fx.server.services.events.on(type, table, (e: ModelEvent) => {
          seen.push(`${table} ${type} ${String(e.row.docstatus)}`);
        });
      }
    }
  });

  it('counts stock: book quantities from stock, the difference moves stock (I+ / I-) and posts against warehouse differences; a reversal moves it back', async () => {
    const book = { 128: await at(128, 101), 133: await at(133, 101) };
    const c = await count([
      { M_Product_ID: 128, QtyCount: book[128] - 5 },
      { M_Product_ID: 133, QtyCount: book[133] + 3 },
    ]);
    assert.equal(c.status, 201, c.text);
    assert.equal(idOf(c.body.C_DocType_ID), 144, 'Physical Inventory');
    assert.deepEqual(c.body.M_InventoryLine.map((l: any) => [l.Line, idOf(l.M_Locator_ID), l.QtyBook, l.QtyCount]), [
      [10, 101, book[128], book[128] - 5],
      [20, 101, book[133], book[133] + 3],
    ]);
    seen.length = 0;
    const done = await call('PUT', `/api/v1/models/m_inventory/${c.body.id}`, { 'doc-action': 'CO' });
    assert.equal(done.status, 200, done.text);
    assert.equal(idOf(done.body.DocStatus), 'CO');
    assert.equal(idOf(done.body.Posted), 'Y');
    assert.deepEqual(seen, ['m_inventory after-prepare IP', 'm_inventory after-complete CO'], 'document events (DAPR, DACO) as for the other documents');
    assert.equal(await at(128, 101), book[128] - 5);
    assert.equal(await at(133, 101), book[133] + 3);
    const lines = c.body.M_InventoryLine.map((l: any) => l.id);
    const tx = await call('GET', `/api/v1/models/m_transaction?$filter=${q(`M_InventoryLine_ID eq ${lines[0]} or M_InventoryLine_ID eq ${lines[1]}`)}&$orderby=MovementQty`);
    assert.deepEqual(tx.body.records.map((t: any) => [idOf(t.MovementType), t.MovementQty, idOf(t.M_Product_ID)]), [
      ['I-', -5, 128],
      ['I+', 3, 133],
    ]);
    // 5 x 11 out, 3 x 10 in, at the purchase price list's prices.
    assert.deepEqual(await factRows(c.body.id), [
      [ASSET, 0, 55, -5],
      [ASSET, 30, 0, 3],
      [DIFFERENCES, 0, 30, -3],
      [DIFFERENCES, 55, 0, 5],
    ]);
    const costed = await call('GET', `/api/v1/models/m_inventoryline/${lines[0]}`);
    assert.equal(costed.body.CurrentCostPrice, 11);
    const storage = await call('GET', `/api/v1/models/m_storageonhand?$filter=${q('M_Product_ID eq 133 and M_Locator_ID eq 101')}`);
    assert.ok(storage.body.records.every((s: any) => s.DateLastInventory), 'counted storage is stamped');

    const r = await call('PUT', `/api/v1/models/m_inventory/${c.body.id}`, { 'doc-action': 'RC' });
    assert.equal(r.status, 200, r.text);
    assert.equal(idOf(r.body.DocStatus), 'RE');
    const reversal = await call('GET', `/api/v1/models/m_inventory/${idOf(r.body.Reversal_ID)}?$expand=M_InventoryLine`);
    assert.equal(reversal.body.DocumentNo, `${c.body.DocumentNo}^`);
    assert.equal(await at(128, 101), book[128]);
    assert.equal(await at(133, 101), book[133]);
    const reversed = await stock.facts('m_inventory', reversal.body.id);
    assert.equal(reversed.dr, -85);
    assert.equal(reversed.cr, -85);
  });

  it('puts opening stock into a new warehouse by a count, posted to the differences account', async () => {
    const hq = await call('GET', '/api/v1/models/m_warehouse/103');
    const w = await call('POST', '/api/v1/models/m_warehouse', { Value: 'Annex', Name: 'Annex', C_Location_ID: idOf(hq.body.C_Location_ID), AD_Org_ID: 11 });
    assert.equal(w.status, 201, w.text);
    const loc = await call('POST', '/api/v1/models/m_locator', { M_Warehouse_ID: w.body.id, Value: 'Annex-1', X: 'A', Y: '1', Z: '0', IsDefault: true });
    assert.equal(loc.status, 201, loc.text);
    const c = await count([{ M_Product_ID: 128, QtyCount: 12 }], { M_Warehouse_ID: w.body.id, 'doc-action': 'CO' });
    assert.equal(c.status, 201, c.text);
    assert.equal(idOf(c.body.DocStatus), 'CO');
    assert.deepEqual(c.body.M_InventoryLine.map((l: any) => [idOf(l.M_Locator_ID), l.QtyBook, l.QtyCount]), [[loc.body.id, 0, 12]]);
    assert.equal(await at(128, loc.body.id), 12);
    assert.deepEqual(await factRows(c.body.id), [
      [ASSET, 132, 0, 12],
      [DIFFERENCES, 0, 132, -12],
    ]);
  });

  it('issues stock for internal use to the charge\'s account', async () => {
    const before = await at(133, 101);
    const c = await count([{ M_Product_ID: 133, QtyInternalUse: 2, C_Charge_ID: 200000 }], { C_DocType_ID: 200000, 'doc-action': 'CO' });
    assert.equal(c.status, 201, c.text);
    assert.equal(idOf(c.body.DocStatus), 'CO');
    assert.equal(await at(133, 101), before - 2);
    const tx = await call('GET', `/api/v1/models/m_transaction?$filter=${q(`M_InventoryLine_ID eq ${c.body.M_InventoryLine[0].id}`)}`);
    assert.deepEqual(tx.body.records.map((t: any) => [idOf(t.MovementType), t.MovementQty]), [['I-', -2]]);
    assert.deepEqual(await factRows(c.body.id), [
      [ASSET, 0, 20, -2],
      [CHARGE_EXPENSE, 20, 0, 2],
    ]);
    const v = await call('PUT', `/api/v1/models/m_inventory/${c.body.id}`, { 'doc-action': 'VO' });
    assert.equal(v.status, 200, v.text);
    assert.equal(idOf(v.body.DocStatus), 'VO');
    assert.equal(await at(133, 101), before);
  });

  it('posts a count line with a charge to the charge\'s account, and reverses a count by accrual', async () => {
    const book = await at(139, 101);
    const c = await count([{ M_Product_ID: 139, QtyCount: book + 2, C_Charge_ID: 100 }], { 'doc-action': 'CO' });
    assert.equal(c.status, 201, c.text);
    const facts = await factRows(c.body.id);
    assert.equal(facts.length, 2);
    assert.equal(facts[0]![0], ASSET);
    assert.ok(facts[0]![1] > 0, 'stock went up: product asset debited');
    assert.deepEqual(facts[1]!.slice(0, 1), [70200], 'Bank charge account, not warehouse differences');
    assert.equal(facts[1]![2], facts[0]![1]);
    const r = await call('PUT', `/api/v1/models/m_inventory/${c.body.id}`, { 'doc-action': 'RA' });
    assert.equal(r.status, 200, r.text);
    assert.equal(idOf(r.body.DocStatus), 'RE');
    assert.equal(await at(139, 101), book);
    const reversal = await call('GET', `/api/v1/models/m_inventory/${idOf(r.body.Reversal_ID)}?$expand=M_InventoryLine`);
    assert.deepEqual(reversal.body.M_InventoryLine.map((l: any) => [l.QtyBook, l.QtyCount]), [[book + 2, book]], 'the reversal counts the original book quantity');
    assert.equal((await stock.facts('m_inventory', reversal.body.id)).dr, -facts[0]![1]);
  });

  it('refuses internal use beyond the stock of a warehouse that disallows negative inventory; nothing is written', async () => {
    const w = await call('PUT', '/api/v1/models/m_warehouse/103', { IsDisallowNegativeInv: true });
    assert.equal(w.status, 200, w.text);
    try {
      const onHand = await at(143, 101);
      const c = await count([{ M_Product_ID: 143, QtyInternalUse: onHand + 1, C_Charge_ID: 200000 }], { C_DocType_ID: 200000 });
      assert.equal(c.status, 201, c.text);
      const r = await call('PUT', `/api/v1/models/m_inventory/${c.body.id}`, { 'doc-action': 'CO' });
      assert.equal(r.status, 400, r.text);
      assert.match(r.body.detail, /not enough stock of .* at locator HQ-A-1 .*disallows negative inventory/);
      assert.equal(await at(143, 101), onHand);
      assert.equal((await stock.facts('m_inventory', c.body.id)).count, 0);
      const still = await call('GET', `/api/v1/models/m_inventory/${c.body.id}`);
      assert.equal(idOf(still.body.DocStatus), 'DR');
    } finally {
      await call('PUT', '/api/v1/models/m_warehouse/103', { IsDisallowNegativeInv: false });
    }
  });

  it('refuses lines that do not fit the count\'s type or warehouse, a count without lines, and changes to a completed count', async () => {
    const noCharge = await count([{ M_Product_ID: 133, QtyInternalUse: 1 }], { C_DocType_ID: 200000 });
    assert.equal(noCharge.status, 400);
    assert.match(noCharge.body.detail, /column C_Charge_ID/);
    const useInCount = await count([{ M_Product_ID: 133, QtyInternalUse: 1, C_Charge_ID: 200000 }]);
    assert.equal(useInCount.status, 400);
    assert.match(useInCount.body.detail, /column QtyInternalUse/);
    const negative = await count([{ M_Product_ID: 133, QtyCount: -1 }]);
    assert.equal(negative.status, 400);
    assert.match(negative.body.detail, /column QtyCount/);
    const otherWarehouse = await count([{ M_Product_ID: 133, M_Locator_ID: 102, QtyCount: 1 }]);
    assert.equal(otherWarehouse.status, 400);
    assert.match(otherWarehouse.body.detail, /not a locator of the count's warehouse/);
    const wrongType = await count([], { C_DocType_ID: 143 });
    assert.equal(wrongType.status, 400);
    assert.match(wrongType.body.detail, /not a document type of M_Inventory, which takes MMI/);
    const empty = await count([]);
    const co = await call('PUT', `/api/v1/models/m_inventory/${empty.body.id}`, { 'doc-action': 'CO' });
    assert.equal(co.status, 400);
    assert.match(co.body.detail, /no lines/);
    const done = await count([{ M_Product_ID: 133 }], { 'doc-action': 'CO' });
    assert.equal(done.status, 201, done.text);
    assert.equal((await stock.facts('m_inventory', done.body.id)).count, 0, 'nothing counted differently, nothing posted');
    const change = await call('PUT', `/api/v1/models/m_inventoryline/${done.body.M_InventoryLine[0].id}`, { QtyCount: 1 });
    assert.equal(change.status, 400);
    const re = await call('PUT', `/api/v1/models/m_inventory/${done.body.id}`, { 'doc-action': 'RE' });
    assert.equal(re.status, 400);
  });

  it('the least-privileged role completes counts of its organizations, and cannot touch another organization\'s count', async () => {
    const own = await count([{ M_Product_ID: 133 }], { AD_Org_ID: 11 }, fx.ws);
    assert.equal(own.status, 201, own.text);
    const done = await call('PUT', `/api/v1/models/m_inventory/${own.body.id}`, { 'doc-action': 'CO' }, fx.ws);
    assert.equal(done.status, 200, done.text);
    const foreign = await count([{ M_Product_ID: 133 }], { AD_Org_ID: 50000, M_Warehouse_ID: 50001 });
    assert.equal(foreign.status, 201, foreign.text);
    const refused = await call('PUT', `/api/v1/models/m_inventory/${foreign.body.id}`, { 'doc-action': 'CO' }, fx.ws);
    assert.equal(refused.status, 403, refused.text);
    const line = await call('PUT', `/api/v1/models/m_inventoryline/${foreign.body.M_InventoryLine[0].id}`, { QtyCount: 99 }, fx.ws);
    assert.ok([403, 404].includes(line.status), line.text);
    const still = await call('GET', `/api/v1/models/m_inventory/${foreign.body.id}?$expand=M_InventoryLine`);
    assert.equal(idOf(still.body.DocStatus), 'DR');
    assert.notEqual(still.body.M_InventoryLine[0].QtyCount, 99);
  });

  it('raises the document events of moves too', async () => {
    seen.length = 0;
    const m = await call('POST', '/api/v1/models/m_movement', { M_MovementLine: [{ M_Product_ID: 128, M_Locator_ID: 101, M_LocatorTo_ID: 102, MovementQty: 1 }], 'doc-action': 'CO' });
    assert.equal(m.status, 201, m.text);
    const v = await call('PUT', `/api/v1/models/m_movement/${m.body.id}`, { 'doc-action': 'RC' });
    assert.equal(v.status, 200, v.text);
    assert.deepEqual(seen, ['m_movement after-prepare IP', 'm_movement after-complete CO', 'm_movement after-reverse-correct RE']);
  });
});
