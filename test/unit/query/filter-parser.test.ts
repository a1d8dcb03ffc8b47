import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FilterNode, Operand } from '../../../src/records/query/filter-ast.js';
import { parseFilter } from '../../../src/records/query/filter-parser.js';
import { printFilter } from '../../../src/records/query/filter-printer.js';
import { assertBadRequest } from './assert-bad-request.js';

const col = (name: string): Operand => ({ kind: 'column', name });
const str = (value: string): Operand => ({ kind: 'string', value });
const num = (raw: string): Operand => ({ kind: 'number', value: Number(raw), raw });
const bool = (value: boolean): Operand => ({ kind: 'boolean', value });
const nul: Operand = { kind: 'null' };
const lowerOf = (arg: Operand): Operand => ({ kind: 'call', name: 'tolower', arg });
const upperOf = (arg: Operand): Operand => ({ kind: 'call', name: 'toupper', arg });
const cmp = (left: Operand, op: 'eq' | 'neq' | 'gt' | 'ge' | 'lt' | 'le', right: Operand): FilterNode => ({ kind: 'compare', op, left, right });
const and = (left: FilterNode, right: FilterNode): FilterNode => ({ kind: 'and', left, right });
const or = (left: FilterNode, right: FilterNode): FilterNode => ({ kind: 'or', left, right });
const not = (expr: FilterNode): FilterNode => ({ kind: 'not', expr });

const bad = (text: string, detail?: string | RegExp) => assertBadRequest(() => parseFilter(text), 'Invalid $filter', detail);

