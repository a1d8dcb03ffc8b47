import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login, systemLogin } from '../../helpers/login.js';

/** The tables documents maintain, with their AD_Table_ID and a window/view name of their own for this test. */
const TABLES = [
  { table: 'fact_acct', id: 270, name: 'Ledger Facts' },
  { table: 'm_storageonhand', id: 200026, name: 'Stock On Hand' },
  { table: 'm_storagereservation', id: 200027, name: 'Stock Reservations' },
  { table: 'm_transaction', id: 329, name: 'Stock Transactions' },
  { table: 'm_matchpo', id: 473, name: 'PO Matches' },
  { table: 'm_matchinv', id: 472, name: 'Invoice Matches' },
] as const;

const slug = (name: string) => name.toLowerCase().replace(/ /g, '-');
const viewName = (name: string) => name.replace(/ /g, '');

/** Columns a copy of a read record leaves out (keys, audit columns, the client). */
const NOT_COPIED = new Set(['id', 'uid', 'model-name', 'Created', 'CreatedBy', 'Updated', 'UpdatedBy', 'AD_Client_ID']);

/** A body that would create a new row like `record`: its values, references as ids. */
function copyOf(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) {
    if (NOT_COPIED.has(k) || k.endsWith('_UU')) continue;
    out[k] = v && typeof v === 'object' && 'id' in v ? (v as { id: unknown }).id : v;
  }
  return out;
}

const q = (s: string) => encodeURIComponent(s);

