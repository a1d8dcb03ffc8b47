/**
 * Random $parameters and $orderBy thrown at the standard info windows: every answer is a 200 or a
 * 400 with a title and detail, never a 500, and no answer shows SQL text.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';

const RUNS = Number(process.env.INFO_FUZZ_RUNS ?? 150);
const SEED = process.env.FUZZ_SEED === 'random' ? Date.now() : Number(process.env.FUZZ_SEED ?? 20261124);

const WINDOWS = ['business-partner-info', 'product-info', 'order-info', 'invoice-info', 'shipment-info', 'payment-info', 'support-users-vs-roles'];
const COLUMNS = ['Name', 'Value', 'DocumentNo', 'C_BPartner_ID', 'IsCustomer', 'DocStatus', 'GrandTotal', 'DateOrdered', 'DateInvoiced', 'AD_Role_ID', 'EMail', 'ProductType', 'M_Product_Category_ID', 'PayAmt', 'IsPaid', 'name', 'NoSuch', 'Password', "x'--", 'b.Name', '1', ''];
const SQLISH = ["'", "''", '%', '_', ';', '--', '/*', ')', '(', 'OR 1=1', "' OR '1'='1", 'DROP TABLE c_bpartner', '$1', '@#AD_Client_ID@', '\\', '\u0000', 'NULL', '1e400', '-0', '2020-02-30', '2026-01-01T10:00:00Z'];

/** Text that looks like SQL in an answer (a statement's keywords or a database message). */
const SQL_TEXT = /\bSELECT\b|\bFROM\s+[a-z_"]|\bWHERE\b|syntax error|relation "|column "/i;

const scalar = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...SQLISH), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.date({ noInvalidDate: true }).map((d) => d.toISOString()));
const value = fc.oneof(scalar, fc.tuple(scalar, scalar).map((t) => [...t]), fc.record({ from: scalar, to: scalar }), fc.record({ id: scalar }), fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 3 }), scalar, { maxKeys: 2 }));
const parameters = fc.oneof(
  fc.dictionary(fc.constantFrom(...COLUMNS), value, { maxKeys: 4 }).map((o) => JSON.stringify(o)),
  fc.string({ maxLength: 30 }),
  fc.constantFrom('{', '[]', 'null', '"x"', '{"Name":', '{"Name":{"from":1}}', '1'),
);
const orderBy = fc.oneof(
  fc.array(fc.tuple(fc.constantFrom(...COLUMNS), fc.constantFrom('', ' asc', ' desc', ' DESC', ' sideways', '; --')), { maxLength: 3 }).map((items) => items.map(([c, d]) => c + d).join(',')),
  fc.string({ maxLength: 20 }),
);

describe('info window fuzz', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('answers random $parameters and $orderBy with 200 or 400, never SQL', async () => {
    let ok = 0;
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...WINDOWS), fc.option(parameters), fc.option(orderBy), fc.option(fc.constantFrom('1', '2', '0', '-1', 'x', '99999999999')), async (slug, p, o, page) => {
        const query = [p !== null ? `$parameters=${encodeURIComponent(p)}` : '', o !== null ? `$orderBy=${encodeURIComponent(o)}` : '', page !== null ? `$page_no=${page}` : ''].filter(Boolean).join('&');
        const r = await server.request('GET', `/api/v1/infos/${slug}?${query}`, { token });
        assert.ok(r.status === 200 || r.status === 400, `${r.status} for ${slug}?${query}: ${r.text}`);
        if (r.status === 400) {
          rejected++;
          assert.equal(typeof r.body.title, 'string');
          assert.equal(typeof r.body.detail, 'string');
          assert.ok(!SQL_TEXT.test(r.text), `SQL text in ${r.text}`);
        } else {
          ok++;
          assert.ok(Array.isArray(r.body['infowindow-records']));
          assert.ok(!/\bSELECT\b|\bWHERE\b/.test(r.text), `SQL text in ${r.text.slice(0, 200)}`);
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // Both kinds of answer occur, so the property tested something on each side.
    assert.ok(ok > 10 && rejected > 10, `${ok} answered, ${rejected} refused`);
  });
});
