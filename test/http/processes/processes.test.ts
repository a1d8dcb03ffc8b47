import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login, systemLogin } from '../../helpers/login.js';
import { insertSeedRows } from '../../../src/seed/insert-rows.js';

const RESULT_FIELDS = ['AD_PInstance_ID', 'process', 'summary', 'isError', 'nodeId', 'logs'];

describe('processes', () => {
  let server: TestServer;
  let admin: string;
  let user: string;
  let webService: string;
  let system: string;
  const call = (token: string, method: string, p: string, body?: unknown) => server.request(method, p, { token, body });
  const sql = async <R = Record<string, unknown>>(text: string, params: unknown[] = []) => (await server.services.db.query<R>(text, params)).rows;

  before(async () => {
    server = await startTestServer();
    admin = await login(server);
    user = await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 });
    webService = await login(server, { userName: 'WebService', password: 'WebService', roleId: 50004 });
    system = await systemLogin(server);
  });
  after(async () => {
    await server.close();
  });

  describe('the registry', () => {
    it('lists the processes the role may run under "processes", each with its slug, and filters them', async () => {
      const all = await call(admin, 'GET', '/api/v1/processes');
      assert.equal(all.status, 200, all.text);
      assert.deepEqual(Object.keys(all.body), ['processes'], 'the original wraps the list, as both upstream documents say');
      const list = all.body.processes;
      const slugs = list.map((p: { slug: string }) => p.slug);
      for (const s of ['rv_orderdetail', 'rv_bpartneropen', 'rv_storage', 'c_bpartner-validate', 'cacheReset'.toLowerCase(), 'm_inout_generateinvoices', 'rest_exportrecords', 'ad_role_accessupdate']) {
        assert.ok(slugs.includes(s), s);
      }
      assert.ok(!slugs.includes('rest_rotatesigningkey'), 'System processes are not offered to a client role');
      assert.deepEqual(
        list.map((p: { Value: string }) => p.Value),
        [...list.map((p: { Value: string }) => p.Value)].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)),
        'ordered by search key',
      );
      const od = list.find((p: { slug: string }) => p.slug === 'rv_orderdetail');
      assert.equal(od.Value, 'RV_OrderDetail');
      assert.equal(od.IsReport, true);
      assert.equal(od['model-name'], 'ad_process');
      assert.equal(od.AD_ReportView_ID.id, 100);
      assert.equal(typeof od.uid, 'string');
      assert.equal(od.AccessLevel, undefined, 'only the columns the original shows');
      const filtered = await call(admin, 'GET', `/api/v1/processes?filter=${encodeURIComponent("contains(name,'Business Partner')")}`);
      assert.equal(filtered.status, 200, filtered.text);
      assert.deepEqual(filtered.body.processes.map((p: { Name: string }) => p.Name).sort(), ['Business Partner Open Items', 'Import Business Partners', 'Validate Business Partner']);
      const dollar = await call(admin, 'GET', `/api/v1/processes?$filter=${encodeURIComponent("Value eq 'CacheReset'")}`);
      assert.deepEqual(dollar.body.processes.map((p: { slug: string }) => p.slug), ['cachereset']);
      const bad = await call(admin, 'GET', `/api/v1/processes?$filter=${encodeURIComponent('Nope eq 1')}`);
      assert.equal(bad.status, 400);
    });

    it('shows a least-privileged role only its own processes', async () => {
      const r = await call(user, 'GET', '/api/v1/processes');
      assert.deepEqual(r.body.processes.map((p: { slug: string }) => p.slug).sort(), [
        'aging',
        'c_allocation_process',
        'c_bankstatement-banktransfer',
        'c_bankstatement_createfrompayments',
        'c_bankstatement_matcher',
        'c_invoice-process',
        'c_order-process',
        'c_payment-process',
        'finreport',
        'gl_detail',
        'm_inout-process',
        'rpt-c_bankstatement',
        'rpt-c_cash',
        'rv_bpartneropen',
        'rv_orderdetail',
        'rv_storage',
      ]);
      const ws = await call(webService, 'GET', '/api/v1/processes');
      assert.ok(!ws.body.processes.some((p: { slug: string }) => p.slug === 'rv_storage' || p.slug === 'ad_role_accessupdate'));
    });

    it('shows one process with its parameters', async () => {
      const r = await call(admin, 'GET', '/api/v1/processes/rv_orderdetail');
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.slug, 'rv_orderdetail');
      assert.deepEqual(
        r.body.parameters.map((p: { parameterName: string }) => p.parameterName),
        ['C_BPartner_ID', 'DateOrdered', 'M_Product_ID', 'IsSOTrx'],
      );
      const date = r.body.parameters[1];
      assert.equal(date.IsRange, true);
      assert.equal(date.AD_Reference_ID.id, 15);
      assert.equal(date.ColumnName, undefined);
    });

    it('answers 404 for an unknown process and 403 for one the role may not run', async () => {
      const unknown = await call(admin, 'GET', '/api/v1/processes/no-such-process');
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.title, 'Invalid process name');
      assert.equal(unknown.body.detail, 'No match found for process name: no-such-process');
      const runUnknown = await call(admin, 'POST', '/api/v1/processes/no-such-process', {});
      assert.equal(runUnknown.status, 404);
      for (const [token, slug] of [
        [user, 'cachereset'],
        [user, 'rest_exportrecords'],
        [webService, 'rest_exportrecords'],
        [admin, 'rest_rotatesigningkey'],
        [admin, 'rest_expirerefreshtokens'],
      ] as const) {
        for (const [method, p] of [
          ['GET', `/api/v1/processes/${slug}`],
          ['POST', `/api/v1/processes/${slug}`],
          ['POST', `/api/v1/processes/jobs/${slug}`],
        ] as const) {
          const r = await call(token, method, p, method === 'GET' ? undefined : {});
          assert.equal(r.status, 403, `${method} ${p}: ${r.text}`);
          assert.equal(r.body.title, 'Access denied');
        }
      }
      const none = await server.request('GET', '/api/v1/processes');
      assert.equal(none.status, 401);
    });
    it('lets a read-only access row show a process but not run it, and leaves out processes that open a form', async () => {
      const now = new Date().toISOString();
      const dict = server.services.dictionary.current;
      await insertSeedRows(server.services.db, dict.byName.get('ad_process_access')!, [
        { AD_Process_ID: 200304, AD_Role_ID: 103, AD_Client_ID: 11, AD_Org_ID: 0, IsReadWrite: 'N', AD_Process_Access_UU: randomUUID() },
      ], now);
      const shown = await call(user, 'GET', '/api/v1/processes/rest_exportrecords');
      assert.equal(shown.status, 200, shown.text);
      assert.ok((await call(user, 'GET', '/api/v1/processes')).body.processes.some((p: { slug: string }) => p.slug === 'rest_exportrecords'));
      for (const p of ['/api/v1/processes/rest_exportrecords', '/api/v1/processes/jobs/rest_exportrecords']) {
        const run = await call(user, 'POST', p, { AD_Table_ID: 291 });
        assert.equal(run.status, 403, `${p}: ${run.text}`);
        assert.equal(run.body.detail, 'Access denied for process: rest_exportrecords');
      }
      await insertSeedRows(server.services.db, dict.byName.get('ad_process')!, [
        { AD_Process_ID: 1_000_980, AD_Client_ID: 0, AD_Org_ID: 0, Value: 'Form_Opener', Name: 'Opens a form', AccessLevel: '3', EntityType: 'U', AD_Form_ID: 104 },
      ], now);
      await insertSeedRows(server.services.db, dict.byName.get('ad_process_access')!, [{ AD_Process_ID: 1_000_980, AD_Role_ID: 102, AD_Client_ID: 11, AD_Org_ID: 0, IsReadWrite: 'Y', AD_Process_Access_UU: randomUUID() }], now);
      const listed = await call(admin, 'GET', '/api/v1/processes');
      assert.ok(!listed.body.processes.some((p: { slug: string }) => p.slug === 'form_opener'), 'a process that opens a form is not listed');
    });
  });

  describe('runs', () => {
    it('records every run in AD_PInstance with its parameters and returns the full result', async () => {
      const r = await call(admin, 'POST', '/api/v1/processes/cachereset', {});
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(Object.keys(r.body), RESULT_FIELDS, 'the members of the original, in its order');
      assert.equal(r.body.isError, false);
      assert.equal(r.body.process, 'cachereset');
      assert.match(r.body.summary, /Caches reset/);
      assert.equal(r.body.nodeId, server.services.nodes.id, 'the node registry id of the instance that ran it (GET /nodes)');
      assert.match(r.body.nodeId, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'a UUID, as the upstream documents describe it');
      const [inst] = await sql<{ isprocessing: string; result: number; errormsg: string; ad_user_id: number }>(
        'SELECT isprocessing, result, errormsg, ad_user_id FROM ad_pinstance WHERE ad_pinstance_id = $1',
        [r.body.AD_PInstance_ID],
      );
      assert.deepEqual({ ...inst, ad_user_id: Number(inst!.ad_user_id) }, { isprocessing: 'N', result: 1, errormsg: r.body.summary, ad_user_id: 101 });
    });

    it('Expire Refresh Tokens revokes the tokens of the client (System role)', async () => {
      const before = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM rest_refreshtoken WHERE revokedat IS NULL`);
      assert.ok(before[0]!.n >= 1);
      const r = await call(system, 'POST', '/api/v1/processes/rest_expirerefreshtokens', { REST_AllTokens: true });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.isError, false);
      assert.match(r.body.summary, /Refresh tokens revoked: \d+/);
      assert.deepEqual(r.body.logs.map((l: { msg: string }) => l.msg), ['revoked', 'deleted']);
      assert.equal(r.body.logs[0].number, before[0]!.n);
      const after = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM rest_refreshtoken WHERE revokedat IS NULL`);
      assert.equal(after[0]!.n, 0);
      const logs = await sql(`SELECT p_msg FROM ad_pinstance_log WHERE ad_pinstance_id = $1 ORDER BY log_id`, [r.body.AD_PInstance_ID]);
      assert.deepEqual(logs.map((l) => l.p_msg), ['revoked', 'deleted']);
      const para = await sql(`SELECT parametername, p_string FROM ad_pinstance_para WHERE ad_pinstance_id = $1 ORDER BY seqno`, [r.body.AD_PInstance_ID]);
      assert.deepEqual(para, [{ parametername: 'REST_AllTokens', p_string: 'Y' }]);
      system = await systemLogin(server);
      admin = await login(server);
    });

    it('Rotate Signing Key makes a new current key that signs new tokens', async () => {
      const before = await sql<{ kid: string }>(`SELECT kid FROM rest_signingkey WHERE iscurrent = 'Y'`);
      const r = await call(system, 'POST', '/api/v1/processes/rest_rotatesigningkey', {});
      assert.equal(r.body.isError, false, r.text);
      const now = await sql<{ kid: string }>(`SELECT kid FROM rest_signingkey WHERE iscurrent = 'Y'`);
      assert.equal(now.length, 1);
      assert.notEqual(now[0]!.kid, before[0]!.kid);
      assert.ok(r.body.summary.includes(now[0]!.kid));
      let header = '';
      for (let i = 0; i < 100 && !header.includes(now[0]!.kid); i++) {
        const t = await login(server);
        header = Buffer.from(t.split('.')[0]!, 'base64url').toString();
        if (!header.includes(now[0]!.kid)) await new Promise((res) => setTimeout(res, 20));
      }
      assert.ok(header.includes(now[0]!.kid), 'new tokens carry the new key id');
      const old = await call(admin, 'GET', '/api/v1/processes/cachereset');
      assert.equal(old.status, 200, 'a token signed with the old key still works');
    });

    it('Synchronize Column brings a changed schema back to the dictionary', async () => {
      await server.services.db.exec('ALTER TABLE c_bpartner DROP COLUMN url');
      const r = await call(system, 'POST', '/api/v1/processes/ad_column-sync', {});
      assert.equal(r.body.isError, false, r.text);
      assert.match(r.body.summary, /Schema synchronised: 1 change applied/);
      assert.match(r.body.logs[0].msg, /C_BPartner\.URL: missing column/);
      const cols = await sql(`SELECT 1 FROM information_schema.columns WHERE table_name = 'c_bpartner' AND column_name = 'url'`);
      assert.equal(cols.length, 1);
      const again = await call(system, 'POST', '/api/v1/processes/ad_column-sync', {});
      assert.equal(again.body.summary, 'The database already matches the dictionary');
    });

    it('Document Action runs the asked action on the record through the document engine', async () => {
      const order = await call(admin, 'POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1 }] });
      assert.equal(order.status, 201, order.text);
      const r = await call(admin, 'POST', '/api/v1/processes/rest_documentaction', { 'model-name': 'c_order', 'record-id': order.body.id, DocAction: 'PR' });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.isError, false, r.body.summary);
      assert.equal(r.body.summary, `C_Order ${order.body.DocumentNo}: In Progress`);
      const [prepared] = await sql<{ docstatus: string }>(`SELECT docstatus FROM c_order WHERE c_order_id = $1`, [order.body.id]);
      assert.equal(prepared!.docstatus, 'IP');
      assert.deepEqual(r.body.logs[0].recordId, order.body.id);
      const inst = await sql(`SELECT record_id, ad_table_id FROM ad_pinstance WHERE ad_pinstance_id = $1`, [r.body.AD_PInstance_ID]);
      assert.deepEqual(inst.map((i) => [Number(i.record_id), Number(i.ad_table_id)]), [[order.body.id, 259]]);
      const byTableId = await call(admin, 'POST', '/api/v1/processes/rest_documentaction', { 'table-id': 259, 'record-id': order.body.id, DocAction: 'PR' });
      assert.equal(byTableId.body.isError, false, byTableId.text);
      const noRecord = await call(admin, 'POST', '/api/v1/processes/rest_documentaction', { DocAction: 'CO' });
      assert.equal(noRecord.status, 200);
      assert.equal(noRecord.body.isError, true, 'a failing process answers 200 with isError');
      assert.match(noRecord.body.summary, /record-id/);
      const missing = await call(admin, 'POST', '/api/v1/processes/rest_documentaction', { 'model-name': 'c_order', 'record-id': 999999 });
      assert.equal(missing.status, 404);
      const badTable = await call(admin, 'POST', '/api/v1/processes/rest_documentaction', { 'model-name': 'nope', 'record-id': 1 });
      assert.equal(badTable.status, 400);
      const badValue = await call(admin, 'POST', '/api/v1/processes/rest_documentaction', { 'model-name': 'c_order', 'record-id': 'x' });
      assert.equal(badValue.status, 400);
    });

    it('a workflow process without class (C_Order Process) runs the document action of its record; Java Version names the runtime', async () => {
      const order = await call(admin, 'POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 2 }] });
      const r = await call(admin, 'POST', '/api/v1/processes/c_order-process', { 'model-name': 'c_order', 'record-id': order.body.id });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.isError, false, r.body.summary);
      assert.equal(r.body.summary, `C_Order ${order.body.DocumentNo}: Completed`, 'the action the record proposes');
      const [completed] = await sql<{ docstatus: string }>(`SELECT docstatus FROM c_order WHERE c_order_id = $1`, [order.body.id]);
      assert.equal(completed!.docstatus, 'CO');
      const version = await call(system, 'POST', '/api/v1/processes/java-version', {});
      assert.equal(version.body.summary.startsWith(`Node.js ${process.version}`), true, version.text);
      // A process whose class no implementation is bound to.
      const now = new Date().toISOString();
      await insertSeedRows(server.services.db, server.services.dictionary.current.byName.get('ad_process')!, [
        { AD_Process_ID: 1_000_990, AD_Client_ID: 0, AD_Org_ID: 0, Value: 'Unbound_Process', Name: 'Unbound', AccessLevel: '4', EntityType: 'U', Classname: 'org.example.NotInstalled' },
      ], now);
      await insertSeedRows(server.services.db, server.services.dictionary.current.byName.get('ad_process_access')!, [{ AD_Process_ID: 1_000_990, AD_Role_ID: 0, AD_Client_ID: 0, AD_Org_ID: 0, IsReadWrite: 'Y', AD_Process_Access_UU: randomUUID() }], now);
      const unbound = await call(system, 'POST', '/api/v1/processes/unbound_process', {});
      assert.equal(unbound.status, 200);
      assert.equal(unbound.body.isError, true);
      assert.match(unbound.body.summary, /no implementation/);
    });

    it('Generate Invoices from Shipments invoices each completed shipment once', async () => {
      const ship = await call(admin, 'POST', '/api/v1/models/m_inout', {
        C_BPartner_ID: 118,
        C_BPartner_Location_ID: 117,
        Posted: 'N',
        C_DocType_ID: 120,
        M_Warehouse_ID: 103,
        MovementType: 'C-',
        IsSOTrx: true,
        M_InOutLine: [
          { M_Product_ID: 128, MovementQty: 3, QtyEntered: 3, M_Locator_ID: 101 },
          { M_Product_ID: 126, MovementQty: 2, QtyEntered: 2, M_Locator_ID: 101 },
        ],
      });
      assert.equal(ship.status, 201, ship.text);
      const draft = await call(admin, 'POST', '/api/v1/processes/m_inout_generateinvoices', { C_BPartner_ID: 118 });
      assert.equal(draft.body.summary, 'No shipments to invoice', 'a draft shipment is not invoiced');
      // The document engine completes shipments; here the status is set as it would leave it.
      await server.services.db.query(`UPDATE m_inout SET docstatus = 'CO', processed = 'Y' WHERE m_inout_id = $1`, [ship.body.id]);
      const r = await call(admin, 'POST', '/api/v1/processes/m_inout_generateinvoices', { C_BPartner_ID: 118, DateInvoiced: '2026-03-01' });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.isError, false, r.body.summary);
      assert.equal(r.body.summary, 'Invoices generated: 1');
      const invoiceId = r.body.logs[0].recordId;
      const inv = await call(admin, 'GET', `/api/v1/models/c_invoice/${invoiceId}?$expand=C_InvoiceLine`);
      assert.equal(inv.status, 200, inv.text);
      assert.equal(inv.body.C_BPartner_ID.id, 118);
      assert.equal(inv.body.DateInvoiced, '2026-03-01');
      assert.equal(inv.body.IsSOTrx, true);
      assert.equal(inv.body.Description, `Shipment ${ship.body.DocumentNo}`);
      const lines = inv.body.C_InvoiceLine.map((l: { M_Product_ID: { id: number }; QtyInvoiced: number; M_InOutLine_ID: { id: number } }) => [l.M_Product_ID.id, l.QtyInvoiced, l.M_InOutLine_ID.id]);
      assert.deepEqual(lines, ship.body.M_InOutLine.map((l: { M_Product_ID: { id: number }; MovementQty: number; id: number }) => [l.M_Product_ID.id, l.MovementQty, l.id]));
      assert.ok(inv.body.GrandTotal > 0, 'priced and totalled by the invoice rules');
      const again = await call(admin, 'POST', '/api/v1/processes/m_inout_generateinvoices', { C_BPartner_ID: 118 });
      assert.equal(again.body.summary, 'No shipments to invoice');
      // A run that does not allow a second one at the same time answers 409 while one is in progress.
      await server.services.db.query(`UPDATE ad_pinstance SET isprocessing = 'Y' WHERE ad_pinstance_id = $1`, [r.body.AD_PInstance_ID]);
      const busy = await call(admin, 'POST', '/api/v1/processes/m_inout_generateinvoices', {});
      assert.equal(busy.status, 409);
      await server.services.db.query(`UPDATE ad_pinstance SET isprocessing = 'N' WHERE ad_pinstance_id = $1`, [r.body.AD_PInstance_ID]);
    });

    it('Export Records writes the readable records of a table to a CSV export file', async () => {
      const r = await call(admin, 'POST', '/api/v1/processes/rest_exportrecords', { AD_Table_ID: 291, Filter: "IsCustomer eq true" });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.isError, false, r.body.summary);
      assert.match(r.body.exportFileName, /^C_BPartner_\d+\.csv$/);
      const bytes = Buffer.from(r.body.exportFile, 'base64');
      assert.equal(r.body.exportFileLength, bytes.length);
      const rows: Record<string, string>[] = parse(bytes, { columns: true });
      const expected = await sql<{ c_bpartner_id: number; value: string; name: string }>(
        `SELECT c_bpartner_id, value, name FROM c_bpartner WHERE iscustomer = 'Y' AND isactive = 'Y' AND ad_client_id IN (0, 11) ORDER BY c_bpartner_id`,
      );
      assert.deepEqual(rows.map((x) => [Number(x.id), x.Value, x.Name]), expected.map((e) => [Number(e.c_bpartner_id), e.value, e.name]));
      assert.ok(rows.every((x) => x.IsCustomer === 'Y'));
      const bp = rows.find((x) => Number(x.id) === 118)!;
      assert.ok(bp.C_BP_Group_ID && !/^\d+$/.test(bp.C_BP_Group_ID), 'references are written by their identifier');
      await call(admin, 'POST', '/api/v1/models/c_bpartner', { Value: 'CSV-INJ', Name: '=HYPERLINK("http://x.test")', Description: '-12' });
      const risky = await call(admin, 'POST', '/api/v1/processes/rest_exportrecords', { AD_Table_ID: 291, Filter: "Value eq 'CSV-INJ'" });
      const [cells] = parse(Buffer.from(risky.body.exportFile, 'base64'), { columns: true }) as Record<string, string>[];
      assert.equal(cells!.Name, `'=HYPERLINK("http://x.test")`, 'a formula is written as text');
      assert.equal(cells!.Description, '-12', 'a number keeps its sign');
      const badFilter = await call(admin, 'POST', '/api/v1/processes/rest_exportrecords', { AD_Table_ID: 291, Filter: 'Nope eq 1' });
      assert.equal(badFilter.body.isError, true);
      const mandatory = await call(admin, 'POST', '/api/v1/processes/rest_exportrecords', {});
      assert.equal(mandatory.status, 400);
      assert.match(mandatory.body.detail, /AD_Table_ID is mandatory/);
      const dictionary = await call(admin, 'POST', '/api/v1/processes/rest_exportrecords', { AD_Table_ID: 100 });
      assert.equal(dictionary.body.isError, false, 'every role reads the dictionary, so it exports it too');
      assert.ok(parse(Buffer.from(dictionary.body.exportFile, 'base64'), { columns: true }).length > 100);
      const outbox = server.services.dictionary.current.byName.get('rest_mail')!.id;
      const denied = await call(admin, 'POST', '/api/v1/processes/rest_exportrecords', { AD_Table_ID: outbox });
      assert.equal(denied.body.isError, true, "the mail outbox is one of the service's internal tables: no export for a client role");
    });

    it('a FileName parameter takes file content or a path under the process file directory', async () => {
      const csv = 'Value,Name\nIMP-1,Imported One\nIMP-2,Imported Two\n';
      const r = await call(admin, 'POST', '/api/v1/processes/rest_importbpartners', { FileName: { fileName: 'partners.csv', fileContent: Buffer.from(csv).toString('base64') } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.isError, false, r.body.summary);
      assert.equal(r.body.summary, 'Business partners imported from partners.csv: 2');
      const made = await sql(`SELECT value, name FROM c_bpartner WHERE value LIKE 'IMP-%' ORDER BY value`);
      assert.deepEqual(made, [{ value: 'IMP-1', name: 'Imported One' }, { value: 'IMP-2', name: 'Imported Two' }]);
      const dir = server.services.config.processFileDir;
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'more.csv'), 'Value,Name\nIMP-3,Imported Three\n');
      const byPath = await call(admin, 'POST', '/api/v1/processes/rest_importbpartners', { FileName: 'more.csv' });
      assert.equal(byPath.body.summary, 'Business partners imported from more.csv: 1', byPath.text);
      const outside = await call(admin, 'POST', '/api/v1/processes/rest_importbpartners', { FileName: '/etc/passwd' });
      assert.equal(outside.status, 400);
      assert.match(outside.body.detail, /outside the directory of process files/);
      const absent = await call(admin, 'POST', '/api/v1/processes/rest_importbpartners', { FileName: 'absent.csv' });
      assert.equal(absent.status, 400);
      const duplicate = await call(admin, 'POST', '/api/v1/processes/rest_importbpartners', { FileName: { fileName: 'dup.csv', fileContent: Buffer.from('Value,Name\nIMP-9,Nine\nIMP-9,Nine again\n').toString('base64') } });
      assert.equal(duplicate.body.isError, true);
      assert.match(duplicate.body.summary, /dup\.csv row 3/);
      const kept = await sql(`SELECT 1 FROM c_bpartner WHERE value = 'IMP-9'`);
      assert.equal(kept.length, 0, 'a failing run keeps nothing');
      const badContent = await call(admin, 'POST', '/api/v1/processes/rest_importbpartners', { FileName: { fileContent: 42 } });
      assert.equal(badContent.status, 400);
    });

    it('runs in a batch inside its transaction, seeing records created earlier in it', async () => {
      const entries = [
        { method: 'POST', path: 'v1/models/C_BPartner', body: { Value: 'BATCH-P1', Name: 'Batch partner' } },
        { method: 'POST', path: 'v1/processes/rest_exportrecords', body: { AD_Table_ID: 291, Filter: "Value eq 'BATCH-P1'" } },
      ];
      const r = await call(admin, 'POST', '/api/v1/batch', entries);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body[1].statusCode, 200);
      const rows: Record<string, string>[] = parse(Buffer.from(r.body[1].body.exportFile, 'base64'), { columns: true });
      assert.deepEqual(rows.map((x) => [Number(x.id), x.Name]), [[r.body[0].body.id, 'Batch partner']]);
      const failing = await call(admin, 'POST', '/api/v1/batch', [
        { method: 'POST', path: 'v1/processes/cachereset', body: {} },
        { method: 'PUT', path: 'v1/models/C_BPartner/999999', body: { Name: 'x' } },
      ]);
      assert.equal(failing.status, 400);
      const instanceId = failing.body[0].body.AD_PInstance_ID;
      assert.equal(failing.body[0].body.isError, false);
      assert.equal((await sql('SELECT 1 FROM ad_pinstance WHERE ad_pinstance_id = $1', [instanceId])).length, 0, 'the run rolled back with the batch');
      const wrongMethod = await call(admin, 'POST', '/api/v1/batch?transaction=false', [{ method: 'PUT', path: 'v1/processes/cachereset', body: {} }, { method: 'POST', path: 'v1/processes/cachereset', body: {} }]);
      assert.deepEqual(wrongMethod.body.map((x: { statusCode: number }) => x.statusCode), [400, 200]);
      const denied = await call(user, 'POST', '/api/v1/batch', [{ method: 'POST', path: 'v1/processes/cachereset', body: {} }]);
      assert.equal(denied.body[0].statusCode, 403);
    });

    it('Validate Business Partner recomputes open balance, credit used and lifetime value', async () => {
      const vendor = await call(admin, 'POST', '/api/v1/processes/c_bpartner-validate', { C_BPartner_ID: 114 });
      assert.equal(vendor.body.isError, false, vendor.text);
      assert.equal(vendor.body.summary, 'Tree Farm Inc.: open balance -630.00, credit used 0.00, status ' + vendor.body.summary.split('status ')[1]);
      const customer = await call(admin, 'POST', '/api/v1/processes/c_bpartner-validate', { 'model-name': 'c_bpartner', 'record-id': 117 });
      assert.equal(customer.body.isError, false, customer.text);
      const rows = await sql<{ c_bpartner_id: number; totalopenbalance: number; so_creditused: number; actuallifetimevalue: number }>(
        `SELECT c_bpartner_id, totalopenbalance::float8 AS totalopenbalance, so_creditused::float8 AS so_creditused, actuallifetimevalue::float8 AS actuallifetimevalue FROM c_bpartner WHERE c_bpartner_id IN (114, 117) ORDER BY c_bpartner_id`,
      );
      assert.deepEqual(rows.map((r) => [Number(r.c_bpartner_id), r.totalopenbalance, r.so_creditused, r.actuallifetimevalue]), [
        [114, -630, 0, 0],
        [117, 0, 0, 311.7],
      ]);
      const group = await call(admin, 'POST', '/api/v1/processes/c_bpartner-validate', { C_BP_Group_ID: 104 });
      assert.match(group.body.summary, /^(Business partners validated: \d+|.+: open balance)/);
      const none = await call(admin, 'POST', '/api/v1/processes/c_bpartner-validate', {});
      assert.equal(none.body.isError, true);
      assert.match(none.body.summary, /business partner/);
    });

    it('refuses a body that is not an object and values of the wrong type', async () => {
      const arr = await call(admin, 'POST', '/api/v1/processes/cachereset', [1, 2]);
      assert.equal(arr.status, 400);
      const date = await call(admin, 'POST', '/api/v1/processes/m_inout_generateinvoices', { MovementDate: 'yesterday' });
      assert.equal(date.status, 400);
      assert.match(date.body.detail, /MovementDate/);
      const type = await call(admin, 'POST', '/api/v1/processes/rv_orderdetail', { 'report-type': 'DOCX' });
      assert.equal(type.status, 400);
    });
  });
});
