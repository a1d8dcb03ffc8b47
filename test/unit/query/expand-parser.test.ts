import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseExpand, type ExpandItem } from '../../../src/records/query/expand-parser.js';
import { parseFilter } from '../../../src/records/query/filter-parser.js';
import { assertBadRequest } from './assert-bad-request.js';

const bad = (text: string, detail: string | RegExp, sep?: string) =>
  assertBadRequest(() => (sep === undefined ? parseExpand(text) : parseExpand(text, sep)), 'Invalid $expand', detail);

describe('parseExpand: upstream examples', () => {
  it('C_OrderTax,C_OrderLine($select=Line,Linenetamt ; $top=1 ; $skip=1 ; $filter=IsActive eq true ; $orderby=Line)', () => {
    const text = 'C_OrderTax,C_OrderLine($select=Line,Linenetamt ; $top=1 ; $skip=1 ; $filter=IsActive eq true ; $orderby=Line)';
    const expected: ExpandItem[] = [
      { name: 'C_OrderTax', options: {}, raw: 'C_OrderTax' },
      {
        name: 'C_OrderLine',
        options: {
          select: ['Line', 'Linenetamt'],
          top: 1,
          skip: 1,
          filter: parseFilter('IsActive eq true'),
          orderby: [{ column: 'Line', direction: 'asc' }],
        },
        raw: 'C_OrderLine($select=Line,Linenetamt ; $top=1 ; $skip=1 ; $filter=IsActive eq true ; $orderby=Line)',
      },
    ];
    assert.deepEqual(parseExpand(text), expected);
  });

  it('C_order.salesrep_id($select=documentno)', () => {
    assert.deepEqual(parseExpand('C_order.salesrep_id($select=documentno)'), [
      { name: 'C_order', column: 'salesrep_id', options: { select: ['documentno'] }, raw: 'C_order.salesrep_id($select=documentno)' },
    ]);
  });

  it('fact_acct.record_id($select=fact_acct_id),c_invoiceline', () => {
    assert.deepEqual(parseExpand('fact_acct.record_id($select=fact_acct_id),c_invoiceline'), [
      { name: 'fact_acct', column: 'record_id', options: { select: ['fact_acct_id'] }, raw: 'fact_acct.record_id($select=fact_acct_id)' },
      { name: 'c_invoiceline', options: {}, raw: 'c_invoiceline' },
    ]);
  });

  it('AD_User($select=Name ; $expand=R_ContactInterest($select=IsActive ; $filter=IsActive eq true))', () => {
    assert.deepEqual(parseExpand('AD_User($select=Name ; $expand=R_ContactInterest($select=IsActive ; $filter=IsActive eq true))'), [
      {
        name: 'AD_User',
        options: {
          select: ['Name'],
          expand: [
            {
              name: 'R_ContactInterest',
              options: { select: ['IsActive'], filter: parseFilter('IsActive eq true') },
              raw: 'R_ContactInterest($select=IsActive ; $filter=IsActive eq true)',
            },
          ],
        },
        raw: 'AD_User($select=Name ; $expand=R_ContactInterest($select=IsActive ; $filter=IsActive eq true))',
      },
    ]);
  });

  it('m_product_category_id($select=Name,IsDefault),M_ProductPrice', () => {
    assert.deepEqual(parseExpand('m_product_category_id($select=Name,IsDefault),M_ProductPrice'), [
      { name: 'm_product_category_id', options: { select: ['Name', 'IsDefault'] }, raw: 'm_product_category_id($select=Name,IsDefault)' },
      { name: 'M_ProductPrice', options: {}, raw: 'M_ProductPrice' },
    ]);
  });

  it("AD_User($select=Name,C_Job_ID;label=Name eq '#Manager')", () => {
    assert.deepEqual(parseExpand("AD_User($select=Name,C_Job_ID;label=Name eq '#Manager')"), [
      {
        name: 'AD_User',
        options: { select: ['Name', 'C_Job_ID'], label: parseFilter("Name eq '#Manager'") },
        raw: "AD_User($select=Name,C_Job_ID;label=Name eq '#Manager')",
      },
    ]);
  });
});