describe('parseFilter: comparisons', () => {
  for (const op of ['eq', 'neq', 'gt', 'ge', 'lt', 'le'] as const) {
    it(`parses ${op}`, () => {
      assert.deepEqual(parseFilter(`Qty ${op} 5`), cmp(col('Qty'), op, num('5')));
    });
    it(`parses ${op} in upper case`, () => {
      assert.deepEqual(parseFilter(`Qty ${op.toUpperCase()} 5`), cmp(col('Qty'), op, num('5')));
    });
  }

  it('keeps column names as written, including id and uid', () => {
    assert.deepEqual(parseFilter('id eq 10'), cmp(col('id'), 'eq', num('10')));
    assert.deepEqual(parseFilter('uid eq \'abc\''), cmp(col('uid'), 'eq', str('abc')));
    assert.deepEqual(parseFilter('_x1 eq y_2'), cmp(col('_x1'), 'eq', col('y_2')));
  });

  it('parses a column on the right side', () => {
    assert.deepEqual(parseFilter('QtyOrdered gt QtyDelivered'), cmp(col('QtyOrdered'), 'gt', col('QtyDelivered')));
  });

  it('parses numbers: negative, decimal, keeping the raw text', () => {
    assert.deepEqual(parseFilter('A eq -3'), cmp(col('A'), 'eq', num('-3')));
    assert.deepEqual(parseFilter('A eq 4.5'), cmp(col('A'), 'eq', num('4.5')));
    assert.deepEqual(parseFilter('A eq -0.25'), cmp(col('A'), 'eq', num('-0.25')));
    const big = parseFilter('A eq 123456789012345678901234567890.000000001');
    assert.equal(big.kind, 'compare');
    if (big.kind === 'compare') assert.deepEqual(big.right, { kind: 'number', value: 1.2345678901234568e29, raw: '123456789012345678901234567890.000000001' });
  });

  it('parses true, false and null in any case', () => {
    assert.deepEqual(parseFilter('IsActive eq true'), cmp(col('IsActive'), 'eq', bool(true)));
    assert.deepEqual(parseFilter('IsActive eq FALSE'), cmp(col('IsActive'), 'eq', bool(false)));
    assert.deepEqual(parseFilter('IsActive eq True'), cmp(col('IsActive'), 'eq', bool(true)));
    assert.deepEqual(parseFilter('Description eq null'), cmp(col('Description'), 'eq', nul));
    assert.deepEqual(parseFilter('Description neq NULL'), cmp(col('Description'), 'neq', nul));
  });

  it('leaves a bare Y or N a column name: the planner reads it as a Yes-No value by the column it faces', () => {
    assert.deepEqual(parseFilter('IsSelfService eq Y'), cmp(col('IsSelfService'), 'eq', col('Y')));
    assert.deepEqual(parseFilter('N neq IsActive'), cmp(col('N'), 'neq', col('IsActive')));
    assert.deepEqual(parseFilter('IsActive in (Y,N)'), { kind: 'in', left: col('IsActive'), values: [col('Y'), col('N')] });
  });

  it('parses quoted strings with spaces, commas, parentheses, keywords and escaped quotes', () => {
    assert.deepEqual(parseFilter("Name eq 'Joe Block'"), cmp(col('Name'), 'eq', str('Joe Block')));
    assert.deepEqual(parseFilter("Name eq 'a, b (c) and d or not e'"), cmp(col('Name'), 'eq', str('a, b (c) and d or not e')));
    assert.deepEqual(parseFilter("Name eq 'O''Neil'"), cmp(col('Name'), 'eq', str("O'Neil")));
    assert.deepEqual(parseFilter("Name eq ''''"), cmp(col('Name'), 'eq', str("'")));
    assert.deepEqual(parseFilter("Name eq ''"), cmp(col('Name'), 'eq', str('')));
    assert.deepEqual(parseFilter("Name eq 'x+y%_\\'"), cmp(col('Name'), 'eq', str('x+y%_\\')));
    assert.deepEqual(parseFilter("Name eq 'ünïcödé €'"), cmp(col('Name'), 'eq', str('ünïcödé €')));
  });

  it('accepts any whitespace and no whitespace around punctuation', () => {
    assert.deepEqual(parseFilter("\t Name\neq\r\n'x'  "), cmp(col('Name'), 'eq', str('x')));
    assert.deepEqual(parseFilter("(Name eq'x')"), cmp(col('Name'), 'eq', str('x')));
    assert.deepEqual(parseFilter('Qty in(1,2)'), { kind: 'in', left: col('Qty'), values: [num('1'), num('2')] });
  });

  it('keeps date-like values as strings', () => {
    assert.deepEqual(parseFilter("DateOrdered ge '2003-01-08'"), cmp(col('DateOrdered'), 'ge', str('2003-01-08')));
  });

  it('parses tolower and toupper on either side, nested, in any case', () => {
    assert.deepEqual(parseFilter("tolower(Name) eq 'abc'"), cmp(lowerOf(col('Name')), 'eq', str('abc')));
    assert.deepEqual(parseFilter("'ABC' eq TOUPPER(Name)"), cmp(str('ABC'), 'eq', upperOf(col('Name'))));
    assert.deepEqual(parseFilter('ToLower(ToUpper(Name)) eq Value'), cmp(lowerOf(upperOf(col('Name'))), 'eq', col('Value')));
  });
});

describe('parseFilter: in-lists', () => {
  it('parses a list of strings, numbers and mixed operands', () => {
    assert.deepEqual(parseFilter("Name in ('a')"), { kind: 'in', left: col('Name'), values: [str('a')] });
    assert.deepEqual(parseFilter("X IN (1, -2.5, 'three', null, true, tolower(Y))"), {
      kind: 'in',
      left: col('X'),
      values: [num('1'), num('-2.5'), str('three'), nul, bool(true), lowerOf(col('Y'))],
    });
  });

  it('keeps commas and parentheses inside quoted list values', () => {
    assert.deepEqual(parseFilter("Name in ('a,b', '(c)')"), { kind: 'in', left: col('Name'), values: [str('a,b'), str('(c)')] });
  });

  it('rejects an empty list, a missing parenthesis, a trailing comma and an unclosed list', () => {
    bad('Name in ()', 'Empty in-list at position 8');
    bad("Name in 'a'", "Expected '(' after in at position 8");
    bad('Name in (1,)', 'Unexpected token \')\' at position 11');
    bad('Name in (1, 2', "Expected ',' or ')' in the in-list at position 13, found end of input");
    bad('Name in (1 2)', "Expected ',' or ')' in the in-list at position 11, found '2'");
  });
});

