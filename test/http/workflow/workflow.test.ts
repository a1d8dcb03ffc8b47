import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login, systemLogin } from '../../helpers/login.js';
import { eventually } from '../../helpers/wait.js';

const idOf = (v: unknown): unknown => (v && typeof v === 'object' ? (v as { id: unknown }).id : v);
type Node = Record<string, unknown>;

describe('workflow approvals and nodes', () => {
  let server: TestServer;
  let admin: string;
  let user: string;
  const call = (token: string, method: string, path: string, body?: unknown) => server.request(method, path, { token, body });
  const sql = async <R = Record<string, unknown>>(text: string, params: unknown[] = []) => (await server.services.db.query<R>(text, params)).rows;
  const nodesOf = async (token: string, path = '/api/v1/workflow'): Promise<Node[]> => {
    const r = await call(token, 'GET', path);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body['row-count'], r.body.nodes.length);
    return r.body.nodes;
  };
  /** A sales order of a planting service (no stock involved): qty 60 is 2,226.00, above GardenUser's limit of 1,000. */
  const order = async (token: string, qty: number, docAction = 'CO') => {
    const r = await call(token, 'POST', '/api/v1/models/c_order', {
      C_BPartner_ID: 118,
      C_DocTypeTarget_ID: 132,
      C_OrderLine: [{ Line: 10, M_Product_ID: 126, QtyEntered: qty }],
      'doc-action': docAction,
    });
    return r;
  };
  const activityOf = async (orderId: number) =>
    (await sql<{ id: number; wfstate: string; processed: string; ad_user_id: number }>(
      `SELECT a.ad_wf_activity_id AS id, a.wfstate, a.processed, a.ad_user_id FROM ad_wf_activity a JOIN ad_wf_node n ON n.ad_wf_node_id = a.ad_wf_node_id
        WHERE a.ad_table_id = 259 AND a.record_id = $1 AND n.action = 'C' ORDER BY a.ad_wf_activity_id DESC LIMIT 1`,
      [orderId],
    ))[0]!;
  const processOf = async (orderId: number) => (await sql<{ wfstate: string; processed: string }>('SELECT wfstate, processed FROM ad_wf_process WHERE ad_table_id = 259 AND record_id = $1', [orderId]))[0];
  const readOrder = async (id: number) => (await call(admin, 'GET', `/api/v1/models/c_order/${id}`)).body;
  /** An order of GardenUser suspended on the approval node, with its activity id. */
  const suspended = async () => {
    const r = await order(user, 60);
    assert.equal(r.status, 201, r.text);
    return { orderId: Number(r.body.id), activity: (await activityOf(Number(r.body.id))).id, body: r.body };
  };

  before(async () => {
    server = await startTestServer();
    admin = await login(server);
    user = await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 });
  });
  after(async () => {
    await server.close();
  });

  it('lists the demo nodes of GardenAdmin with every field of the spec', async () => {
    const nodes = await nodesOf(admin);
    const ids = nodes.map((n) => n.id);
    for (const id of [100, 1000000, 1001203, 1001223]) assert.ok(ids.includes(id), `node ${id} in ${ids.join(',')}`);
    const approval = nodes.find((n) => n.id === 100)!;
    for (const field of ['id', 'uid', 'model-name', 'node-name', 'node-description', 'priority', 'summary', 'node-help', 'history-records', 'table-name', 'ad_table_id', 'record_id', 'node-approval', 'node-confirmation', 'created']) {
      assert.ok(field in approval, `field ${field}`);
    }
    assert.equal(approval['model-name'], 'ad_wf_activity');
    assert.equal(approval['node-name'], '(DocApprove)');
    assert.equal(approval['table-name'], 'C_Order');
    assert.equal(approval.ad_table_id, 259);
    assert.equal(approval.record_id, 106);
    assert.equal(approval['node-approval'], true);
    assert.equal(approval['node-confirmation'], false);
    assert.match(String(approval.summary), /WF80001/);
    assert.match(String(approval['history-records']), /\(Start\)/);
    assert.equal(nodes.find((n) => n.id === 1001203)!['node-confirmation'], true);
  });

  it('writes nodes in the upstream schema: typed properties, an ISO created, the history as HTML', async () => {
    const types: Record<string, string> = {
      id: 'number', uid: 'string', 'model-name': 'string', 'node-name': 'string', priority: 'number', 'history-records': 'string',
      'table-name': 'string', ad_table_id: 'number', record_id: 'number', 'node-approval': 'boolean', 'node-confirmation': 'boolean', created: 'string',
    };
    const nodes = await nodesOf(admin);
    assert.ok(nodes.length >= 4);
    for (const n of nodes) {
      for (const [k, t] of Object.entries(types)) assert.equal(typeof n[k], t, `${k} of node ${String(n.id)}`);
      assert.match(String(n.created), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/, 'created is an ISO date-time');
      assert.ok(!Number.isNaN(Date.parse(String(n.created))));
      assert.match(String(n['history-records']), /^(<p>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC <b>[^<]+<\/b>: [^<]*(<i>.*?<\/i>)?<\/p>)+$/);
    }
    const approval = String(nodes.find((n) => n.id === 100)!['history-records']);
    assert.match(approval, /^<p>[^<]+<b>\(Start\)<\/b>: Completed<\/p>/);
    assert.match(approval, /<b>\(DocApprove\)<\/b>: Suspended \(GardenAdmin\)<i>Waiting for approval by user 101<\/i><\/p>$/);
  });

  it('completes an order under the approval amount directly, without a workflow process', async () => {
    const r = await order(user, 2);
    assert.equal(r.status, 201, r.text);
    assert.equal(idOf(r.body.DocStatus), 'CO');
    assert.equal(r.body.IsApproved, true);
    assert.equal(await processOf(Number(r.body.id)), undefined);
  });

  it('suspends an order above the approval amount for the supervisor, In Progress', async () => {
    const { orderId, activity, body } = await suspended();
    assert.equal(idOf(body.DocStatus), 'IP');
    assert.equal(body.IsApproved, false);
    assert.match(String(body['doc-processmsg']), /approval/i);
    assert.deepEqual(await processOf(orderId), { wfstate: 'OS', processed: 'N' });
    const a = await activityOf(orderId);
    assert.equal(a.wfstate, 'OS');
    assert.equal(Number(a.ad_user_id), 101, 'GardenUser\'s supervisor');
    assert.ok((await nodesOf(admin)).some((n) => n.id === activity && n.record_id === orderId));
    assert.ok(!(await nodesOf(user)).some((n) => n.id === activity), 'not in the starter\'s list');
  });

  it('approves: the order completes and the workflow is completed', async () => {
    const { orderId, activity } = await suspended();
    const wrongUser = await call(user, 'PUT', `/api/v1/workflow/approve/${activity}`, { message: 'mine?' });
    assert.equal(wrongUser.status, 400, wrongUser.text);
    assert.equal(wrongUser.body.title, 'Not your workflow activity');
    const r = await call(admin, 'PUT', `/api/v1/workflow/approve/${activity}`, { message: '<script>alert(1)</script>\nfine' });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(Object.keys(r.body), ['msg', 'summary', 'history-records'], 'the original\'s answer: message, the record\'s summary, the history');
    assert.equal(r.body.msg, 'Updated');
    assert.match(r.body.summary, /^\d+ - \d+(\.\d+)?$/, 'the order\'s document number and amount');
    assert.match(r.body['history-records'], /<b>\(DocApprove\)<\/b>: Completed \(GardenAdmin\)<i>Waiting for approval by user 101<br>&lt;script&gt;alert\(1\)&lt;\/script&gt;<br>fine<br>Approved<\/i><\/p>/);
    assert.match(r.body['history-records'], /<b>\(DocComplete\)<\/b>: Completed<\/p>$/);
    assert.ok(!r.body['history-records'].includes('<script>'), 'a message cannot become markup');
    const o = await readOrder(orderId);
    assert.equal(idOf(o.DocStatus), 'CO');
    assert.equal(o.IsApproved, true);
    assert.deepEqual(await processOf(orderId), { wfstate: 'CC', processed: 'Y' });
    const again = await call(admin, 'PUT', `/api/v1/workflow/reject/${activity}`, {});
    assert.equal(again.status, 400, again.text);
    assert.equal(again.body.title, 'Activity not suspended');
    assert.ok(!(await nodesOf(admin)).some((n) => n.id === activity));
  });

  it('refuses another document action while a workflow waits on the document, and changes nothing', async () => {
    const { orderId, activity } = await suspended();
    const before = await readOrder(orderId);
    for (const [token, action] of [[admin, 'CO'], [user, 'VO'], [admin, 'PR']] as const) {
      const r = await call(token, 'PUT', `/api/v1/models/c_order/${orderId}`, { 'doc-action': action });
      assert.equal(r.status, 400, `${action}: ${r.text}`);
      assert.match(r.body.detail, /active workflow/);
      assert.match(r.body.detail, new RegExp(`\\b${action}\\b`));
    }
    assert.deepEqual(await readOrder(orderId), before);
    assert.deepEqual(await processOf(orderId), { wfstate: 'OS', processed: 'N' });
    // Once the node is answered, actions are taken again.
    assert.equal((await call(admin, 'PUT', `/api/v1/workflow/approve/${activity}`, {})).status, 200);
    const close = await call(admin, 'PUT', `/api/v1/models/c_order/${orderId}`, { 'doc-action': 'CL' });
    assert.equal(close.status, 200, close.text);
    assert.equal(idOf(close.body.DocStatus), 'CL');
  });

  it('rejects: the order is Not Approved and the workflow aborted', async () => {
    const { orderId, activity } = await suspended();
    const r = await call(admin, 'PUT', `/api/v1/workflow/reject/${activity}`, { message: 'too much' });
    assert.equal(r.status, 200, r.text);
    const o = await readOrder(orderId);
    assert.equal(idOf(o.DocStatus), 'NA');
    assert.equal(o.IsApproved, false);
    assert.deepEqual(await processOf(orderId), { wfstate: 'CA', processed: 'Y' });
    assert.equal((await activityOf(orderId)).wfstate, 'CA');
  });

  it('forwards to an active user only, and an approver without the amount passes it up the chain', async () => {
    const { orderId, activity } = await suspended();
    const put = (body: unknown) => call(admin, 'PUT', `/api/v1/workflow/forward/${activity}`, body);
    assert.equal((await put({})).status, 400);
    const unknown = await put({ userTo: '999999' });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.detail, /999999/);
    await sql(`UPDATE ad_user SET isactive = 'N' WHERE ad_user_id = 108`);
    try {
      const inactive = await put({ userTo: 108 });
      assert.equal(inactive.status, 400);
      assert.match(inactive.body.detail, /not active/);
    } finally {
      await sql(`UPDATE ad_user SET isactive = 'Y' WHERE ad_user_id = 108`);
    }
    assert.equal((await put({ userTo: '101' })).status, 400, 'not to oneself');
    const r = await put({ userTo: '102', message: 'please look' });
    assert.equal(r.status, 200, r.text);
    assert.ok((await nodesOf(user)).some((n) => n.id === activity));
    assert.ok(!(await nodesOf(admin)).some((n) => n.id === activity));
    // GardenUser may approve up to 1,000 only: the approval goes on to the supervisor.
    const up = await call(user, 'PUT', `/api/v1/workflow/approve/${activity}`, {});
    assert.equal(up.status, 200, up.text);
    assert.equal(idOf((await readOrder(orderId)).DocStatus), 'IP');
    const a = await activityOf(orderId);
    assert.equal(a.wfstate, 'OS');
    assert.equal(Number(a.ad_user_id), 101);
  });

  it('answers only the node kinds each answer is for', async () => {
    const { activity } = await suspended();
    const ack = await call(admin, 'PUT', `/api/v1/workflow/acknowledge/${activity}`, {});
    assert.equal(ack.status, 400);
    assert.match(ack.body.detail, /approval node/);
    const choice = await call(admin, 'PUT', `/api/v1/workflow/setuserchoice/${activity}`, { value: 'x' });
    assert.equal(choice.status, 400);
    const approveNotice = await call(admin, 'PUT', '/api/v1/workflow/approve/1001203', {});
    assert.equal(approveNotice.status, 400);
    assert.match(approveNotice.body.detail, /notification node/);
    assert.equal((await call(admin, 'PUT', '/api/v1/workflow/approve/12345678', {})).status, 404);
    assert.equal((await call(admin, 'PUT', '/api/v1/workflow/approve/abc', {})).status, 404);
  });

  it('acknowledges a notification, and the workflow goes on to the user choice', async () => {
    const r = await call(admin, 'PUT', '/api/v1/workflow/acknowledge/1001203', { message: 'Reviewed, everything OK' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.msg, 'Updated');
    assert.match(r.body.summary, /^WF80003/);
    assert.match(r.body['history-records'], /<b>Review notice<\/b>: Completed \(GardenAdmin\)<i>Waiting for acknowledgement<br>Reviewed, everything OK<br>Acknowledged<\/i>/);
    const next = (await nodesOf(admin)).find((n) => n.record_id === 108);
    assert.ok(next, 'the choice node of order 108 waits now');
    assert.equal(next['node-name'], 'Note for the customer');
  });

  it('sets a user choice checked against its column, and the workflow completes', async () => {
    const tooLong = await call(admin, 'PUT', '/api/v1/workflow/setuserchoice/1001223', { value: 'x'.repeat(256) });
    assert.equal(tooLong.status, 400);
    const missing = await call(admin, 'PUT', '/api/v1/workflow/setuserchoice/1001223', { message: 'no value' });
    assert.equal(missing.status, 400);
    const r = await call(admin, 'PUT', '/api/v1/workflow/setuserchoice/1001223', { message: 'I like this choice', value: 'Setting a value using setuserchoice' });
    assert.equal(r.status, 200, r.text);
    const o = await readOrder(109);
    assert.equal(o.Description, 'Setting a value using setuserchoice');
    assert.equal(o.POReference, 'Reviewed', 'the set variable node after the choice');
    assert.deepEqual(await processOf(109), { wfstate: 'CC', processed: 'Y' });
  });

  it('lists another user\'s nodes by id, and refuses unknown users', async () => {
    const forUser = await nodesOf(admin, '/api/v1/workflow/101');
    assert.ok(forUser.some((n) => n.id === 100));
    assert.equal((await nodesOf(admin, '/api/v1/workflow/100')).length, 0);
    assert.equal((await call(admin, 'GET', '/api/v1/workflow/999999')).status, 400);
    assert.equal((await call(admin, 'GET', '/api/v1/workflow/nobody')).status, 400);
  });

  it('lists another user\'s nodes only on documents the caller may read', async () => {
    const ws = await login(server, { userName: 'WebService', password: 'WebService', roleId: 50004 });
    assert.ok((await nodesOf(ws, '/api/v1/workflow/101')).some((n) => n.id === 100), 'orders are readable by WebService');
    const rule = await call(admin, 'POST', '/api/v1/models/ad_table_access', { AD_Role_ID: 50004, AD_Table_ID: 259, IsExclude: true });
    assert.equal(rule.status, 201, rule.text);
    try {
      const closed = await login(server, { userName: 'WebService', password: 'WebService', roleId: 50004 });
      assert.ok(!(await nodesOf(closed, '/api/v1/workflow/101')).some((n) => n['table-name'] === 'C_Order'), 'no order disclosed to a role closed to orders');
    } finally {
      await server.services.db.query('DELETE FROM ad_table_access WHERE ad_role_id = 50004 AND ad_table_id = 259');
    }
  });

  it('keeps definitions and approvers in caches that GET /caches shows and a table reset empties', async () => {
    await suspended();
    const system = await systemLogin(server);
    const sizes = async () => {
      const r = await call(system, 'GET', '/api/v1/caches');
      assert.equal(r.status, 200, r.text);
      const size = (name: string) => (r.body.caches as { name: string; size: number }[]).find((c) => c.name === name)?.size;
      return { definitions: size('Workflow definitions'), approvers: size('Workflow approvers') };
    };
    const filled = await sizes();
    assert.ok(filled.definitions! >= 1 && filled.approvers! >= 1, JSON.stringify(filled));
    assert.equal((await call(system, 'DELETE', '/api/v1/caches?table_name=AD_WF_Node')).status, 200);
    await eventually(() => server.services.caches.list().find((c) => c.name === 'Workflow definitions')?.size === 0, 'the reset reached the workflow definitions');
    const emptied = await sizes();
    assert.ok(emptied.approvers! >= 1, 'a reset of AD_WF_Node leaves the approvers');
  });

  it('keeps tenants apart', async () => {
    const system = await systemLogin(server);
    assert.equal((await nodesOf(system)).length, 0);
    assert.equal((await call(system, 'GET', '/api/v1/workflow/101')).status, 400, 'a user of another tenant is not found');
    const r = await call(system, 'PUT', '/api/v1/workflow/approve/100', {});
    assert.equal(r.status, 404, r.text);
  });

  it('refuses a completion that nobody up the chain may approve, and writes nothing', async () => {
    const cut = await call(admin, 'PUT', '/api/v1/models/ad_user/102', { Supervisor_ID: null });
    assert.equal(cut.status, 200, cut.text);
    try {
      const before = (await sql<{ n: number }>('SELECT count(*)::int AS n FROM c_order'))[0]!.n;
      const r = await order(user, 60);
      assert.equal(r.status, 400, r.text);
      assert.match(r.body.detail, /supervisor/);
      assert.equal((await sql<{ n: number }>('SELECT count(*)::int AS n FROM c_order'))[0]!.n, before);
    } finally {
      await call(admin, 'PUT', '/api/v1/models/ad_user/102', { Supervisor_ID: 101 });
    }
  });

  it('approves the collection\'s node 100 (the demo order of GardenUser)', async () => {
    const r = await call(admin, 'PUT', '/api/v1/workflow/approve/100', { message: 'This is the end, my only friend' });
    assert.equal(r.status, 200, r.text);
    assert.equal(idOf((await readOrder(106)).DocStatus), 'CO');
  });
});
