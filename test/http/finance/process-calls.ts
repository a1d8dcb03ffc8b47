import assert from 'node:assert/strict';
import type { TestServer } from '../../helpers/server.js';

/** Runs of a process over HTTP as a client: any answer, or one that must succeed without isError. */
export function processCalls(at: () => { server: TestServer; token: string }) {
  const run = (slug: string, body: Record<string, unknown>, token = at().token) => at().server.request('POST', `/api/v1/processes/${slug}`, { token, body });
  const runOk = async (slug: string, body: Record<string, unknown>) => {
    const r = await run(slug, body);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.isError, false, r.body.summary);
    return r.body;
  };
  return { run, runOk };
}
