import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { idOf, documentCalls } from './document-helpers.js';

/** Moves and counts take their document actions through the Document Action process, as orders and shipments do. */
describe('document actions of moves and counts through the Document Action process', () => {
  const fx = serverWithDemoRoles();
  const { ok } = documentCalls(() => ({ server: fx.server, token: fx.admin }));
  const act = (model: string, id: number, action: string) => ok('POST', '/api/v1/processes/rest_documentaction', { 'model-name': model, 'record-id': id, DocAction: action });

  it('completes and voids a move, and completes a count; an action the status does not allow is an error that changes nothing', async () => {
    const move = await ok('POST', '/api/v1/models/m_movement', { M_MovementLine: [{ M_Product_ID: 128, M_Locator_ID: 101, M_LocatorTo_ID: 102, MovementQty: 2 }] });
    const done = await act('m_movement', move.id, 'CO');
    assert.equal(done.isError, false, done.summary);
    assert.equal(idOf((await ok('GET', `/api/v1/models/m_movement/${move.id}`)).DocStatus), 'CO');
    const again = await act('m_movement', move.id, 'PR');
    assert.equal(again.isError, true);
    assert.equal(idOf((await ok('GET', `/api/v1/models/m_movement/${move.id}`)).DocStatus), 'CO');
    const voided = await act('m_movement', move.id, 'VO');
    assert.equal(voided.isError, false, voided.summary);
    assert.ok(['VO', 'RE'].includes(String(idOf((await ok('GET', `/api/v1/models/m_movement/${move.id}`)).DocStatus))));

    const count = await ok('POST', '/api/v1/models/m_inventory', { M_Warehouse_ID: 103, M_InventoryLine: [{ M_Product_ID: 133, M_Locator_ID: 101, QtyCount: 40 }] });
    const counted = await act('m_inventory', count.id, 'CO');
    assert.equal(counted.isError, false, counted.summary);
    assert.equal(idOf((await ok('GET', `/api/v1/models/m_inventory/${count.id}`)).DocStatus), 'CO');
  });
});
