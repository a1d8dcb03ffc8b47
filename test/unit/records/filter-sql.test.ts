import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SqlBuilder } from '../../../src/db/sql.js';
import { ApiError } from '../../../src/errors.js';
import { filterToSql, mentionsColumn } from '../../../src/records/read/filter-sql.js';
import { parseFilter } from '../../../src/records/query/filter-parser.js';
import { buildDictionary } from '../../../src/dictionary/build.js';
import { col, fixtureDictionary } from './fixture-dictionary.js';

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

  it('compares one-character columns as char, so that their statistics apply', () => {
    assert.equal(render('IsActive eq true').text, `"c_bpartner"."isactive" = $1::bpchar`);
    assert.equal(render("SOCreditStatus in ('X','O')").text, `"c_bpartner"."socreditstatus" IN ($1::bpchar, $2::bpchar)`);
    assert.equal(render("Name eq 'x'").text, `"c_bpartner"."name" = $1::text`);
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

describe('filter to SQL: typing and prefix ranges', () => {
  const renderWith = (filter: string, prefixRange: boolean) => {
    const sql = new SqlBuilder();
    const text = filterToSql(parseFilter(filter), bp, 'c_bpartner', sql, { prefixRange });
    return { text, values: sql.values };
  };

  it('writes startswith as a range when the collation allows it', () => {
    const r = renderWith("startswith(Name,'Ma')", true);
    assert.equal(r.text, `("c_bpartner"."name"::text >= $1::text AND "c_bpartner"."name"::text < $2::text)`);
    assert.deepEqual(r.values, ['Ma', 'Mb']);
    const lowered = renderWith("startswith(tolower(Name),'joe')", true);
    assert.deepEqual(lowered.values, ['joe', 'jof']);
  });

  it('keeps LIKE for startswith when the collation does not allow a range, and for an empty prefix', () => {
    assert.match(renderWith("startswith(Name,'Ma')", false).text, /LIKE \$1/);
    assert.match(renderWith("startswith(Name,'')", true).text, /LIKE \$1/);
    assert.deepEqual(renderWith("contains(Name,'Ma')", true).values, ['%Ma%']);
  });

  it('compares columns of the same family and refuses others', () => {
    assert.equal(render('Created gt Birthday').text, `"c_bpartner"."created" > "c_bpartner"."birthday"`);
    assert.equal(render('C_BP_Group_ID eq id').text, `"c_bpartner"."c_bp_group_id" = "c_bpartner"."c_bpartner_id"`);
    rejects('Name eq C_BP_Group_ID', /different types/);
    rejects('IsActive eq Created', /different types/);
    assert.equal(render('tolower(Name) eq SOCreditStatus').text, `lower("c_bpartner"."name"::text) = "c_bpartner"."socreditstatus"::text`);
  });

  it('mirrors a value on the left', () => {
    assert.equal(render('100 lt SO_CreditLimit').text, `"c_bpartner"."so_creditlimit" > $1::numeric`);
    assert.equal(render('null eq C_BP_Group_ID').text, `"c_bpartner"."c_bp_group_id" IS NULL`);
  });

  it('refuses integers that do not fit and numbers with absurd precision', () => {
    rejects('id eq 12345678901234567890', /Expected an integer/);
    rejects('id eq 1.5', /Expected an integer/);
    rejects(`SO_CreditLimit eq 1${'0'.repeat(40)}`, /Expected a number/);
  });

  it('refuses text holding the NUL character, which the database cannot store', () => {
    rejects("Name eq 'a\u0000b'", /NUL/);
    rejects("contains(Name,'\u0000')", /NUL/);
    rejects("Name in ('x','\u0000')", /NUL/);
  });

  it('refuses values that are not literals', () => {
    rejects('Name in (Name)', /list of values/);
    rejects('Name in (null)', /cannot hold null/);
    rejects("contains('x',Name)", /takes a column/);
    rejects('contains(Name,5)', /quoted string/);
  });
});

describe('filter to SQL: unquoted Y and N on Yes-No columns', () => {
  it('binds a bare Y or N facing a Yes-No column as true or false, as the original does', () => {
    assert.deepEqual(render('IsActive eq Y'), { text: `"c_bpartner"."isactive" = $1::bpchar`, values: ['Y'] });
    assert.deepEqual(render('IsActive neq N').values, ['N']);
    assert.deepEqual(render('IsActive eq y').values, ['Y'], 'any case, like true and false');
    assert.deepEqual(render('N eq IsActive'), { text: `"c_bpartner"."isactive" = $1::bpchar`, values: ['N'] });
    assert.deepEqual(render('IsActive in (Y, N)'), { text: `"c_bpartner"."isactive" IN ($1::bpchar, $2::bpchar)`, values: ['Y', 'N'] });
    assert.deepEqual(render("IsActive eq Y and Name eq 'x'").values, ['Y', 'x']);
    assert.match(render('not (IsActive eq N)').text, /^NOT \(/);
  });

  it('keeps Y and N column names everywhere else: other column types, other words, wrapped columns', () => {
    rejects("Name eq Y", /Invalid column for filter: Y/);
    rejects('C_BP_Group_ID eq N', /Invalid column for filter: N/);
    rejects('IsActive eq Yes', /Invalid column for filter: Yes/);
    rejects('tolower(IsActive) eq Y', /Invalid column for filter: Y/);
    rejects('Y eq N', /Invalid column for filter: Y/);
    rejects("Name in (Y)", /list of values/);
  });

  it('compares columns when the table really has a column named Y or N', () => {
    const dict = buildDictionary({
      tables: [{ ad_table_id: 900, tablename: 'T_Flags', name: 'Flags', accesslevel: '3', isactive: 'Y' }],
      columns: [col(901, 900, 'T_Flags_ID', 13, { iskey: 'Y' }), col(902, 900, 'IsSold', 20), col(903, 900, 'N', 20), col(904, 900, 'Y', 10)],
      references: [],
      refLists: [],
      refTables: [],
      valRules: [],
    });
    const flags = dict.byName.get('t_flags')!;
    const sql = new SqlBuilder();
    assert.equal(filterToSql(parseFilter('IsSold eq N'), flags, 't', sql), `"t"."issold" = "t"."n"`);
    assert.deepEqual(sql.values, []);
    // Y names a text column here: it is compared as a column, and a Yes-No column cannot be compared with text.
    assert.throws(
      () => filterToSql(parseFilter('IsSold eq Y'), flags, 't', new SqlBuilder()),
      (e: unknown) => e instanceof ApiError && e.status === 400 && /Columns IsSold and Y have different types/.test(e.detail),
    );
  });
});
