import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';

/** A reference given by identifier matches the first identifier column, then the others, then Name. */
describe('references given by identifier', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  const order = (product: unknown) =>
    server.request('POST', '/api/v1/models/c_order', {
      token,
      body: { IsSOTrx: true, C_DocTypeTarget_ID: { identifier: 'Standard Order' }, C_BPartner_ID: { identifier: 'C&W Construction' }, C_OrderLine: [{ M_Product_ID: product, QtyEntered: 1 }] },
    });

  it('finds a product by its search key or by its name', async () => {
    for (const product of [{ identifier: 'Azalea' }, { identifier: 'Azalea Bush' }, 'Azalea Bush']) {
      const r = await order(product);
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.C_OrderLine[0].M_Product_ID.id, 128);
    }
  });

  it('answers 400 naming the column when nothing matches', async () => {
    const r = await order({ identifier: 'No such plant' });
    assert.equal(r.status, 400);
    assert.match(r.body.detail, /M_Product_ID/);
  });
});
