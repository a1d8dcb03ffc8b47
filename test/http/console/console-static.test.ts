import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { assertError } from '../auth/auth-helpers.js';

// The console's files as the service serves them (built by `npm run build` into dist/console/),
// and what the console can do through the API with the least-privileged demo role: no more than
// that role can do without it.

describe('the web console files', () => {
  const tokens = serverWithDemoRoles();

  const assetsOf = (page: string) => [...page.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]!);

  it('serves the page without a token, asked for again every time, naming its script and style sheet', async () => {
    for (const p of ['/console', '/console/']) {
      const r = await tokens.server.request('GET', p);
      assert.equal(r.status, 200, p);
      assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(r.headers.get('cache-control'), 'no-cache');
      assert.match(r.text, /<title>Dictum console<\/title>/);
    }
    const page = (await tokens.server.request('GET', '/console')).text;
    const assets = assetsOf(page);
    assert.equal(assets.length, 2, page);
    const types: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };
    for (const a of assets) {
      const r = await tokens.server.request('GET', a);
      assert.equal(r.status, 200, a);
      assert.equal(r.headers.get('content-type'), types[a.split('.').pop()!]);
      assert.equal(r.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.ok(r.text.length > 500, a);
    }
  });

  it('answers the page for the addresses of its views, so that they open directly', async () => {
    for (const p of ['/console/tables/c_bpartner', '/console/tables/c_bpartner/118?set=x', "/console/tables/c_order?filter=DocStatus%20eq%20'CO'&page=2", '/console/jobs']) {
      const r = await tokens.server.request('GET', p);
      assert.equal(r.status, 200, p);
      assert.match(r.text, /<div id="console">/, p);
      assert.equal(r.headers.get('x-ignored-parameters'), null, p);
    }
  });

  it('answers 404 with the error body for files it does not have', async () => {
    for (const p of ['/console/assets/console-MISSING.js', '/console/assets/', '/console/assets/..%2f..%2fpackage.json', '/console/favicon.ico', '/console/index.html', '/console/tables/x.js']) {
      const r = await tokens.server.request('GET', p);
      assertError(r, 404);
      assert.doesNotMatch(r.text, /<html/i, p);
    }
  });

  it('gives no rights of its own: the API answers the least-privileged role as it always does', async () => {
    // Without a token the console's API calls are refused.
    assertError(await tokens.server.request('GET', '/api/v1/models/c_bpartner'), 401);
    // The WebService role (least privileged) is refused what the console offers to administrators.
    const ws = tokens.ws;
    assertError(await tokens.server.request('GET', '/api/v1/nodes', { token: ws }), 403);
    assertError(await tokens.server.request('POST', '/api/v1/webhooks/outbound/deliveries/1/replay', { token: ws }), 403);
    // The console's page is the same for everyone: it holds no data.
    const withToken = await tokens.server.request('GET', '/console/tables/c_bpartner', { token: ws });
    assert.equal(withToken.text, (await tokens.server.request('GET', '/console/tables/c_bpartner')).text);
  });
});
