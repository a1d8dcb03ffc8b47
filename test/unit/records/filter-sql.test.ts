import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SqlBuilder } from '../../../src/db/sql.js';
import { ApiError } from '../../../src/errors.js';
import { filterToSql, mentionsColumn } from '../../../src/records/read/filter-sql.js';
import { parseFilter } from '../../../src/records/query/filter-parser.js';
import { fixtureDictionary } from './fixture-dictionary.js';

const dict = fixtureDictionary();
const bp = dict.byName.get('c_bpartner')!;

function render(filter: string): { text: string; values: unknown[] } {
  const sql = new SqlBuilder();
  const text = filterToSql(parseFilter(filter), bp, 'c_bpartner', sql);
  return { text, values: sql.values };
}

function rejects(filter: string, detail: RegExp): void {
  assert.throws(() => render(filter), (e: unknown) => e instanceof ApiError && e.status === 400 && detail.test(e.detail));
}

describe('filter to SQL', () => {
  it('renders comparisons with values as parameters', () => {
    const r = render("Name eq 'Joe' and SO_CreditLimit gt 100");
    assert.equal(r.text, `("c_bpartner"."name" = $1::text AND "c_bpartner"."so_creditlimit" > $2::numeric)`);
    assert.deepEqual(r.values, ['Joe', '100']);
  });

  it('maps id and uid to the key and UUID columns', () => {
    assert.equal(render('id eq 5').text, `"c_bpartner"."c_bpartner_id" = $1::bigint`);
    assert.match(render("uid eq 'abc'").text, /"c_bpartner_uu" = \$1::text/);
  });

  it('renders null comparisons, in-lists and not', () => {
    assert.equal(render('C_BP_Group_ID eq null').text, `"c_bpartner"."c_bp_group_id" IS NULL`);
    assert.equal(render('C_BP_Group_ID neq null').text, `"c_bpartner"."c_bp_group_id" IS NOT NULL`);
    const r = render('id in (1,2,3)');
    assert.equal(r.text, `"c_bpartner"."c_bpartner_id" IN ($1::bigint, $2::bigint, $3::bigint)`);
    assert.deepEqual(r.values, [1, 2, 3]);
    assert.match(render("not contains(Name,'x')").text, /^NOT \(/);
  });

  it('escapes LIKE wildcards in method values', () => {
    const r = render("contains(tolower(Name),'50%_off')");
    assert.equal(r.text, `lower("c_bpartner"."name"::text) LIKE $1 ESCAPE '\\'`);
    assert.deepEqual(r.values, ['%50\\%\\_off%']);
    assert.deepEqual(render("startswith(Name,'Ma')").values, ['Ma%']);
    assert.deepEqual(render("endswith(Name,'Inc')").values, ['%Inc']);
  });

  it('types booleans, dates and lists by column', () => {
    assert.deepEqual(render('IsActive eq true').values, ['Y']);
    assert.deepEqual(render("Created ge '2003-01-08T01:06:11Z'").values, ['2003-01-08 01:06:11']);
    assert.deepEqual(render("Birthday eq '2020-02-29'").values, ['2020-02-29 00:00:00']);
    assert.deepEqual(render("SOCreditStatus eq 'X'").values, ['X']);
  });

  it('rejects bad columns, values and operators with 400', () => {
    rejects("Nope eq 'x'", /Invalid column for filter: Nope/);
    rejects("Password eq 'x'", /Invalid column for filter: Password/);
    rejects("id eq 'abc'", /Expected an integer/);
    rejects('Name eq 5', /single quotes/);
    rejects("Created eq '2020-13-45'", /Invalid date/);
    rejects('Name gt null', /cannot be used with null/);
    rejects("'a' eq 'b'", /column/);
  });

  it('knows when a filter names IsActive', () => {
    assert.equal(mentionsColumn(parseFilter('isactive eq false'), 'isactive'), true);
    assert.equal(mentionsColumn(parseFilter("Name eq 'x'"), 'isactive'), false);
  });
});