describe('parseExpand: syntax', () => {
  it('ignores whitespace around items, names, options and values', () => {
    assert.deepEqual(parseExpand('  A ,\tB.C_ID  ( $top = 2 ;  $SKIP=3 ) '), [
      { name: 'A', options: {}, raw: 'A' },
      { name: 'B', column: 'C_ID', options: { top: 2, skip: 3 }, raw: 'B.C_ID  ( $top = 2 ;  $SKIP=3 )' },
    ]);
  });

  it('accepts option names in any case', () => {
    const [item] = parseExpand("X($SELECT=A;$Filter=A eq 1;$ORDERBY=A desc;$Top=0;$skip=0;LABEL=Name eq 'x';$EXPAND=Y)");
    assert.deepEqual(item!.options, {
      select: ['A'],
      filter: parseFilter('A eq 1'),
      orderby: [{ column: 'A', direction: 'desc' }],
      top: 0,
      skip: 0,
      label: parseFilter("Name eq 'x'"),
      expand: [{ name: 'Y', options: {}, raw: 'Y' }],
    });
  });

  it('does not split on commas, separators or parentheses inside quotes', () => {
    const text = "A($filter=Name eq 'x, y; (z' ; $orderby=Name),B";
    assert.deepEqual(parseExpand(text), [
      { name: 'A', options: { filter: parseFilter("Name eq 'x, y; (z'"), orderby: [{ column: 'Name', direction: 'asc' }] }, raw: "A($filter=Name eq 'x, y; (z' ; $orderby=Name)" },
      { name: 'B', options: {}, raw: 'B' },
    ]);
    const [item] = parseExpand("A($filter=Name eq 'it''s;)' or Name in ('a','b'))");
    assert.deepEqual(item!.options.filter, parseFilter("Name eq 'it''s;)' or Name in ('a','b')"));
  });

  it('keeps parenthesised filter groups together', () => {
    const [item] = parseExpand('A($filter=(X eq 1 or Y eq 2) and contains(Z,\'q\');$top=5)');
    assert.deepEqual(item!.options, { filter: parseFilter("(X eq 1 or Y eq 2) and contains(Z,'q')"), top: 5 });
  });

  it('nests several levels with siblings', () => {
    const items = parseExpand('A($expand=B($expand=C($select=X),D;$top=1),E)');
    assert.deepEqual(items, [
      {
        name: 'A',
        options: {
          expand: [
            {
              name: 'B',
              options: {
                expand: [
                  { name: 'C', options: { select: ['X'] }, raw: 'C($select=X)' },
                  { name: 'D', options: {}, raw: 'D' },
                ],
                top: 1,
              },
              raw: 'B($expand=C($select=X),D;$top=1)',
            },
            { name: 'E', options: {}, raw: 'E' },
          ],
        },
        raw: 'A($expand=B($expand=C($select=X),D;$top=1),E)',
      },
    ]);
  });

  it('uses a custom separator, also in nested expansions', () => {
    assert.deepEqual(parseExpand('A($select=X|$top=3|$expand=B($top=1|$skip=2))', '|'), [
      {
        name: 'A',
        options: { select: ['X'], top: 3, expand: [{ name: 'B', options: { top: 1, skip: 2 }, raw: 'B($top=1|$skip=2)' }] },
        raw: 'A($select=X|$top=3|$expand=B($top=1|$skip=2))',
      },
    ]);
    assert.deepEqual(parseExpand('A($top=1&&$skip=2)', '&&')[0]!.options, { top: 1, skip: 2 });
    // with another separator, ';' is just text (here inside a quoted filter value)
    assert.deepEqual(parseExpand("A($filter=N eq 'a;b'|$top=1)", '|')[0]!.options, { filter: parseFilter("N eq 'a;b'"), top: 1 });
  });
});

