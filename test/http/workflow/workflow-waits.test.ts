import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login, systemLogin } from '../../helpers/login.js';
import { resumeDueWaits } from '../../../src/workflow/workflow-processor.js';

const idOf = (v: unknown): unknown => (v && typeof v === 'object' ? (v as { id: unknown }).id : v);
type Row = Record<string, unknown>;

/**
 * A document-process workflow of GardenWorld for orders, built through /models as an
 * administrator would: a completion goes through a one-hour wait, or straight to (DocComplete)
 * when the transition condition on the grand total does not hold; other actions go to (DocAuto).
 */
describe('workflow waits and transition conditions', () => {
  let server: TestServer;
  let admin: string;
  let system: string;
  let waitNode: number;
  let toWait: number;
  const call = (token: string, method: string, path: string, body?: unknown) => server.request(method, path, { token, body });
  const sql = async <R = Row>(text: string, params: unknown[] = []) => (await server.services.db.query<R>(text, params)).rows;
  const create = async (model: string, body: Row): Promise<number> => {
    const r = await call(admin, 'POST', `/api/v1/models/${model}`, { AD_Org_ID: 0, ...body });
    assert.equal(r.status, 201, `${model}: ${r.text}`);
    return Number(r.body.id);
  };
  const node = (workflowId: number, value: string, body: Row) =>
    create('ad_wf_node', { AD_Workflow_ID: workflowId, Value: value, Name: value, Cost: 0, Duration: 0, Limit: 0, WaitingTime: 0, XPosition: 0, YPosition: 0, ...body });
  /** A sales order of a planting service: qty 60 is 2,226.00, qty 2 is 74.20. */
  const order = async (qty: number) => {
    const r = await call(admin, 'POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ Line: 10, M_Product_ID: 126, QtyEntered: qty }], 'doc-action': 'CO' });
    assert.equal(r.status, 201, r.text);
    return r.body as Row;
  };
  const waitOf = async (orderId: number) =>
    (await sql<{ id: number; wfstate: string; processed: string; ad_user_id: number | null; endwaittime: string | null; textmsg: string | null }>(
      `SELECT ad_wf_activity_id AS id, wfstate, processed, ad_user_id, endwaittime::text, textmsg FROM ad_wf_activity WHERE ad_table_id = 259 AND record_id = $1 AND ad_wf_node_id = $2`,
      [orderId, waitNode],
    ))[0];
  const processOf = async (orderId: number) => (await sql<{ wfstate: string; processed: string; textmsg: string | null }>('SELECT wfstate, processed, textmsg FROM ad_wf_process WHERE ad_table_id = 259 AND record_id = $1', [orderId]))[0];
  const statusOf = async (orderId: number) => (await sql<{ docstatus: string }>('SELECT docstatus FROM c_order WHERE c_order_id = $1', [orderId]))[0]!.docstatus;
  const makeDue = async (orderId: number) => sql(`UPDATE ad_wf_activity SET endwaittime = now() AT TIME ZONE 'UTC' - interval '1 minute' WHERE ad_table_id = 259 AND record_id = $1 AND ad_wf_node_id = $2`, [orderId, waitNode]);
  const runProcessor = async () => {
    const r = await call(system, 'POST', `/api/v1/servers/workflow-processor@${server.services.nodes.id}/run`);
    assert.equal(r.status, 200, r.text);
    return r.body as Row;
  };
  /** An order waiting in the workflow, with its wait activity. */
  const waiting = async () => {
    const o = await order(60);
    const orderId = Number(o.id);
    const w = await waitOf(orderId);
    assert.ok(w, 'the order waits');
    return { orderId, wait: w, body: o };
  };

  before(async () => {
    server = await startTestServer();
    admin = await login(server);
    system = await systemLogin(server);
    const wf = await create('ad_workflow', {
      Value: 'Order_Routing', Name: 'Order Routing', AD_Table_ID: 259, WorkflowType: 'P', AccessLevel: '1', Author: 'GardenWorld',
      Cost: 0, Duration: 0, Version: 0, WaitingTime: 0, WorkingTime: 0, IsValid: true,
    });
    const start = await node(wf, '(Start)', { Action: 'Z' });
    waitNode = await node(wf, 'Cool-off', { Action: 'Z', WaitTime: 60, Description: 'Large orders wait an hour before they complete' });
    const complete = await node(wf, '(DocComplete)', { Action: 'D', DocAction: 'CO' });
    const auto = await node(wf, '(DocAuto)', { Action: 'D', DocAction: '--' });
    toWait = await create('ad_wf_nodenext', { AD_WF_Node_ID: start, AD_WF_Next_ID: waitNode, SeqNo: 10, TransitionCode: 'CO' });
    await create('ad_wf_nodenext', { AD_WF_Node_ID: start, AD_WF_Next_ID: complete, SeqNo: 20, TransitionCode: 'CO' });
    await create('ad_wf_nodenext', { AD_WF_Node_ID: start, AD_WF_Next_ID: auto, SeqNo: 100 });
    await create('ad_wf_nodenext', { AD_WF_Node_ID: waitNode, AD_WF_Next_ID: complete, SeqNo: 10 });
    const r = await call(admin, 'PUT', `/api/v1/models/ad_workflow/${wf}`, { AD_WF_Node_ID: start });
    assert.equal(r.status, 200, r.text);
  });
  after(async () => {
    await server.close();
  });

  it('routes a completion by a transition condition on the grand total, read again when a condition is written', async () => {
    const before = await order(2);
    assert.ok(await waitOf(Number(before.id)), 'without a condition every completion takes the first transition coded CO');
    const [grandTotal] = await sql<{ id: number }>(`SELECT ad_column_id::int AS id FROM ad_column WHERE ad_table_id = 259 AND columnname = 'GrandTotal'`);
    const condition = await create('ad_wf_nextcondition', { AD_WF_NodeNext_ID: toWait, SeqNo: 10, AndOr: 'A', AD_Column_ID: grandTotal!.id, Operation: '>>', Value: '1000' });

    const small = await order(2);
    assert.equal(idOf(small.DocStatus), 'CO', 'GrandTotal > 1000 does not hold: (DocComplete) at once');
    assert.equal(await processOf(Number(small.id)), undefined, 'and directly, without a workflow process');
    const { orderId, body } = await waiting();
    assert.equal(idOf(body.DocStatus), 'DR');
    assert.match(String(body['doc-processmsg']), /Waiting until/);

    const raised = await call(admin, 'PUT', `/api/v1/models/ad_wf_nextcondition/${condition}`, { Value: '5000' });
    assert.equal(raised.status, 200, raised.text);
    assert.equal(idOf((await order(60)).DocStatus), 'CO', 'above the new limit only');
    assert.equal((await call(admin, 'PUT', `/api/v1/models/ad_wf_nextcondition/${condition}`, { Value: '1000' })).status, 200);
    assert.deepEqual(await processOf(orderId), { wfstate: 'OS', processed: 'N', textmsg: String(body['doc-processmsg']) });
  });

  it('refuses a condition the original cannot evaluate either, and writes nothing', async () => {
    const [grandTotal] = await sql<{ id: number }>(`SELECT ad_column_id::int AS id FROM ad_column WHERE ad_table_id = 259 AND columnname = 'GrandTotal'`);
    const bad = await create('ad_wf_nextcondition', { AD_WF_NodeNext_ID: toWait, SeqNo: 20, AndOr: 'A', AD_Column_ID: grandTotal!.id, Operation: 'SQ', Value: 'GrandTotal > 0' });
    try {
      const count = async () => (await sql<{ n: number }>('SELECT count(*)::int AS n FROM c_order'))[0]!.n;
      const before = await count();
      const r = await call(admin, 'POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ Line: 10, M_Product_ID: 126, QtyEntered: 60 }], 'doc-action': 'CO' });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.title, 'Workflow error');
      assert.match(r.body.detail, /SQL/);
      assert.equal(await count(), before);
    } finally {
      assert.equal((await call(admin, 'DELETE', `/api/v1/models/ad_wf_nextcondition/${bad}`)).status, 200);
    }
  });

  it('suspends on a wait without a user: not listed, not answered, the document action kept', async () => {
    const { orderId, wait } = await waiting();
    assert.equal(wait.wfstate, 'OS');
    assert.equal(wait.processed, 'N');
    assert.equal(wait.ad_user_id, null);
    const minutes = (Date.parse(`${wait.endwaittime!.replace(' ', 'T')}Z`) - Date.now()) / 60_000;
    assert.ok(minutes > 58 && minutes <= 60, `the wait ends in an hour (WaitTime is in minutes): ${wait.endwaittime}`);
    assert.equal(await statusOf(orderId), 'DR');
    assert.equal((await sql<{ docaction: string }>('SELECT docaction FROM c_order WHERE c_order_id = $1', [orderId]))[0]!.docaction, 'CO');
    const nodes = (await call(admin, 'GET', '/api/v1/workflow')).body.nodes as Row[];
    assert.ok(!nodes.some((n) => n.id === wait.id), 'a wait is nobody\'s node to answer');
    for (const answer of ['approve', 'acknowledge', 'setuserchoice', 'reject']) {
      const r = await call(admin, 'PUT', `/api/v1/workflow/${answer}/${wait.id}`, { value: 'x' });
      assert.equal(r.status, 400, r.text);
      assert.match(r.body.detail, /wait node \(Cool-off\).*Workflow Processor/);
    }
    assert.equal((await waitOf(orderId))!.wfstate, 'OS');
  });

  it('continues a wait once it is due, and the order completes', async () => {
    const { orderId, wait } = await waiting();
    await runProcessor();
    assert.equal((await waitOf(orderId))!.wfstate, 'OS', 'not due yet: left waiting');
    await makeDue(orderId);
    const detail = await runProcessor();
    assert.match(String(detail.statistics), /passes: [1-9]/);
    assert.equal(await statusOf(orderId), 'CO');
    const after = (await waitOf(orderId))!;
    assert.deepEqual([after.wfstate, after.processed, after.ad_user_id], ['CC', 'Y', null]);
    assert.match(String(after.textmsg), /Wait over/);
    const proc = (await processOf(orderId))!;
    assert.deepEqual([proc.wfstate, proc.processed], ['CC', 'Y']);
    const history = await sql<{ node: string; wfstate: string; updatedby: number }>(
      `SELECT n.name AS node, a.wfstate, a.updatedby::int AS updatedby FROM ad_wf_activity a JOIN ad_wf_node n ON n.ad_wf_node_id = a.ad_wf_node_id WHERE a.ad_wf_process_id = (SELECT ad_wf_process_id FROM ad_wf_activity WHERE ad_wf_activity_id = $1) ORDER BY a.ad_wf_activity_id`,
      [wait.id],
    );
    assert.deepEqual(history.map((h) => `${h.node} ${h.wfstate}`), ['(Start) CC', 'Cool-off CC', '(DocComplete) CC']);
    assert.equal(history[2]!.updatedby, 101, 'the continuation runs as the starter (GardenAdmin)');
    const logs = await call(system, 'GET', `/api/v1/servers/workflow-processor@${server.services.nodes.id}/logs`);
    assert.ok((logs.body.logs as { summary: string }[]).some((l) => /continued 1 waits/.test(l.summary)), logs.text);
  });

  it('continues a wait once when two processors race for it', async () => {
    const { orderId } = await waiting();
    await makeDue(orderId);
    const results = await Promise.all([resumeDueWaits(server.services), resumeDueWaits(server.services), resumeDueWaits(server.services)]);
    assert.equal(results.reduce((n, r) => n + r.resumed, 0), 1, JSON.stringify(results));
    assert.equal(results.reduce((n, r) => n + r.aborted, 0), 0);
    assert.equal(await statusOf(orderId), 'CO');
    const completions = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM ad_wf_activity a JOIN ad_wf_node n ON n.ad_wf_node_id = a.ad_wf_node_id WHERE a.ad_table_id = 259 AND a.record_id = $1 AND n.name = '(DocComplete)'`,
      [orderId],
    );
    assert.equal(completions[0]!.n, 1);
  });

  it('aborts a continuation that fails, with its reason, undoes what it did, and goes on with the next wait', async () => {
    const broken = await waiting();
    const fine = await waiting();
    // The order is voided meanwhile: its completion is refused when the wait is over.
    await sql(`UPDATE c_order SET docstatus = 'VO' WHERE c_order_id = $1`, [broken.orderId]);
    await makeDue(broken.orderId);
    await makeDue(fine.orderId);
    const r = await resumeDueWaits(server.services);
    assert.deepEqual(r, { resumed: 1, aborted: 1 });
    assert.equal(await statusOf(fine.orderId), 'CO');
    assert.equal(await statusOf(broken.orderId), 'VO');
    const wait = (await waitOf(broken.orderId))!;
    assert.deepEqual([wait.wfstate, wait.processed], ['CA', 'Y']);
    const proc = (await processOf(broken.orderId))!;
    assert.deepEqual([proc.wfstate, proc.processed], ['CA', 'Y']);
    assert.match(String(proc.textmsg), /VO/);
    assert.doesNotMatch(String(proc.textmsg), /SELECT|UPDATE|at .*\.js/);
    assert.equal((await sql('SELECT 1 FROM ad_wf_activity a JOIN ad_wf_node n ON n.ad_wf_node_id = a.ad_wf_node_id WHERE a.record_id = $1 AND a.ad_table_id = 259 AND n.name = $2', [broken.orderId, '(DocComplete)'])).length, 0, 'the failed node left no activity');
    assert.deepEqual(await resumeDueWaits(server.services), { resumed: 0, aborted: 0 }, 'an aborted wait is not tried again');
  });

  it('aborts a wait whose starter has no role left in the client', async () => {
    const { orderId } = await waiting();
    await makeDue(orderId);
    await sql(`UPDATE ad_user_roles SET isactive = 'N' WHERE ad_user_id = 101 AND ad_client_id = 11`);
    try {
      assert.deepEqual(await resumeDueWaits(server.services), { resumed: 0, aborted: 1 });
    } finally {
      await sql(`UPDATE ad_user_roles SET isactive = 'Y' WHERE ad_user_id = 101 AND ad_client_id = 11`);
    }
    assert.equal(await statusOf(orderId), 'DR');
    assert.match(String((await processOf(orderId))!.textmsg), /user 101\) has no active role in client 11/);
  });
});
