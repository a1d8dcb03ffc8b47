import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { unzipSync } from 'fflate';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** Attachments and prints under /views reach the view's record as /models reaches the table's. */
describe('attachments and prints of REST view records', () => {
  const f = serverWithDemoRoles();
  const path = '/api/v1/views/salesOrders/1000022/attachments';

  it('adds, lists, reads, zips and deletes the entries of a view record, shared with /models', async () => {
    assert.deepEqual((await f.server.request('GET', path, { token: f.admin })).body, { attachments: [] });
    const created = await f.server.request('POST', path, { token: f.admin, body: { name: 'contract.txt', data: b64('signed') } });
    assert.equal(created.status, 201, created.text);
    // The same record's attachment, seen through its table.
    const viaModels = await f.server.request('GET', '/api/v1/models/c_order/1000022/attachments', { token: f.admin });
    assert.deepEqual(viaModels.body, { attachments: [{ name: 'contract.txt', contentType: 'text/plain' }] });
    const one = await f.server.request('GET', `${path}/contract.txt`, { token: f.admin });
    assert.equal(one.status, 200, one.text);
    assert.equal(one.text, 'signed');
    const zip = await f.server.request('GET', `${path}/zip?json`, { token: f.admin });
    assert.equal(zip.status, 200, zip.text);
    assert.equal(Buffer.from(unzipSync(new Uint8Array(Buffer.from(zip.body.data as string, 'base64')))['contract.txt']!).toString(), 'signed');
    const dup = await f.server.request('POST', path, { token: f.admin, body: { name: 'contract.txt', data: b64('again') } });
    assert.equal(dup.status, 409);
    assert.equal((await f.server.request('DELETE', `${path}/contract.txt`, { token: f.admin })).status, 200);
    assert.equal((await f.server.request('GET', `${path}/contract.txt`, { token: f.admin })).status, 404);
    assert.equal((await f.server.request('DELETE', `${path}/contract.txt`, { token: f.admin })).status, 404);
  });

  it('refuses records outside the view, unknown views and records, and missing fields', async () => {
    // Order 104 is a purchase order: salesOrders' where clause leaves it out.
    const outside = await f.server.request('GET', '/api/v1/views/salesOrders/104/attachments', { token: f.admin });
    assert.equal(outside.status, 404, outside.text);
    const write = await f.server.request('POST', '/api/v1/views/salesOrders/104/attachments', { token: f.admin, body: { name: 'x.txt', data: b64('x') } });
    assert.equal(write.status, 404, write.text);
    assert.deepEqual((await f.server.request('GET', '/api/v1/models/c_order/104/attachments', { token: f.admin })).body, { attachments: [] }, 'nothing written');
    assert.equal((await f.server.request('GET', '/api/v1/views/noSuchView/1000022/attachments', { token: f.admin })).status, 404);
    assert.equal((await f.server.request('GET', '/api/v1/views/salesOrders/99999999/attachments', { token: f.admin })).status, 404);
    const noName = await f.server.request('POST', path, { token: f.admin, body: { data: b64('x') } });
    assert.equal(noName.status, 400);
    assert.equal(noName.body.detail, 'name property is mandatory');
    assert.equal((await f.server.request('GET', path)).status, 401);
  });

  it('keeps writes to roles that may write the record', async () => {
    const r = await f.server.request('GET', path, { token: f.user });
    assert.equal(r.status, 200, r.text);
    const rule = await f.server.request('POST', '/api/v1/models/ad_table_access', { token: f.admin, body: { AD_Role_ID: 50004, AD_Table_ID: 259, IsReadOnly: true } });
    assert.equal(rule.status, 201, rule.text);
    const readOnly = await f.server.request('POST', path, { token: f.ws, body: { name: 'ws.txt', data: b64('x') } });
    assert.ok([403, 404].includes(readOnly.status), readOnly.text);
    assert.deepEqual((await f.server.request('GET', '/api/v1/models/c_order/1000022/attachments', { token: f.admin })).body, { attachments: [] });
  });

  it('prints a view record with its window\'s print process and archives the PDF on it', async () => {
    const pdf = await f.server.request('GET', '/api/v1/views/salesOrders/1000022/print', { token: f.admin });
    assert.equal(pdf.status, 200, pdf.text);
    assert.match(pdf.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(pdf.body.process, 'rpt-c_order');
    assert.equal(pdf.body.isError, false);
    assert.equal(Buffer.from(pdf.body.reportFile as string, 'base64').subarray(0, 5).toString(), '%PDF-');
    const [run] = (await f.server.services.db.query<{ record_id: number }>('SELECT record_id FROM ad_pinstance WHERE ad_pinstance_id = $1', [pdf.body.AD_PInstance_ID])).rows;
    assert.equal(Number(run!.record_id), 1000022, 'a recorded run on the view\'s record');
    const html = await f.server.request('GET', '/api/v1/views/salesOrders/1000022/print?$report_type=HTML', { token: f.admin });
    assert.equal(html.status, 200, html.text);
    assert.equal(html.body.reportFile, undefined);
    assert.match(Buffer.from(html.body.exportFile as string, 'base64').toString(), /<html/i);
    const archives = await f.server.request('GET', '/api/v1/views/salesOrders/1000022/archives', { token: f.admin });
    assert.deepEqual(
      archives.body.archives.map((a: { name: string; processId: number }) => [a.name, a.processId]),
      [[pdf.body.reportFileName, 110]],
      'the PDF is archived on the record, the HTML export is not',
    );
    assert.equal((await f.server.request('GET', '/api/v1/views/salesOrders/104/print', { token: f.admin })).status, 404);
    assert.equal((await f.server.request('GET', '/api/v1/views/salesOrders/1000022/print?$report_type=DOC', { token: f.admin })).status, 400);
    const partner = await f.server.request('GET', '/api/v1/views/businessPartners/118/print', { token: f.admin });
    assert.equal(partner.status, 404, 'the partner window has no print process');
    assert.equal(partner.body.title, 'No print process');
    assert.equal((await f.server.request('GET', '/api/v1/views/salesOrders/1000022/print', { token: f.ws })).status, 200, 'a role that opens the Sales Order window');
  });

  it('reads the demo view in its property names', async () => {
    const r = await f.server.request('GET', `/api/v1/views/salesOrders/1000022?$expand=customer`, { token: f.admin });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body['view-name'], 'salesOrders');
    assert.equal(typeof r.body.documentNo, 'string');
    assert.equal(r.body.IsSOTrx, undefined);
    const list = await f.server.request('GET', `/api/v1/views/salesOrders?$filter=${encodeURIComponent('documentNo eq \'800000\'')}`, { token: f.admin });
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body['row-count'], 0, 'the purchase order 800000 is not a sales order');
  });
});