describe('parseExpand: errors', () => {
  it('rejects empty input, empty items and empty names', () => {
    bad('', 'The option is empty');
    bad('  ', 'The option is empty');
    bad('A,', 'Empty item at position 2');
    bad('A,,B', 'Empty item at position 2');
    bad(',A', 'Empty item at position 0');
    bad('($top=1)', 'Missing table or column name at position 0');
    bad('A($expand=)', 'In A: $expand: Empty value at position 10');
    bad('A($expand=B,)', 'In A: Empty item at position 12');
  });

  it('rejects invalid names', () => {
    bad('A.B.C', "Invalid name 'A.B.C' at position 0");
    bad('A.', "Invalid name 'A.' at position 0");
    bad('.B', "Invalid name '.B' at position 0");
    bad('1A', "Invalid name '1A'");
    bad('A B', "Invalid name 'A B'");
    bad("A'x'", "Invalid name 'A'x''");
    bad('x, A-B($top=1)', "Invalid name 'A-B' at position 3");
  });

  it('rejects unbalanced parentheses and unterminated quotes', () => {
    bad('A($top=1', "Unclosed '(' at position 1");
    bad('A($top=1))', "Unbalanced ')' at position 9");
    bad('A)', "Unbalanced ')' at position 1");
    bad("A($filter=Name eq 'x)", 'Unterminated string starting at position 18');
    bad('A($top=1)B', "Unexpected text 'B' at position 9 after the options of A");
    bad('A($top=1)($skip=1)', "Unexpected text '($skip=1)' at position 9");
    bad('A(' + '('.repeat(70) + ')'.repeat(71), 'nested too deeply');
  });

  it('rejects empty, unknown, malformed and repeated options', () => {
    bad('A()', 'In A: Empty option list at position 2');
    bad('A( )', 'In A: Empty option list at position 2');
    bad('A($top=1;)', 'In A: Empty option at position 9');
    bad('A(;$top=1)', 'In A: Empty option at position 2');
    bad('A($top)', "In A: Option '$top' at position 2 is not of the form name=value");
    bad('A($count=true)', "In A: Unknown option '$count' at position 2");
    bad('A(select=X)', "In A: Unknown option 'select' at position 2");
    bad('A($label=X)', "In A: Unknown option '$label'");
    bad('A(__proto__=1)', "In A: Unknown option '__proto__'");
    bad('A(constructor=1)', "In A: Unknown option 'constructor'");
    bad('A($top=1;$TOP=2)', "In A: Repeated option '$TOP' at position 9");
    bad('A($select=X ; $select=Y)', "In A: Repeated option '$select'");
  });

  it('rejects bad $top and $skip values', () => {
    bad('A($top=-1)', "In A: $top: '-1' is not a non-negative integer");
    bad('A($top=x)', "In A: $top: 'x' is not a non-negative integer");
    bad('A($skip=1.5)', "In A: $skip: '1.5' is not a non-negative integer");
    bad('A($skip=)', "In A: $skip: '' is not a non-negative integer");
    bad('A($top=99999999999999999999)', 'is not a non-negative integer');
  });

  it('reports errors of the inner options with the item path', () => {
    bad('A($filter=Name ne 1)', 'In A: $filter: Unsupported operator: ne at position 5');
    bad('A($select=)', 'In A: $select: The option is empty');
    bad('A($orderby=Name sideways)', "In A: $orderby: Invalid direction 'sideways'");
    bad('A($expand=B($expand=C($filter=X eq)))', 'In A > B > C: $filter: Unexpected end of input at position 4');
    bad('A($expand=B($top=x))', "In A > B: $top: 'x' is not a non-negative integer");
    bad("A(label=Name eq '#Manager' foo)", "In A: label: Unexpected token 'foo' at position 19");
    bad('A.B_ID($expand=C(x=1))', "In A.B_ID > C: Unknown option 'x' at position 17");
  });

  it('rejects unusable separators and over-long input', () => {
    bad('A', 'Unusable option separator', '');
    bad('A', 'Unusable option separator', '(');
    bad('A', 'Unusable option separator', ',');
    bad('A', 'Unusable option separator', '=');
    bad('A'.repeat(8001), 'too long');
  });
});
