import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { csvRows, pdfText } from '../../helpers/files.js';

/** Record print of inventory moves and physical inventories, as shipments print. */
describe('printed forms of moves and counts', () => {
  const f = serverWithDemoRoles();
  const request = (method: string, path: string, body?: unknown, token = f.admin) => f.server.request(method, path, { token, body });
  const created = async (path: string, body: unknown) => {
    const r = await request('POST', path, body);
    assert.equal(r.status, 201, r.text);
    return r.body as Record<string, any>;
  };
  /** The text of the PDF a record print answers. */
  const printed = async (path: string): Promise<{ text: string; name: string }> => {
    const r = await request('GET', path);
    assert.equal(r.status, 200, r.text.slice(0, 300));
    assert.equal(r.body.isError, false, r.body.summary);
    const pdf = Buffer.from(r.body.reportFile, 'base64');
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    return { text: (await pdfText(pdf)).join('\n'), name: r.body.reportFileName };
  };

  it('prints a move with the letterhead, its locators and quantities; archived as its printed copy', async () => {
    const move = await created('/api/v1/models/m_movement', { Description: 'Restock the store', M_MovementLine: [{ M_Product_ID: 128, M_Locator_ID: 101, M_LocatorTo_ID: 102, MovementQty: 7 }], 'doc-action': 'CO' });
    const { text, name } = await printed(`/api/v1/models/m_movement/${move.id}/print`);
    assert.equal(name, `Material_Movement_${move.DocumentNo}.pdf`);
    assert.match(text, new RegExp(`Material Movement ${move.DocumentNo}`));
    assert.match(text, /GardenWorld/, 'the letterhead');
    assert.match(text, /Restock the store/);
    assert.match(text, /HQ-A-1 +Store-A-1 +7/);
    assert.match(text, /Completed/);
    const archives = await request('GET', `/api/v1/models/m_movement/${move.id}/archives`);
    assert.equal(archives.status, 200, archives.text);
    assert.equal(archives.body.archives.length, 1);
    const csv = await request('GET', `/api/v1/models/m_movement/${move.id}/print?$report_type=CSV`);
    assert.equal(csv.status, 200, csv.text);
    const rows = csvRows(Buffer.from(csv.body.exportFile, 'base64'));
    assert.ok(rows.some((r) => r.includes('HQ-A-1') && r.includes('Store-A-1') && r.includes('7')), JSON.stringify(rows));
  });

  it('prints a physical inventory with book, count and difference, and an internal use with its charge', async () => {
    const count = await created('/api/v1/models/m_inventory', { M_Warehouse_ID: 103, M_InventoryLine: [{ M_Product_ID: 133, M_Locator_ID: 101, QtyCount: 50 }] });
    const line = (await request('GET', `/api/v1/models/m_inventoryline?$filter=${encodeURIComponent(`M_Inventory_ID eq ${count.id}`)}`)).body.records[0];
    const book = Number(line.QtyBook);
    const { text } = await printed(`/api/v1/models/m_inventory/${count.id}/print`);
    assert.match(text, new RegExp(`Physical Inventory ${count.DocumentNo}`));
    assert.match(text, /Book +Counted +Difference/);
    assert.match(text, new RegExp(`HQ-A-1 +${book} +50 +${50 - book}`));
    assert.match(text, /HQ Warehouse/);
    assert.match(text, /Drafted/);

    const use = await created('/api/v1/models/m_inventory', { M_Warehouse_ID: 103, C_DocType_ID: 200000, M_InventoryLine: [{ M_Product_ID: 133, M_Locator_ID: 101, QtyInternalUse: 2, C_Charge_ID: 100 }] });
    const internal = await printed(`/api/v1/models/m_inventory/${use.id}/print`);
    assert.match(internal.text, new RegExp(`Internal Use Inventory ${use.DocumentNo}`));
    assert.match(internal.text, /Used +Charge/);
    assert.match(internal.text, /HQ-A-1 +2 +\S/);
  });

  it('refuses the print to a role without its process, and a move that does not exist', async () => {
    const move = await created('/api/v1/models/m_movement', { M_MovementLine: [{ M_Product_ID: 128, M_Locator_ID: 101, M_LocatorTo_ID: 102, MovementQty: 1 }] });
    const user = await request('GET', `/api/v1/models/m_movement/${move.id}/print`, undefined, f.user);
    assert.ok(user.status === 403 || user.status === 404, `${user.status} ${user.text.slice(0, 200)}`);
    assert.equal(typeof user.body.detail, 'string');
    const missing = await request('GET', '/api/v1/models/m_movement/999999999/print');
    assert.equal(missing.status, 404, missing.text.slice(0, 200));
  });
});
