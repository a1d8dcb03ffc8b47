/**
 * The demo's opening stock is a completed physical inventory per warehouse whose I+ transactions
 * make on hand the sum of its material transactions, readable like any count.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { migrate } from '../../../src/db/migrate.js';
import { booksViolations } from '../../../src/documents/invariants/books-invariants.js';
import { onHandDifferences } from '../../../src/documents/invariants/stock-on-hand.js';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { systemLogin } from '../../helpers/login.js';

const CLIENT = 11;
const OPENING = 1116000;

describe("the demo's opening stock", () => {
  const fx = serverWithDemoRoles();
  const sql = async (text: string, params: unknown[] = []) => (await fx.server.services.db.query<Record<string, any>>(text, params)).rows;

  it('leaves no stock difference on a fresh demo database, nor any other', async () => {
    assert.deepEqual(await booksViolations(fx.server.services.db, CLIENT), []);
    const [storage] = await sql(`SELECT sum(qtyonhand)::text AS qty FROM m_storageonhand WHERE ad_client_id = 11`);
    const [moved] = await sql(`SELECT sum(movementqty)::text AS qty FROM m_transaction WHERE ad_client_id = 11`);
    assert.equal(Number(moved!.qty), Number(storage!.qty));
  });

  it('is a completed physical inventory per warehouse, dated at the storage, whose lines count what was missing', async () => {
    const heads = await sql(
      `SELECT i.m_inventory_id AS id, i.m_warehouse_id AS warehouse, i.ad_org_id AS org, i.docstatus, i.posted, i.processed, to_char(i.movementdate, 'YYYY-MM-DD') AS day, d.docbasetype, d.docsubtypeinv
         FROM m_inventory i JOIN c_doctype d ON d.c_doctype_id = i.c_doctype_id WHERE i.m_inventory_id BETWEEN 1116000 AND 1116099 ORDER BY 1`,
    );
    assert.deepEqual(heads, [
      { id: OPENING, warehouse: 103, org: 11, docstatus: 'CO', posted: 'Y', processed: 'Y', day: '2003-01-01', docbasetype: 'MMI', docsubtypeinv: 'PI' },
      { id: OPENING + 1, warehouse: 104, org: 12, docstatus: 'CO', posted: 'Y', processed: 'Y', day: '2003-01-01', docbasetype: 'MMI', docsubtypeinv: 'PI' },
    ]);
    // Patio chair 123 holds 35 in HQ and 10 came by a receipt; 128 holds 95 and 5 were shipped.
    const lines = await sql(
      `SELECT l.m_product_id AS product, l.qtybook::text AS book, l.qtycount::text AS count, t.movementtype AS type, t.movementqty::text AS moved, to_char(t.movementdate, 'YYYY-MM-DD') AS day
         FROM m_inventoryline l JOIN m_transaction t ON t.m_inventoryline_id = l.m_inventoryline_id
        WHERE l.m_inventory_id = $1 AND l.m_product_id IN (122, 123, 128) ORDER BY 1`,
      [OPENING],
    );
    assert.deepEqual(
      lines.map((l) => ({ ...l, book: Number(l.book), count: Number(l.count), moved: Number(l.moved) })),
      [
        { product: 122, book: 0, count: 200, type: 'I+', moved: 200, day: '2003-01-01' },
        { product: 123, book: 0, count: 25, type: 'I+', moved: 25, day: '2003-01-01' },
        { product: 128, book: 0, count: 100, type: 'I+', moved: 100, day: '2003-01-01' },
      ],
    );
    const [{ n }] = (await sql(`SELECT count(*)::int AS n FROM m_transaction WHERE m_inventoryline_id >= 1116100`)) as [{ n: number }];
    const [{ m }] = (await sql(`SELECT count(*)::int AS m FROM m_inventoryline WHERE m_inventory_id IN ($1, $2)`, [OPENING, OPENING + 1])) as [{ m: number }];
    assert.equal(n, m, 'one transaction a line');
  });

  it('is readable with its lines through the models API by the demo roles, and not by another client', async () => {
    for (const token of [fx.admin, fx.user]) {
      const head = await fx.server.request('GET', `/api/v1/models/m_inventory/${OPENING}`, { token });
      assert.equal(head.status, 200, head.text);
      const body = head.body as Record<string, any>;
      assert.equal(body.id, OPENING);
      assert.equal(body.DocStatus?.id ?? body.DocStatus, 'CO');
      const lines = await fx.server.request('GET', `/api/v1/models/m_inventoryline?$filter=M_Inventory_ID eq ${OPENING}&$orderby=Line`, { token });
      assert.equal(lines.status, 200, lines.text);
      const records = (lines.body as { records: Record<string, any>[] }).records;
      assert.ok(records.length >= 20, `lines read: ${records.length}`);
      assert.equal(Number(records[0]!.QtyBook), 0);
      assert.ok(records.every((r) => Number(r.QtyCount) > 0));
    }
    const system = await systemLogin(fx.server);
    const other = await fx.server.request('GET', `/api/v1/models/m_inventory/${OPENING}`, { token: system });
    assert.equal(other.status, 403, other.text);
  });
});

describe('migration 280 (opening stock counts)', () => {
  const fx = serverWithDemoRoles();

  it('brings the opening stock to a database built before it, without changing the storage, once', async () => {
    const db = fx.server.services.db;
    const storage = `SELECT m_product_id, m_locator_id, m_attributesetinstance_id, qtyonhand::text, datematerialpolicy::text FROM m_storageonhand WHERE ad_client_id = 11 ORDER BY 1, 2, 3, 5`;
    const before = (await db.query(storage)).rows;
    await db.exec(`DELETE FROM m_transaction WHERE m_inventoryline_id >= 1116100;
      DELETE FROM m_inventoryline WHERE m_inventory_id BETWEEN 1116000 AND 1116099;
      DELETE FROM m_inventory WHERE m_inventory_id BETWEEN 1116000 AND 1116099;
      DELETE FROM dictum.migration WHERE version = 280`);
    assert.ok((await onHandDifferences(db, CLIENT)).length > 20, 'the stock disagrees before');
    assert.deepEqual(await migrate(db), [280]);
    assert.deepEqual(await onHandDifferences(db, CLIENT), []);
    assert.deepEqual((await db.query(storage)).rows, before, 'the storage is as it was');
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM m_inventory WHERE m_inventory_id BETWEEN 1116000 AND 1116099`);
    assert.equal(rows[0]!.n, 2);
    assert.deepEqual(await migrate(db), [], 'applied once');
  });
});
