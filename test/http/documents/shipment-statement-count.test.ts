import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { countingServer, describeStatements, ownStatements } from '../../helpers/counting-server.js';
import { recordStatements } from '../../helpers/statements.js';
import { idOf } from './document-helpers.js';

/**
 * The statements of a one-line draft shipment completed through PUT {"doc-action":"CO"} with the demo
 * costed at Average PO, as the costing benchmark does (bench/costing.mjs). 17 before the document
 * type and its period were read together, the lines' checks folded, the instance check kept from
 * prepare for complete, the orders of the lines answered by the stock's statement and the lines
 * marked processed in the header's UPDATE: 12; with the accounting schema read by prepare's statement: 11;
 * with the header written once, In Progress and Completed together: 10.
 */
const MAX_STATEMENTS = 10;
const PRODUCT = 128;

describe('statements of a one-line shipment completed at average cost', () => {
  const fx = countingServer();
  const request = (method: string, path: string, body: unknown) => fx.server().request(method, path, { token: fx.token(), body });
  const draft = async () => {
    const r = await request('POST', '/api/v1/models/m_inout', { C_BPartner_ID: 118, IsSOTrx: true, M_InOutLine: [{ M_Product_ID: PRODUCT, MovementQty: 1 }] });
    assert.equal(r.status, 201, r.text);
    return r.body.id as number;
  };
  const complete = (id: number) => request('PUT', `/api/v1/models/m_inout/${id}`, { 'doc-action': 'CO' });

  it(`takes at most ${MAX_STATEMENTS} statements and answers the completed record`, async () => {
    const db = fx.server().services.db;
    // As bench/lib/average-costing.mjs: the schema at Average PO, the cost rows on its element, stock to ship.
    await db.query(`UPDATE c_acctschema SET costingmethod = 'A' WHERE ad_client_id = 11`);
    await db.query(`UPDATE m_cost SET m_costelement_id = 103, costingmethod = 'A' WHERE ad_client_id = 11 AND m_costelement_id = 100`);
    await db.query(
      `UPDATE m_storageonhand SET qtyonhand = qtyonhand + 10
        WHERE ctid = (SELECT ctid FROM m_storageonhand WHERE m_product_id = $1 AND m_locator_id = 101 ORDER BY datematerialpolicy LIMIT 1)`,
      [PRODUCT],
    );
    await db.query('UPDATE m_cost SET currentqty = currentqty + 10 WHERE m_product_id = $1 AND m_costelement_id = 103', [PRODUCT]);
    const [first, next] = [await draft(), await draft()];
    // A first completion warms the caches every later one finds warm too.
    assert.equal((await complete(first)).status, 200);
    const { result, statements } = await recordStatements(db, () => complete(next));
    assert.equal(result.status, 200, result.text);
    assert.equal(idOf(result.body.DocStatus), 'CO');
    assert.equal(result.body.Processed, true);
    assert.equal(idOf(result.body.Posted), 'Y');
    if (process.env.SHOW_ANSWER) console.log(JSON.stringify(result.body, null, 1));
    const own = ownStatements(statements);
    process.stdout.write(`# shipment completion: ${own.length} statements\n`);
    assert.ok(own.length <= MAX_STATEMENTS, describeStatements(own));
    // None is parsed and planned again on every completion (the locked read of the header too).
    const unnamed = own.filter((s) => !s.name).map((s) => s.text.replace(/\s+/g, ' ').slice(0, 80));
    assert.deepEqual(unnamed, [], 'every statement of the completion is prepared under a name');
    // The header comes back once, with the locked read: its writes answer only the columns they set.
    const wide = own.filter((s) => /UPDATE "m_inout"/.test(s.text) && /RETURNING \*/.test(s.text)).length;
    assert.equal(wide, 0, 'no header write answers the whole row');
    const [line] = (await request('GET', `/api/v1/models/m_inoutline?$filter=${encodeURIComponent(`M_InOut_ID eq ${next}`)}`, undefined)).body.records;
    assert.equal(line.Processed, true, 'the line is processed with its header');
    const cost = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM m_costdetail WHERE m_inoutline_id = $1`, [line.id]);
    assert.equal(cost.rows[0]!.n, 1, 'the line is costed');
  });

  it('hands the document events the whole header as written, though it is written once and answers only the columns set', async () => {
    const db = fx.server().services.db;
    const seen = new Map<string, Record<string, unknown>>();
    for (const type of ['after-prepare', 'after-complete'] as const) {
      fx.server().services.events.on(type, 'm_inout', (e) => {
        seen.set(type, { ...e.row, changed: [...e.changed].sort() });
      });
    }
    const id = await draft();
    const { rows: before } = await db.query<Record<string, unknown>>('SELECT * FROM m_inout WHERE m_inout_id = $1', [id]);
    assert.equal((await complete(id)).status, 200);
    const { rows } = await db.query<Record<string, unknown>>('SELECT * FROM m_inout WHERE m_inout_id = $1', [id]);
    // After complete: every column as a plain read of the row gives it, in the same order.
    const { changed, ...completed } = seen.get('after-complete')!;
    assert.deepEqual(completed, rows[0]);
    assert.deepEqual(Object.keys(completed), Object.keys(rows[0]!));
    assert.deepEqual(changed, ['docaction', 'docstatus', 'posted', 'processed']);
    // After prepare: the draft In Progress, its stamps as the database writes them (no trailing zeros in the fraction).
    const { changed: preparedChanged, ...prepared } = seen.get('after-prepare')!;
    assert.deepEqual(Object.keys(prepared), Object.keys(before[0]!));
    assert.deepEqual({ ...prepared, updated: null }, { ...before[0], docstatus: 'IP', docaction: 'CO', processed: 'N', updated: null });
    const updated = String(prepared.updated);
    assert.match(updated, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d*[1-9])?$/);
    assert.ok(updated >= String(before[0]!.updated) && updated <= String(rows[0]!.updated));
    const moved = ['docaction', 'docstatus', 'processed'].filter((c) => String(before[0]![c]) !== String(prepared[c]));
    assert.ok(moved.includes('docstatus'));
    assert.deepEqual(preparedChanged, moved);
  });
});
