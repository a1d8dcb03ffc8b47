import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { countingServer, describeStatements, ownStatements } from '../../helpers/counting-server.js';
import { recordStatements } from '../../helpers/statements.js';
import { idOf } from './document-helpers.js';

/**
 * The statements of a 10-line sales order created and completed in one request (the target is at
 * most 30): the count measured when this test was written, so that no change adds round trips
 * unnoticed. 23 until the document type and the period of its accounting date were read in one statement: 22.
 */
const MAX_STATEMENTS = 22;

describe('statements of a 10-line order created and completed', () => {
  const fx = countingServer();

  it(`takes at most ${MAX_STATEMENTS} statements`, async () => {
    const body = () => ({
      C_BPartner_ID: 118,
      C_DocTypeTarget_ID: 132,
      C_OrderLine: Array.from({ length: 10 }, (_, i) => ({ Line: (i + 1) * 10, M_Product_ID: 123 + i, QtyEntered: i + 1 })),
      'doc-action': 'CO',
    });
    const server = fx.server();
    const token = fx.token();
    // A first order warms the caches every later order finds warm too.
    await server.request('POST', '/api/v1/models/c_order', { token, body: body() });
    const { result, statements } = await recordStatements(server.services.db, () => server.request('POST', '/api/v1/models/c_order', { token, body: body() }));
    assert.equal(result.status, 201, result.text);
    assert.equal(idOf(result.body.DocStatus), 'CO');
    const counted = ownStatements(statements);
    process.stdout.write(`# order: ${counted.length} statements\n`);
    assert.ok(counted.length <= MAX_STATEMENTS, describeStatements(counted));
  });
});