describe('parseFilter: methods', () => {
  for (const name of ['contains', 'startswith', 'endswith'] as const) {
    it(`parses ${name}`, () => {
      assert.deepEqual(parseFilter(`${name}(Name,'val')`), { kind: 'method', name, target: col('Name'), value: str('val') });
    });
    it(`parses ${name} in upper case with tolower/toupper inside`, () => {
      assert.deepEqual(parseFilter(`${name.toUpperCase()}( tolower(Name) , 'v a''l' )`), {
        kind: 'method',
        name,
        target: lowerOf(col('Name')),
        value: str("v a'l"),
      });
      assert.deepEqual(parseFilter(`${name}(toupper(Name),toupper('x'))`), {
        kind: 'method',
        name,
        target: upperOf(col('Name')),
        value: upperOf(str('x')),
      });
    });
    it(`parses not ${name}`, () => {
      assert.deepEqual(parseFilter(`not ${name}(Name,'x')`), not({ kind: 'method', name, target: col('Name'), value: str('x') }));
    });
  }

  it('treats a method name without parentheses as a column', () => {
    assert.deepEqual(parseFilter('contains eq 1'), cmp(col('contains'), 'eq', num('1')));
  });

  it('rejects bad method calls', () => {
    bad("contains(Name)", "Expected ',' between the arguments of contains at position 13, found ')'");
    bad("contains(Name,'a','b')", "Expected ')' to close contains( at position 17, found ','");
    bad("contains(Name,'a'", "Expected ')' to close contains( at position 17, found end of input");
    bad("contains(Name,'a') eq true", "Unexpected token 'eq' at position 19");
    bad("Name eq contains(Name,'a')", 'contains cannot be used as a value (at position 8)');
  });
});

describe('parseFilter: logic and precedence', () => {
  const a = cmp(col('A'), 'eq', num('1'));
  const b = cmp(col('B'), 'eq', num('2'));
  const c = cmp(col('C'), 'eq', num('3'));
  const d = cmp(col('D'), 'eq', num('4'));

  it('and binds tighter than or', () => {
    assert.deepEqual(parseFilter('A eq 1 or B eq 2 and C eq 3'), or(a, and(b, c)));
    assert.deepEqual(parseFilter('A eq 1 and B eq 2 or C eq 3'), or(and(a, b), c));
    assert.deepEqual(parseFilter('A eq 1 and B eq 2 or C eq 3 and D eq 4'), or(and(a, b), and(c, d)));
  });

  it('and / or are left-associative', () => {
    assert.deepEqual(parseFilter('A eq 1 and B eq 2 and C eq 3'), and(and(a, b), c));
    assert.deepEqual(parseFilter('A eq 1 OR B eq 2 Or C eq 3'), or(or(a, b), c));
  });

  it('parentheses group', () => {
    assert.deepEqual(parseFilter('(A eq 1 or B eq 2) and C eq 3'), and(or(a, b), c));
    assert.deepEqual(parseFilter('A eq 1 and (B eq 2 or C eq 3)'), and(a, or(b, c)));
    assert.deepEqual(parseFilter('((((A eq 1))))'), a);
  });

  it('not applies to the following unary expression', () => {
    assert.deepEqual(parseFilter('not A eq 1 and B eq 2'), and(not(a), b));
    assert.deepEqual(parseFilter('NOT (A eq 1 or B eq 2)'), not(or(a, b)));
    assert.deepEqual(parseFilter('not not A eq 1'), not(not(a)));
    assert.deepEqual(parseFilter('A eq 1 or not (B eq 2)'), or(a, not(b)));
  });
});

