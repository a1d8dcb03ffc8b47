import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { idOf, q } from './document-helpers.js';
import { stockHelpers } from './stock-helpers.js';

describe('inventory moves (M_Movement)', () => {
  const fx = serverWithDemoRoles();
  const call = (method: string, path: string, body?: unknown, token = fx.admin) => fx.server.request(method, path, { token, body });
  const stock = stockHelpers(() => ({ server: fx.server, token: fx.admin }));
  const at = stock.onHandAt;
  const move = (lines: Record<string, unknown>[], extra: Record<string, unknown> = {}, token = fx.admin) =>
    call('POST', '/api/v1/models/m_movement', { M_MovementLine: lines, ...extra }, token);

  it('moves stock between warehouses of two organizations: M- and M+ transactions, on hand on both sides, product asset from one organization to the other; a reversal moves it back', async () => {
    const before = { from: await at(128, 101), to: await at(128, 102) };
    const m = await move([{ M_Product_ID: 128, M_Locator_ID: 101, M_LocatorTo_ID: 102, MovementQty: 7 }], { 'doc-action': 'CO' });
    assert.equal(m.status, 201, m.text);
    assert.equal(idOf(m.body.DocStatus), 'CO');
    assert.equal(idOf(m.body.C_DocType_ID), 143, 'Material Movement');
    assert.equal(idOf(m.body.Posted), 'Y');
    const line = m.body.M_MovementLine[0];
    assert.equal(line.Line, 10);
    assert.equal(line.QtyEntered, 7);
    assert.equal(await at(128, 101), before.from - 7);
    assert.equal(await at(128, 102), before.to + 7);
    const tx = await call('GET', `/api/v1/models/m_transaction?$filter=${q(`M_MovementLine_ID eq ${line.id}`)}&$orderby=MovementQty`);
    assert.deepEqual(tx.body.records.map((t: any) => [idOf(t.MovementType), t.MovementQty, idOf(t.M_Locator_ID), idOf(t.AD_Org_ID)]), [
      ['M-', -7, 101, 11],
      ['M+', 7, 102, 12],
    ]);
    const facts = await stock.facts('m_movement', m.body.id);
    assert.equal(facts.count, 2);
    assert.equal(facts.dr, 77, '7 at the purchase price 11');
    assert.equal(facts.cr, 77);
    assert.deepEqual(facts.rows.map((f: any) => [Number(idOf(f.AD_Org_ID)), f.AmtAcctDr, f.AmtAcctCr, Number(idOf(f.Account_ID))]).sort(), [
      [11, 0, 77, 14100],
      [12, 77, 0, 14100],
    ]);

    const r = await call('PUT', `/api/v1/models/m_movement/${m.body.id}`, { 'doc-action': 'RC' });
    assert.equal(r.status, 200, r.text);
    assert.equal(idOf(r.body.DocStatus), 'RE');
    const reversal = await call('GET', `/api/v1/models/m_movement/${idOf(r.body.Reversal_ID)}?$expand=M_MovementLine`);
    assert.equal(reversal.body.DocumentNo, `${m.body.DocumentNo}^`);
    assert.equal(reversal.body.M_MovementLine[0].MovementQty, -7);
    assert.equal(await at(128, 101), before.from);
    assert.equal(await at(128, 102), before.to);
    const reversed = await stock.facts('m_movement', reversal.body.id);
    assert.equal(reversed.dr, -77);
    assert.equal(reversed.cr, -77);
    const again = await call('PUT', `/api/v1/models/m_movement/${m.body.id}`, { 'doc-action': 'VO' });
    assert.equal(again.status, 400);
    assert.match(again.body.detail, /status RE.*action VO/);
  });

  it('moves between locators of one organization without facts, and voids a completed move by its reversal', async () => {
    const locator = await call('POST', '/api/v1/models/m_locator', { M_Warehouse_ID: 103, Value: 'HQ-B-1', X: 'B', Y: '1', Z: '0', IsDefault: false });
    assert.equal(locator.status, 201, locator.text);
    const before = await at(133, 101);
    const m = await move([{ M_Product_ID: 133, M_Locator_ID: 101, M_LocatorTo_ID: locator.body.id, MovementQty: 4 }], { 'doc-action': 'CO' });
    assert.equal(m.status, 201, m.text);
    assert.equal(await at(133, 101), before - 4);
    assert.equal(await at(133, locator.body.id), 4);
    assert.equal((await stock.facts('m_movement', m.body.id)).count, 0);
    assert.equal(idOf(m.body.Posted), 'Y');
    const v = await call('PUT', `/api/v1/models/m_movement/${m.body.id}`, { 'doc-action': 'VO' });
    assert.equal(v.status, 200, v.text);
    assert.equal(idOf(v.body.DocStatus), 'VO');
    assert.ok(idOf(v.body.Reversal_ID), 'a completed move in an open period is voided by its reversal (reverse-correct)');
    assert.equal(await at(133, 101), before);
    assert.equal(await at(133, locator.body.id), 0);
  });

  it('voids a draft move: its quantities become zero and nothing moves', async () => {
    const before = await at(128, 101);
    const m = await move([{ M_Product_ID: 128, M_Locator_ID: 101, M_LocatorTo_ID: 102, MovementQty: 3 }]);
    assert.equal(m.status, 201, m.text);
    assert.equal(idOf(m.body.DocStatus), 'DR');
    const v = await call('PUT', `/api/v1/models/m_movement/${m.body.id}`, { 'doc-action': 'VO' });
    assert.equal(v.status, 200, v.text);
    assert.equal(idOf(v.body.DocStatus), 'VO');
    const lines = await call('GET', `/api/v1/models/m_movementline?$filter=${q(`M_Movement_ID eq ${m.body.id}`)}`);
    assert.equal(lines.body.records[0].MovementQty, 0);
    assert.equal(await at(128, 101), before);
  });

  it('refuses moving more than on hand out of a warehouse that disallows negative inventory; nothing is written', async () => {
    const w = await call('PUT', '/api/v1/models/m_warehouse/104', { IsDisallowNegativeInv: true });
    assert.equal(w.status, 200, w.text);
    try {
      const onHand = await at(134, 102);
      const m = await move([{ M_Product_ID: 134, M_Locator_ID: 102, M_LocatorTo_ID: 101, MovementQty: onHand + 1 }]);
      assert.equal(m.status, 201, m.text);
      const r = await call('PUT', `/api/v1/models/m_movement/${m.body.id}`, { 'doc-action': 'CO' });
      assert.equal(r.status, 400, r.text);
      assert.match(r.body.detail, /not enough stock of .* at locator Store-A-1 .*disallows negative inventory/);
      const still = await call('GET', `/api/v1/models/m_movement/${m.body.id}`);
      assert.equal(idOf(still.body.DocStatus), 'DR');
      assert.equal(await at(134, 102), onHand);
      const tx = await call('GET', `/api/v1/models/m_transaction?$filter=${q(`M_MovementLine_ID eq ${m.body.M_MovementLine[0].id}`)}`);
      assert.equal(tx.body.records.length, 0);
      // Exactly what is on hand moves.
      const fit = await call('PUT', `/api/v1/models/m_movementline/${m.body.M_MovementLine[0].id}`, { MovementQty: onHand });
      assert.equal(fit.status, 200, fit.text);
      const done = await call('PUT', `/api/v1/models/m_movement/${m.body.id}`, { 'doc-action': 'CO' });
      assert.equal(done.status, 200, done.text);
      assert.equal(await at(134, 102), 0);
    } finally {
      await call('PUT', '/api/v1/models/m_warehouse/104', { IsDisallowNegativeInv: false });
    }
  });

  it('refuses lines that move nothing or a negative quantity, a move without lines, another table\'s document type, and changes to a completed move', async () => {
    const same = await move([{ M_Product_ID: 128, M_Locator_ID: 101, M_LocatorTo_ID: 101, MovementQty: 1 }]);
    assert.equal(same.status, 400);
    assert.match(same.body.detail, /moves nothing \(column M_LocatorTo_ID\)/);
    const negative = await move([{ M_Product_ID: 128, M_Locator_ID: 101, M_LocatorTo_ID: 102, MovementQty: -1 }]);
    assert.equal(negative.status, 400);
    assert.match(negative.body.detail, /negative quantity/);
    const wrongType = await move([], { C_DocType_ID: 144 });
    assert.equal(wrongType.status, 400);
    assert.match(wrongType.body.detail, /not a document type of M_Movement, which takes MMM/);
    const empty = await move([]);
    assert.equal(empty.status, 201, empty.text);
    const co = await call('PUT', `/api/v1/models/m_movement/${empty.body.id}`, { 'doc-action': 'CO' });
    assert.equal(co.status, 400);
    assert.match(co.body.detail, /no lines/);
    const done = await move([{ M_Product_ID: 128, M_Locator_ID: 101, M_LocatorTo_ID: 102, MovementQty: 1 }], { 'doc-action': 'CO' });
    assert.equal(done.status, 201, done.text);
    const change = await call('PUT', `/api/v1/models/m_movementline/${done.body.M_MovementLine[0].id}`, { MovementQty: 2 });
    assert.equal(change.status, 400);
    const re = await call('PUT', `/api/v1/models/m_movement/${done.body.id}`, { 'doc-action': 'RE' });
    assert.equal(re.status, 400);
    assert.match(re.body.detail, /cannot be re-activated/);
  });

  it('the least-privileged role completes moves of its organizations, and cannot touch another organization\'s move', async () => {
    const own = await move([{ M_Product_ID: 128, M_Locator_ID: 101, M_LocatorTo_ID: 102, MovementQty: 1 }], { AD_Org_ID: 11 }, fx.ws);
    assert.equal(own.status, 201, own.text);
    const done = await call('PUT', `/api/v1/models/m_movement/${own.body.id}`, { 'doc-action': 'CO' }, fx.ws);
    assert.equal(done.status, 200, done.text);
    assert.equal(idOf(done.body.DocStatus), 'CO');
    const foreign = await move([{ M_Product_ID: 128, M_Locator_ID: 50001, M_LocatorTo_ID: 50008, MovementQty: 1 }], { AD_Org_ID: 50000 });
    assert.equal(foreign.status, 201, foreign.text);
    const refused = await call('PUT', `/api/v1/models/m_movement/${foreign.body.id}`, { 'doc-action': 'CO' }, fx.ws);
    assert.equal(refused.status, 403, refused.text);
    const read = await call('GET', `/api/v1/models/m_movement/${foreign.body.id}`, undefined, fx.ws);
    assert.ok([403, 404].includes(read.status), read.text);
    const still = await call('GET', `/api/v1/models/m_movement/${foreign.body.id}`);
    assert.equal(idOf(still.body.DocStatus), 'DR');
  });
});
