import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';

/** Routes beyond /models declare the query parameters they read, so none is reported as ignored. */
describe('query parameters declared by the read services', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  for (const path of [
    `/api/v1/infos/business-partner-info?$parameters=${encodeURIComponent('{"Name":"C%"}')}&$page_no=1&$orderBy=Name`,
    '/api/v1/statuslines?with_messages=true',
    '/api/v1/charts/50000?height=120&width=200&json=true',
    '/api/v1/models/c_order/102/print?$report_type=HTML',
  ]) {
    it(`GET ${path.split('?')[0]} reads its own parameters`, async () => {
      const r = await server.request('GET', path, { token });
      assert.equal(r.status, 200, r.text.slice(0, 300));
      assert.equal(r.headers.get('x-ignored-parameters'), null);
    });
  }

  it('still reports a parameter no route reads', async () => {
    const r = await server.request('GET', '/api/v1/charts/50000?json=true&colour=red', { token });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('x-ignored-parameters'), 'colour');
  });
});