describe('parseFilter: upstream examples', () => {
  it("Name in ('106','PST','Exempt') AND C_Tax_ID in (106,107)", () => {
    assert.deepEqual(
      parseFilter("Name in ('106','PST','Exempt') AND C_Tax_ID in (106,107)"),
      and(
        { kind: 'in', left: col('Name'), values: [str('106'), str('PST'), str('Exempt')] },
        { kind: 'in', left: col('C_Tax_ID'), values: [num('106'), num('107')] },
      ),
    );
  });

  it("created ge '2003-01-08T01:06:11Z' and created lt '2003-01-09T23:20:21Z'", () => {
    assert.deepEqual(
      parseFilter("created ge '2003-01-08T01:06:11Z' and created lt '2003-01-09T23:20:21Z'"),
      and(cmp(col('created'), 'ge', str('2003-01-08T01:06:11Z')), cmp(col('created'), 'lt', str('2003-01-09T23:20:21Z'))),
    );
  });

  it("contains(tolower(DocumentNo),'value')", () => {
    assert.deepEqual(parseFilter("contains(tolower(DocumentNo),'value')"), {
      kind: 'method',
      name: 'contains',
      target: lowerOf(col('DocumentNo')),
      value: str('value'),
    });
  });

  it('AD_Chart_ID eq 50000 OR AD_Chart_ID eq 50001', () => {
    assert.deepEqual(
      parseFilter('AD_Chart_ID eq 50000 OR AD_Chart_ID eq 50001'),
      or(cmp(col('AD_Chart_ID'), 'eq', num('50000')), cmp(col('AD_Chart_ID'), 'eq', num('50001'))),
    );
  });

  it("EntityType neq 'D'", () => {
    assert.deepEqual(parseFilter("EntityType neq 'D'"), cmp(col('EntityType'), 'neq', str('D')));
  });

  it('IsActive eq true', () => {
    assert.deepEqual(parseFilter('IsActive eq true'), cmp(col('IsActive'), 'eq', bool(true)));
  });

  it("label filter: Name eq '#Manager'", () => {
    assert.deepEqual(parseFilter("Name eq '#Manager'", 'label'), cmp(col('Name'), 'eq', str('#Manager')));
  });
});

