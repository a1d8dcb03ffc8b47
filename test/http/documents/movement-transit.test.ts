import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { idOf, q } from './document-helpers.js';
import { otherClientAdmin } from './other-client.js';
import { stockHelpers } from './stock-helpers.js';

/** The demo's Material Movement In Transit document type (MMM, IsInTransit). */
const IN_TRANSIT = 1125000;

describe('moves in transit (M_Movement with M_MovementConfirm)', () => {
  const fx = serverWithDemoRoles();
  const call = (method: string, path: string, body?: unknown, token = fx.admin) => fx.server.request(method, path, { token, body });
  const stock = stockHelpers(() => ({ server: fx.server, token: fx.admin }));
  const at = stock.onHandAt;
  const transitMove = (lines: Record<string, unknown>[], extra: Record<string, unknown> = {}, token = fx.admin) =>
    call('POST', '/api/v1/models/m_movement', { C_DocType_ID: IN_TRANSIT, M_MovementLine: lines, ...extra }, token);
  const confirmationOf = async (moveId: number, token = fx.admin) => {
    const r = await call('GET', `/api/v1/models/m_movementconfirm?$filter=${q(`M_Movement_ID eq ${moveId}`)}&$expand=M_MovementLineConfirm`, undefined, token);
    assert.equal(r.status, 200, r.text);
    return r.body.records as Record<string, any>[];
  };
  const confirm = (id: number, action = 'CO', token = fx.admin) => call('PUT', `/api/v1/models/m_movementconfirm/${id}`, { 'doc-action': action }, token);
  const transactions = async (lineId: number) =>
    (await call('GET', `/api/v1/models/m_transaction?$filter=${q(`M_MovementLine_ID eq ${lineId}`)}&$orderby=MovementQty`)).body.records.map((t: any) => [
      idOf(t.MovementType),
      t.MovementQty,
      idOf(t.M_Locator_ID),
    ]);

  it('prepare creates the confirmation, the move waits In Progress until it is complete, then moves, records and posts as any move', async () => {
    const before = { from: await at(128, 101), to: await at(128, 102) };
    const m = await transitMove([{ M_Product_ID: 128, M_Locator_ID: 101, M_LocatorTo_ID: 102, MovementQty: 5 }], { 'doc-action': 'CO' });
    assert.equal(m.status, 201, m.text);
    assert.equal(idOf(m.body.DocStatus), 'IP', 'completing a move in transit waits for its confirmation');
    assert.equal(m.body.IsInTransit, true);
    assert.equal(await at(128, 101), before.from, 'nothing moves while in transit');
    assert.equal(await at(128, 102), before.to);
    const line = m.body.M_MovementLine[0];
    assert.deepEqual(await transactions(line.id), []);

    const [c, ...more] = await confirmationOf(m.body.id);
    assert.equal(more.length, 0);
    assert.equal(idOf(c!.DocStatus), 'DR');
    assert.equal(c!.M_MovementLineConfirm.length, 1);
    const cl = c!.M_MovementLineConfirm[0];
    assert.deepEqual([idOf(cl.M_MovementLine_ID), cl.TargetQty, cl.ConfirmedQty, cl.DifferenceQty, cl.ScrappedQty], [line.id, 5, 5, 0, 0]);

    const again = await call('PUT', `/api/v1/models/m_movement/${m.body.id}`, { 'doc-action': 'CO' });
    assert.equal(again.status, 200, again.text);
    assert.equal(idOf(again.body.DocStatus), 'IP');
    assert.equal((await confirmationOf(m.body.id)).length, 1, 'a second prepare keeps the one confirmation');

    const done = await confirm(c!.id);
    assert.equal(done.status, 200, done.text);
    assert.equal(idOf(done.body.DocStatus), 'CO');
    assert.equal(done.body.IsApproved, true);
    const moved = await call('GET', `/api/v1/models/m_movement/${m.body.id}?$expand=M_MovementLine`);
    assert.equal(idOf(moved.body.DocStatus), 'CO');
    assert.equal(moved.body.IsInTransit, false);
    assert.equal(idOf(moved.body.Posted), 'Y');
    assert.deepEqual([moved.body.M_MovementLine[0].MovementQty, moved.body.M_MovementLine[0].TargetQty, moved.body.M_MovementLine[0].ConfirmedQty], [5, 5, 5]);
    assert.equal(await at(128, 101), before.from - 5);
    assert.equal(await at(128, 102), before.to + 5);
    assert.deepEqual(await transactions(line.id), [
      ['M-', -5, 101],
      ['M+', 5, 102],
    ]);
    const facts = await stock.facts('m_movement', m.body.id);
    assert.equal(facts.dr, 55, '5 at the purchase price 11, from organization HQ to Store');
    assert.equal(facts.cr, 55);
    assert.equal(done.body.M_Inventory_ID ?? null, null, 'nothing to write off');
  });

  it('a difference is written off at the warehouse moved from and the scrap at the warehouse moved to, by completed physical inventories', async () => {
    const before = { from: await at(128, 101), to: await at(128, 102) };
    const m = await transitMove([{ M_Product_ID: 128, M_Locator_ID: 101, M_LocatorTo_ID: 102, MovementQty: 10 }], { 'doc-action': 'PR' });
    assert.equal(m.status, 201, m.text);
    assert.equal(idOf(m.body.DocStatus), 'IP');
    const [c] = await confirmationOf(m.body.id);
    const cl = c!.M_MovementLineConfirm[0];
    const set = await call('PUT', `/api/v1/models/m_movementlineconfirm/${cl.id}`, { ConfirmedQty: 8, ScrappedQty: 1 });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.body.DifferenceQty, 2, 'target 10 less confirmed 8');
    const done = await confirm(c!.id);
    assert.equal(done.status, 200, done.text);
    assert.equal(idOf(done.body.DocStatus), 'CO');
    assert.match(done.body.Description, /^Inventory: \S+,\S+$/);
    const moveLine = (await call('GET', `/api/v1/models/m_movementline/${m.body.M_MovementLine[0].id}`)).body;
    assert.deepEqual([moveLine.MovementQty, moveLine.TargetQty, moveLine.ConfirmedQty, moveLine.ScrappedQty], [8, 10, 8, 1]);
    assert.equal(await at(128, 101), before.from - 10, 'the source loses what it sent: 8 moved, 2 lost on the way');
    assert.equal(await at(128, 102), before.to + 7, 'the target keeps what arrived whole: 8 less 1 scrapped');
    const inventoryId = idOf(done.body.M_Inventory_ID);
    assert.ok(inventoryId, 'the confirmation names its first inventory');
    const inventory = await call('GET', `/api/v1/models/m_inventory/${inventoryId}?$expand=M_InventoryLine`);
    assert.equal(idOf(inventory.body.DocStatus), 'CO');
    assert.equal(idOf(inventory.body.M_Warehouse_ID), 103, 'the difference is counted at the warehouse moved from');
    assert.equal(inventory.body.M_InventoryLine[0].QtyBook - inventory.body.M_InventoryLine[0].QtyCount, 2);
    const line = (await call('GET', `/api/v1/models/m_movementlineconfirm/${cl.id}`)).body;
    assert.equal(idOf(line.Processed), true);
    assert.ok(idOf(line.M_InventoryLine_ID), 'the line names the inventory line of its write-off');
    const scrap = await call('GET', `/api/v1/models/m_inventory?$filter=${q(`Description eq 'Move Confirm ${c!.DocumentNo}' and M_Warehouse_ID eq 104`)}`);
    assert.equal(scrap.body.records.length, 1, 'the scrap is counted at the warehouse moved to');
    assert.equal(idOf(scrap.body.records[0].DocStatus), 'CO');

    // Reversing the move takes back what moved (the confirmed 8); the write-offs stay.
    const r = await call('PUT', `/api/v1/models/m_movement/${m.body.id}`, { 'doc-action': 'RC' });
    assert.equal(r.status, 200, r.text);
    const reversal = await call('GET', `/api/v1/models/m_movement/${idOf(r.body.Reversal_ID)}?$expand=M_MovementLine`);
    assert.equal(idOf(reversal.body.DocStatus), 'RE');
    const rl = reversal.body.M_MovementLine[0];
    assert.deepEqual([rl.MovementQty, rl.TargetQty, rl.ConfirmedQty, rl.ScrappedQty], [-8, 0, 0, 0]);
    assert.equal((await confirmationOf(reversal.body.id)).length, 0, 'a reversal is not confirmed');
    assert.equal(await at(128, 101), before.from - 2);
    assert.equal(await at(128, 102), before.to - 1);
  });

  it('refuses creating confirmations, bad confirmed quantities, changing the move while it waits, deleting lines, voiding, and changing a done confirmation', async () => {
    const m = await transitMove([{ M_Product_ID: 128, M_Locator_ID: 101, M_LocatorTo_ID: 102, MovementQty: 3 }], { 'doc-action': 'PR' });
    assert.equal(m.status, 201, m.text);
    const [c] = await confirmationOf(m.body.id);
    const cl = c!.M_MovementLineConfirm[0];
    const expect400 = async (r: { status: number; body: any; text: string }, pattern: RegExp) => {
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.status, 400);
      assert.ok(r.body.title);
      assert.match(r.body.detail, pattern);
    };
    await expect400(await call('POST', '/api/v1/models/m_movementconfirm', { M_Movement_ID: m.body.id }), /created by preparing a move/);
    await expect400(
      await call('POST', '/api/v1/models/m_movementlineconfirm', { M_MovementConfirm_ID: c!.id, M_MovementLine_ID: m.body.M_MovementLine[0].id, TargetQty: 1, ConfirmedQty: 1 }),
      /created by preparing a move/,
    );
    await expect400(await call('PUT', `/api/v1/models/m_movementlineconfirm/${cl.id}`, { ConfirmedQty: -1 }), /cannot be negative \(column ConfirmedQty\)/);
    await expect400(await call('PUT', `/api/v1/models/m_movementlineconfirm/${cl.id}`, { ConfirmedQty: 2, ScrappedQty: 3 }), /More is scrapped/);
    await expect400(await call('DELETE', `/api/v1/models/m_movementlineconfirm/${cl.id}`), /cannot be deleted/);
    await expect400(await call('PUT', `/api/v1/models/m_movementline/${m.body.M_MovementLine[0].id}`, { MovementQty: 4 }), /Open: Move Confirm/);
    await expect400(
      await call('POST', '/api/v1/models/m_movementline', { M_Movement_ID: m.body.id, M_Product_ID: 133, M_Locator_ID: 101, M_LocatorTo_ID: 102, MovementQty: 1 }),
      /Open: Move Confirm/,
    );
    await expect400(await confirm(c!.id, 'VO'), /cannot be voided/);
    const unchanged = (await call('GET', `/api/v1/models/m_movementlineconfirm/${cl.id}`)).body;
    assert.deepEqual([unchanged.ConfirmedQty, unchanged.ScrappedQty, unchanged.DifferenceQty], [3, 0, 0], 'refused writes leave nothing behind');

    assert.equal((await confirm(c!.id)).status, 200);
    await expect400(await call('PUT', `/api/v1/models/m_movementlineconfirm/${cl.id}`, { ConfirmedQty: 1 }), /processed/);
    await expect400(await confirm(c!.id, 'RE'), /cannot be re-activated/);

    // A voided move's confirmation cannot complete it any more.
    const voided = await transitMove([{ M_Product_ID: 128, M_Locator_ID: 101, M_LocatorTo_ID: 102, MovementQty: 1 }], { 'doc-action': 'PR' });
    const [vc] = await confirmationOf(voided.body.id);
    assert.equal((await call('PUT', `/api/v1/models/m_movement/${voided.body.id}`, { 'doc-action': 'VO' })).status, 200);
    await expect400(await confirm(vc!.id), /in status VO/);
  });

  it('the least-privileged role confirms a move of its organization; another organization\'s and another client\'s confirmations stay out of reach', async () => {
    const before = await at(128, 102);
    const own = await transitMove([{ M_Product_ID: 128, M_Locator_ID: 101, M_LocatorTo_ID: 102, MovementQty: 1 }], { AD_Org_ID: 11, 'doc-action': 'CO' }, fx.ws);
    assert.equal(own.status, 201, own.text);
    assert.equal(idOf(own.body.DocStatus), 'IP');
    const [c] = await confirmationOf(own.body.id, fx.ws);
    assert.ok(c, 'the role reads its move\'s confirmation');
    const done = await confirm(c!.id, 'CO', fx.ws);
    assert.equal(done.status, 200, done.text);
    assert.equal(await at(128, 102), before + 1);

    const foreign = await transitMove([{ M_Product_ID: 128, M_Locator_ID: 50001, M_LocatorTo_ID: 50008, MovementQty: 1 }], { AD_Org_ID: 50000, 'doc-action': 'PR' });
    assert.equal(foreign.status, 201, foreign.text);
    const [fc] = await confirmationOf(foreign.body.id);
    assert.ok(fc);
    const refused = await confirm(fc!.id, 'CO', fx.ws);
    assert.ok([403, 404].includes(refused.status), refused.text);
    assert.equal((await confirmationOf(foreign.body.id, fx.ws)).length, 0, 'another organization\'s confirmation is not listed');

    const other = await otherClientAdmin(fx.server);
    const read = await call('GET', `/api/v1/models/m_movementconfirm/${fc!.id}`, undefined, other);
    assert.ok([403, 404].includes(read.status), read.text);
    assert.equal(read.body.DocumentNo, undefined, 'nothing of the record is answered');
    const list = await call('GET', '/api/v1/models/m_movementconfirm', undefined, other);
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.records.length, 0, 'another client sees none of the demo company\'s confirmations');
    const still = await call('GET', `/api/v1/models/m_movementconfirm/${fc!.id}`);
    assert.equal(idOf(still.body.DocStatus), 'DR');
  });
});
