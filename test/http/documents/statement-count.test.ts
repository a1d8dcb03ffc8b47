import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { recordStatements } from '../../helpers/statements.js';
import { idOf } from './document-helpers.js';
import { countKeptIdentifierTables } from '../../../src/records/read/identifier-cache.js';

/**
 * The statements of a 10-line sales order created and completed in one request (the target is at
 * most 30): the count measured when this test was written, so that no change adds round trips
 * unnoticed.
 */
const MAX_STATEMENTS = 24;

describe('statements of a 10-line order created and completed', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = await login(server);
    // The small tables counted, so that the first order leaves their identifiers kept, as in a running service.
    await countKeptIdentifierTables(server.services.dictionary.current);
  });
  after(async () => {
    await server.close();
  });

  it(`takes at most ${MAX_STATEMENTS} statements`, async () => {
    const body = () => ({
      C_BPartner_ID: 118,
      C_DocTypeTarget_ID: 132,
      C_OrderLine: Array.from({ length: 10 }, (_, i) => ({ Line: (i + 1) * 10, M_Product_ID: 123 + i, QtyEntered: i + 1 })),
      'doc-action': 'CO',
    });
    // A first order warms the caches every later order finds warm too.
    await server.request('POST', '/api/v1/models/c_order', { token, body: body() });
    const { result, statements } = await recordStatements(server.services.db, () => server.request('POST', '/api/v1/models/c_order', { token, body: body() }));
    assert.equal(result.status, 201, result.text);
    assert.equal(idOf(result.body.DocStatus), 'CO');
    // Transaction control is not a round trip of its own here; the service's periodic expiry of
    // sessions may run while the request does and is not part of it.
    const counted = statements.filter((s) => !/^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/i.test(s.text.trim()) && !/\bad_session\b/.test(s.text));
    if (process.env.SHOW_STATEMENTS) for (const s of counted) console.log(s.name ?? '', s.text.replace(/\s+/g, ' ').slice(0, 160));
    assert.ok(counted.length <= MAX_STATEMENTS, `${counted.length} statements: ${counted.map((s) => s.name ?? s.text.replace(/\s+/g, ' ').slice(0, 50)).join(' | ')}`);
  });
});