describe('tables documents maintain are read-only through every write path', () => {
  let server: TestServer;
  const tokens: Record<'admin' | 'user' | 'system', string> = { admin: '', user: '', system: '' };
  /** One existing row of each table (as GardenWorld Admin reads it), and the way to address it. */
  const samples = new Map<string, { ref: string; record: Record<string, unknown> }>();
  const as = (token: string, method: string, path: string, body?: unknown) => server.request(method, path, { token, body });

  /** How many rows a table holds (read as GardenWorld Admin). */
  const rowCount = async (table: string) => {
    const r = await as(tokens.admin, 'GET', `/api/v1/models/${table}?$top=1`);
    assert.equal(r.status, 200, r.text);
    return r.body['row-count'] as number;
  };

  /**
   * A refused write: 403 with the error body of the spec, naming the table. The System role, which
   * may not even read these client tables, may be refused before that (403 Access denied).
   */
  let refusedAs: 'admin' | 'user' | 'system' = 'admin';
  const refused = (r: { status: number; body: any; text: string }, what: string, title: 'Update error' | 'Delete error') => {
    assert.equal(r.status, 403, `${what}: ${r.status} ${r.text}`);
    assert.equal(r.body.status, 403, what);
    if (refusedAs === 'system' && r.body.title === 'Access denied') return;
    assert.equal(r.body.title, title, what);
    assert.match(r.body.detail, /are written only by the documents/, what);
  };

  before(async () => {
    server = await startTestServer();
    tokens.admin = await login(server);
    tokens.user = await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 });
    tokens.system = await systemLogin(server);
    for (const t of TABLES) {
      const r = await as(tokens.admin, 'GET', `/api/v1/models/${t.table}?$top=1&$orderby=Created`);
      assert.equal(r.status, 200, r.text);
      const record = r.body.records[0];
      assert.ok(record, `the demo has a ${t.table} row`);
      samples.set(t.table, { ref: String(record.id ?? record.uid), record });
      // A window with one tab and a REST view over the table, open to the admin and user roles.
      const w = await as(tokens.system, 'POST', '/api/v1/models/ad_window', { Name: t.name, WindowType: 'M' });
      assert.equal(w.status, 201, w.text);
      const tab = await as(tokens.system, 'POST', '/api/v1/models/ad_tab', { AD_Window_ID: w.body.id, AD_Table_ID: t.id, Name: t.name, SeqNo: 10, TabLevel: 0 });
      assert.equal(tab.status, 201, tab.text);
      for (const role of [102, 103]) {
        const access = await as(tokens.admin, 'POST', '/api/v1/models/ad_window_access', { AD_Window_ID: w.body.id, AD_Role_ID: role, IsReadWrite: true });
        assert.equal(access.status, 201, access.text);
      }
      const systemAccess = await as(tokens.system, 'POST', '/api/v1/models/ad_window_access', { AD_Window_ID: w.body.id, AD_Role_ID: 0, IsReadWrite: true });
      assert.equal(systemAccess.status, 201, systemAccess.text);
      const view = await as(tokens.system, 'POST', '/api/v1/models/rest_view', { Name: viewName(t.name), AD_Table_ID: t.id });
      assert.equal(view.status, 201, view.text);
    }
  });
  after(async () => {
    await server.close();
  });

  for (const role of ['admin', 'user', 'system'] as const) {
    it(`refuses POST, PUT and DELETE through /models and /batch (${role})`, async () => {
      refusedAs = role;
      for (const t of TABLES) {
        const { ref, record } = samples.get(t.table)!;
        const before = await rowCount(t.table);
        const body = { ...copyOf(record), ...(t.table === 'fact_acct' ? { AmtSourceDr: 1000, AmtAcctDr: 1000, AmtSourceCr: 0, AmtAcctCr: 0 } : {}) };
        refused(await as(tokens[role], 'POST', `/api/v1/models/${t.table}`, body), `POST ${t.table}`, 'Update error');
        refused(await as(tokens[role], 'PUT', `/api/v1/models/${t.table}/${ref}`, { Description: 'changed by hand' }), `PUT ${t.table}`, 'Update error');
        refused(await as(tokens[role], 'DELETE', `/api/v1/models/${t.table}/${ref}`), `DELETE ${t.table}`, 'Delete error');
        const entries = [
          { method: 'POST', path: `v1/models/${t.table}`, body },
          { method: 'PUT', path: `v1/models/${t.table}/${ref}`, body: { Description: 'changed by hand' } },
          { method: 'DELETE', path: `v1/models/${t.table}/${ref}` },
        ];
        // Each entry on its own (every one is refused), and in one transaction (stopped at the first).
        const each = await as(tokens[role], 'POST', '/api/v1/batch?transaction=false', entries);
        assert.equal(each.status, 200, each.text);
        assert.deepEqual(each.body.map((x: { statusCode: number }) => x.statusCode), [403, 403, 403], `batch on ${t.table}: ${each.text}`);
        assert.deepEqual(each.body.map((x: { body: { title: string } }) => x.body.title), ['Update error', 'Update error', 'Delete error']);
        const together = await as(tokens[role], 'POST', '/api/v1/batch', entries);
        assert.equal(together.status, 400, together.text);
        assert.deepEqual(together.body.map((x: { statusCode: number }) => x.statusCode), [403]);
        assert.equal(await rowCount(t.table), before, `${t.table} keeps its rows`);
      }
    });
  }

  it('gives the System role no window or view to write them through', async () => {
    for (const t of TABLES) {
      const { ref, record } = samples.get(t.table)!;
      const before = await rowCount(t.table);
      const w = slug(t.name);
      const v = viewName(t.name);
      for (const [method, path, body] of [
        ['POST', `/api/v1/windows/${w}`, copyOf(record)],
        ['PUT', `/api/v1/windows/${w}/${ref}`, { Description: 'changed by hand' }],
        ['DELETE', `/api/v1/windows/${w}/tabs/${w}/${ref}`, undefined],
        ['POST', `/api/v1/views/${v}`, {}],
        ['PUT', `/api/v1/views/${v}/${ref}`, {}],
        ['DELETE', `/api/v1/views/${v}/${ref}`, undefined],
      ] as const) {
        const r = await as(tokens.system, method, path, body);
        // Its user level does not reach these client tables: their windows are not its own (404), their views closed (403).
        assert.ok(r.status === 403 || r.status === 404, `${method} ${path}: ${r.status} ${r.text}`);
        assert.equal(r.body.status, r.status);
      }
      assert.equal(await rowCount(t.table), before, `${t.table} keeps its rows`);
    }
  });

  for (const role of ['admin', 'user'] as const) {
    it(`refuses creates, changes and deletes through windows and REST views (${role})`, async () => {
      refusedAs = role;
      for (const t of TABLES) {
        const { ref, record } = samples.get(t.table)!;
        const before = await rowCount(t.table);
        const w = slug(t.name);
        refused(await as(tokens[role], 'POST', `/api/v1/windows/${w}`, copyOf(record)), `POST window ${w}`, 'Update error');
        refused(await as(tokens[role], 'PUT', `/api/v1/windows/${w}/${ref}`, { Description: 'changed by hand' }), `PUT window ${w}`, 'Update error');
        refused(await as(tokens[role], 'PUT', `/api/v1/windows/${w}/tabs/${w}/${ref}`, { Description: 'changed by hand' }), `PUT tab ${w}`, 'Update error');
        refused(await as(tokens[role], 'DELETE', `/api/v1/windows/${w}/${ref}`), `DELETE window ${w}`, 'Delete error');
        refused(await as(tokens[role], 'DELETE', `/api/v1/windows/${w}/tabs/${w}/${ref}`), `DELETE tab ${w}`, 'Delete error');
        const v = viewName(t.name);
        refused(await as(tokens[role], 'POST', `/api/v1/views/${v}`, {}), `POST view ${v}`, 'Update error');
        refused(await as(tokens[role], 'PUT', `/api/v1/views/${v}/${ref}`, {}), `PUT view ${v}`, 'Update error');
        refused(await as(tokens[role], 'DELETE', `/api/v1/views/${v}/${ref}`), `DELETE view ${v}`, 'Delete error');
        assert.equal(await rowCount(t.table), before, `${t.table} keeps its rows`);
      }
    });
  }

  it('keeps them when their parent is deleted: a product with stock is still referenced (409)', async () => {
    const stockRows = await rowCount('m_storageonhand');
    const r = await as(tokens.admin, 'DELETE', '/api/v1/models/m_product/128');
    assert.equal(r.status, 409, r.text);
    assert.equal(r.body.title, 'Delete error');
    assert.match(r.body.detail, /still referenced by/);
    assert.equal(await rowCount('m_storageonhand'), stockRows);
    assert.equal((await as(tokens.admin, 'GET', '/api/v1/models/m_product/128')).status, 200);
  });

  it('still reads them, and documents still write them', async () => {
    for (const t of TABLES) {
      const r = await as(tokens.user, 'GET', `/api/v1/models/${t.table}?$top=1`);
      assert.equal(r.status, 200, `${t.table}: ${r.text}`);
      const w = await as(tokens.admin, 'GET', `/api/v1/windows/${slug(t.name)}`);
      assert.equal(w.status, 200, `${t.table}: ${w.text}`);
      const v = await as(tokens.admin, 'GET', `/api/v1/views/${viewName(t.name)}?$top=1`);
      assert.equal(v.status, 200, `${t.table}: ${v.text}`);
    }
    const factsBefore = await rowCount('fact_acct');
    const stockBefore = await rowCount('m_transaction');
    // A sales order completed, shipped and invoiced: the shipment moves stock, both post facts.
    const order = await as(tokens.admin, 'POST', '/api/v1/models/c_order', {
      C_BPartner_ID: 118,
      C_DocTypeTarget_ID: 132,
      C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1 }],
      'doc-action': 'CO',
    });
    assert.equal(order.status, 201, order.text);
    const shipment = await as(tokens.admin, 'POST', '/api/v1/models/m_inout', {
      C_Order_ID: order.body.id,
      M_InOutLine: [{ C_OrderLine_ID: order.body.C_OrderLine[0].id, QtyEntered: 1 }],
      'doc-action': 'CO',
    });
    assert.equal(shipment.status, 201, shipment.text);
    assert.equal(shipment.body.DocStatus.id, 'CO');
    const invoice = await as(tokens.admin, 'POST', '/api/v1/models/c_invoice', {
      C_Order_ID: order.body.id,
      C_InvoiceLine: [{ C_OrderLine_ID: order.body.C_OrderLine[0].id }],
      'doc-action': 'CO',
    });
    assert.equal(invoice.status, 201, invoice.text);
    assert.ok((await rowCount('fact_acct')) > factsBefore, 'the documents posted facts');
    assert.equal(await rowCount('m_transaction'), stockBefore + 1, 'the shipment wrote its stock transaction');
    const facts = await as(tokens.admin, 'GET', `/api/v1/models/fact_acct?$filter=${q(`AD_Table_ID eq 318 and Record_ID eq ${invoice.body.id}`)}`);
    const sum = (k: string) => facts.body.records.reduce((s: number, f: Record<string, number>) => s + Number(f[k]), 0);
    assert.ok(facts.body.records.length >= 2);
    assert.equal(sum('AmtAcctDr'), sum('AmtAcctCr'), 'the invoice posting balances');
  });
});