describe('parseFilter: errors', () => {
  it('rejects ne with the original message', () => {
    bad("Name ne 'x'", 'Unsupported operator: ne at position 5');
    bad("Name NE 'x'", 'Unsupported operator: NE');
  });

  it('rejects unknown operators and symbolic operators', () => {
    bad("Name like 'x'", 'Unsupported operator: like at position 5');
    bad("Name = 'x'", "Unexpected character '=' at position 5");
    bad("Name eq 'x' && B eq 1", "Unexpected character '&' at position 12");
    bad("Name 'x'", "Expected an operator at position 5, found ''x''");
    bad('Name', 'Expected an operator at position 4, found end of input');
    bad('Name eq', 'Unexpected end of input at position 7');
  });

  it('rejects unknown functions', () => {
    bad("substringof('a',Name) eq true", 'Unknown function: substringof at position 0');
    bad("not substringof('a',Name)", 'Unknown function: substringof at position 4');
    bad("length(Name) gt 3", 'Unknown function: length');
    bad("Name eq trim('x')", 'Unknown function: trim at position 8');
  });

  it('rejects unterminated strings', () => {
    bad("Name eq 'abc", 'Unterminated string starting at position 8');
    bad("Name eq 'it''s", 'Unterminated string starting at position 8');
    bad("'", 'Unterminated string starting at position 0');
  });

  it('rejects invalid numbers', () => {
    bad('A eq 1.', "Invalid number '1.' at position 5");
    bad('A eq 12abc', "Invalid number '12abc' at position 5");
    bad('A eq 1.2.3', "Invalid number '1.2.3' at position 5");
    bad('A eq .5', "Unexpected character '.' at position 5");
    bad('A eq - 5', "Unexpected character '-' at position 5");
    bad('A eq 1e5', "Invalid number '1e5' at position 5");
  });

  it('rejects trailing tokens and stray punctuation', () => {
    bad("Name eq 'abc' foo", "Unexpected token 'foo' at position 14");
    bad('A eq 1 B eq 2', "Unexpected token 'B' at position 7");
    bad('A eq 1)', "Unbalanced ')' at position 6");
    bad('(A eq 1', "Missing ')' for the '(' at position 0: found end of input at position 7");
    bad('(A eq 1 B', "Missing ')' for the '(' at position 0: found 'B' at position 8");
    bad(', A eq 1', "Unexpected token ',' at position 0");
    bad('A eq 1,', "Unexpected token ',' at position 6");
    bad('()', "Unexpected token ')' at position 1");
    bad('(A) eq 1', "Expected an operator at position 2, found ')'");
    bad('Name.Value eq 1', "Unexpected character '.' at position 4");
    bad('Name eq +1', "Unexpected character '+' at position 8");
    bad('Name eq "x"', "Unexpected character '\"' at position 8");
  });

  it('rejects dangling logic', () => {
    bad('A eq 1 and', 'Unexpected end of input at position 10');
    bad('A eq 1 or or B eq 2', "Unexpected keyword 'or' at position 10");
    bad('and A eq 1', "Unexpected keyword 'and' at position 0");
    bad('not', 'Unexpected end of input at position 3');
    bad('A eq not', "Unexpected keyword 'not' at position 5");
    bad('in eq 1', "Unexpected keyword 'in' at position 0");
  });

  it('rejects empty input', () => {
    bad('', 'The expression is empty');
    bad('   \n\t', 'The expression is empty');
  });

  it('rejects deep nesting instead of overflowing the stack', () => {
    bad('('.repeat(65) + 'A eq 1' + ')'.repeat(65), 'nested too deeply');
    bad('not '.repeat(65) + 'A eq 1', 'nested too deeply');
    bad('tolower('.repeat(65) + 'A' + ')'.repeat(65) + " eq 'a'", 'nested too deeply');
    bad('('.repeat(7000), 'nested too deeply');
    // 64 levels are fine
    const ok = parseFilter('('.repeat(64) + 'A eq 1' + ')'.repeat(64));
    assert.deepEqual(ok, cmp(col('A'), 'eq', num('1')));
  });

  it('rejects over-long input', () => {
    bad(`Name eq '${'x'.repeat(8000)}'`, 'too long');
    // exactly at the limit is fine
    const text = `Name eq '${'x'.repeat(8000 - 10)}'`;
    assert.equal(text.length, 8000);
    assert.equal(parseFilter(text).kind, 'compare');
  });

  it('cuts long culprits short in the detail', () => {
    const e = bad(`Name eq 'a' ${'z'.repeat(500)}`, 'Unexpected token');
    assert.ok(e.detail.length < 120, e.detail);
  });

  it('uses the given option name in the title', () => {
    assertBadRequest(() => parseFilter('Name eq', 'label'), 'Invalid label', 'Unexpected end of input');
  });
});

describe('printFilter', () => {
  it('prints with minimal parentheses and parses back', () => {
    const cases: [string, string][] = [
      ["Name in ('106','PST','Exempt') AND C_Tax_ID in (106,107)", "Name in ('106', 'PST', 'Exempt') and C_Tax_ID in (106, 107)"],
      ['(A eq 1 or B eq 2) and C eq 3', '(A eq 1 or B eq 2) and C eq 3'],
      ['A eq 1 or (B eq 2 or C eq 3)', 'A eq 1 or (B eq 2 or C eq 3)'],
      ['A eq 1 and (B eq 2 and C eq 3)', 'A eq 1 and (B eq 2 and C eq 3)'],
      ['A eq 1 and B eq 2 and C eq 3', 'A eq 1 and B eq 2 and C eq 3'],
      ['NOT (A eq 1 and B eq 2)', 'not (A eq 1 and B eq 2)'],
      ["not Contains(ToLower(Name),'it''s')", "not contains(tolower(Name), 'it''s')"],
      ['X eq NULL or Y neq TRUE', 'X eq null or Y neq true'],
      ['A eq -1.50', 'A eq -1.50'],
    ];
    for (const [input, printed] of cases) {
      const node = parseFilter(input);
      assert.equal(printFilter(node), printed);
      assert.deepEqual(parseFilter(printed), node);
    }
  });
});
