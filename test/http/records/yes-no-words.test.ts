import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';

const q = (s: string) => encodeURIComponent(s);
const ids = (records: { id: number }[]) => records.map((r) => r.id).sort((a, b) => a - b);

describe('$filter: an unquoted Y or N on a Yes-No column', () => {
  const t = serverWithDemoRoles();
  const get = (token: string, path: string) => t.server.request('GET', path, { token });
  const partners = async (token: string, filter: string) => {
    const r = await get(token, `/api/v1/models/c_bpartner?$top=100&$filter=${q(filter)}`);
    assert.equal(r.status, 200, `${filter}: ${r.text}`);
    return ids(r.body.records);
  };

  it('reads Y as true and N as false, as the original binds them', async () => {
    const customers = await partners(t.admin, 'IsCustomer eq true');
    const others = await partners(t.admin, 'IsCustomer eq false');
    assert.ok(customers.length > 0 && others.length > 0, 'the demo company has customers and partners that are not');
    assert.deepEqual(await partners(t.admin, 'IsCustomer eq Y'), customers);
    assert.deepEqual(await partners(t.admin, 'IsCustomer eq N'), others);
    assert.deepEqual(await partners(t.admin, 'IsCustomer neq N'), customers);
    assert.deepEqual(await partners(t.admin, 'Y eq IsCustomer'), customers);
    assert.deepEqual(await partners(t.admin, 'IsCustomer in (Y, N)'), ids([...customers, ...others].map((id) => ({ id }))));
    assert.deepEqual(await partners(t.admin, 'IsCustomer eq Y and IsVendor eq N'), await partners(t.admin, 'IsCustomer eq true and IsVendor eq false'));
  });

  it('answers the issue example for every demo role', async () => {
    for (const token of [t.admin, t.user, t.ws]) {
      const words = await get(token, `/api/v1/models/m_product?$filter=${q('IsSelfService eq Y')}`);
      assert.equal(words.status, 200, words.text);
      const literal = await get(token, `/api/v1/models/m_product?$filter=${q('IsSelfService eq true')}`);
      assert.ok(words.body['row-count'] > 0);
      assert.equal(words.body['row-count'], literal.body['row-count']);
      assert.deepEqual(ids(words.body.records), ids(literal.body.records));
    }
  });

  it('applies the same reading in window record lists', async () => {
    const all = await get(t.admin, '/api/v1/windows/bank-cash');
    assert.equal(all.status, 200, all.text);
    const own = await get(t.admin, `/api/v1/windows/bank-cash?$filter=${q('IsOwnBank eq Y')}`);
    assert.equal(own.status, 200, own.text);
    const notOwn = await get(t.admin, `/api/v1/windows/bank-cash?$filter=${q('IsOwnBank eq N')}`);
    assert.equal(notOwn.status, 200, notOwn.text);
    assert.deepEqual(own.body['window-records'].map((r: { isOwnBank: boolean }) => r.isOwnBank), own.body['window-records'].map(() => true));
    assert.equal(own.body['row-count'] + notOwn.body['row-count'], all.body['row-count']);
  });

  it('keeps a bare word a column name elsewhere: 400 naming it', async () => {
    for (const filter of ['Name eq Y', 'C_BP_Group_ID eq N', 'IsCustomer eq Yes', 'tolower(IsCustomer) eq Y']) {
      const r = await get(t.ws, `/api/v1/models/c_bpartner?$filter=${q(filter)}`);
      assert.equal(r.status, 400, `${filter}: ${r.text}`);
      assert.equal(r.body.title, 'Invalid $filter');
      assert.match(r.body.detail, /^Invalid column for filter: (Y|N|Yes)$/);
    }
  });
});
