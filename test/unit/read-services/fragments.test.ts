import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkFragment, FragmentError, fromTables } from '../../../src/sql-fragments/fragment-check.js';
import { slugify } from '../../../src/dictionary/slug.js';
import { parseInfoParameters } from '../../../src/infowindows/info-parameters.js';
import { ApiError } from '../../../src/errors.js';

describe('dictionary SQL fragments', () => {
  it('accepts read-only fragments', () => {
    for (const text of [
      "b.IsSummary='N'",
      "o.DocStatus IN ('CO','CL') AND o.AD_Client_ID=@#AD_Client_ID@",
      "EXISTS (SELECT 1 FROM C_OrderLine l WHERE l.C_Order_ID=o.C_Order_ID AND l.Description LIKE '%;--%')",
      'COALESCE(SUM(GrandTotal),0)',
      'u.Updated > now() - interval \'1 day\'',
    ]) assert.doesNotThrow(() => checkFragment(text, 'WhereClause'), text);
  });

  it('refuses separators, comments, dollar quotes, writes and server functions', () => {
    for (const text of [
      'a=1; DELETE FROM x',
      'a=1 -- x',
      'a=1 /* x */',
      'a=$$x$$',
      'a=$1',
      "a='unclosed",
      'a=(1',
      'a=1) OR (1=1',
      'EXISTS (SELECT 1 FROM x FOR UPDATE)',
      'EXISTS (SELECT 1 FROM x FOR SHARE)',
      '(SELECT pg_sleep(10)) IS NULL',
      "(SELECT lo_import('/etc/passwd')) > 0",
      "set_config('a','b',false) = 'b'",
      "nextval('x') > 0",
      'x IN (SELECT 1 INTO y)',
      "E'\\x27' = a",
      '"pg_read_file"(1) = 1',
    ]) assert.throws(() => checkFragment(text, 'WhereClause'), FragmentError, text);
  });

  it('finds the tables and aliases a FROM clause reads', () => {
    assert.deepEqual(fromTables('C_BPartner b'), [{ table: 'c_bpartner', alias: 'b' }]);
    assert.deepEqual(fromTables('M_Product'), [{ table: 'm_product', alias: 'm_product' }]);
    assert.deepEqual(fromTables('AD_User u INNER JOIN AD_User_Roles ur ON (u.AD_User_ID=ur.AD_User_ID) LEFT OUTER JOIN AD_Role AS r ON (ur.AD_Role_ID=r.AD_Role_ID), C_Order o'), [
      { table: 'ad_user', alias: 'u' },
      { table: 'ad_user_roles', alias: 'ur' },
      { table: 'ad_role', alias: 'r' },
      { table: 'c_order', alias: 'o' },
    ]);
    assert.deepEqual(fromTables('(SELECT * FROM C_Order) x JOIN C_OrderLine l ON (l.C_Order_ID = x.C_Order_ID)'), [{ table: 'c_orderline', alias: 'l' }]);
  });
});

describe('info window names and parameters', () => {
  it('slugifies names as the original does', () => {
    assert.equal(slugify('Business Partner Info'), 'business-partner-info');
    assert.equal(slugify('Support Users vs Roles'), 'support-users-vs-roles');
    assert.equal(slugify('  Ärger & Co_2 '), 'arger-co_2');
    assert.equal(slugify('C_BPartner Validate'), 'c_bpartner-validate');
  });

  it('parses values, lookups and ranges and drops empty ones', () => {
    assert.deepEqual(parseInfoParameters('{"Name":"Jo","C_BPartner_ID":{"id":118},"GrandTotal":[10,null],"DateOrdered":{"from":"2020-01-01"},"Value":"","X":null}'), [
      { column: 'Name', value: 'Jo' },
      { column: 'C_BPartner_ID', value: 118 },
      { column: 'GrandTotal', value: { from: 10, to: null } },
      { column: 'DateOrdered', value: { from: '2020-01-01', to: null } },
    ]);
    assert.deepEqual(parseInfoParameters(undefined), []);
    for (const bad of ['{', '[]', '"x"', '{"a":[1]}', '{"a":{"b":1}}', '{"a":[[1],2]}']) {
      assert.throws(() => parseInfoParameters(bad), (e: unknown) => e instanceof ApiError && e.status === 400, bad);
    }
  });
});
