import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseContext } from '../../../src/records/query/context-parser.js';
import { parseOrderBy } from '../../../src/records/query/orderby-parser.js';
import { parseSkip, parseTop } from '../../../src/records/query/paging.js';
import { parseSelect } from '../../../src/records/query/select-parser.js';
import { assertBadRequest } from './assert-bad-request.js';

describe('parseOrderBy', () => {
  it('parses columns with and without a direction, any case, any whitespace', () => {
    assert.deepEqual(parseOrderBy('Line'), [{ column: 'Line', direction: 'asc' }]);
    assert.deepEqual(parseOrderBy('Name desc'), [{ column: 'Name', direction: 'desc' }]);
    assert.deepEqual(parseOrderBy(' Name DESC ,  Value  Asc,Created,\tUpdated\n desc '), [
      { column: 'Name', direction: 'desc' },
      { column: 'Value', direction: 'asc' },
      { column: 'Created', direction: 'asc' },
      { column: 'Updated', direction: 'desc' },
    ]);
  });

  it('rejects empty input and empty items', () => {
    const bad = (t: string, d: string) => assertBadRequest(() => parseOrderBy(t), 'Invalid $orderby', d);
    bad('', 'The option is empty');
    bad('  ', 'The option is empty');
    bad('Name,', 'Empty item at position 2 of the list');
    bad(',Name', 'Empty item at position 1 of the list');
    bad('Name,,Value', 'Empty item at position 2 of the list');
  });

  it('rejects bad items, naming them', () => {
    const bad = (t: string, d: string) => assertBadRequest(() => parseOrderBy(t), 'Invalid $orderby', d);
    bad('Name descending', "Invalid direction 'descending' in item 'Name descending'");
    bad('Name asc desc', "Invalid item 'Name asc desc'");
    bad('Name, 1Value', "Invalid item '1Value'");
    bad("Name; drop table x", "Invalid item 'Name; drop table x'");
    bad('tolower(Name)', "Invalid item 'tolower(Name)'");
    bad('Name ' + 'x'.repeat(9000), 'too long');
  });
});

describe('parseSelect', () => {
  it('parses, trims and removes duplicates case-insensitively keeping the first spelling', () => {
    assert.deepEqual(parseSelect('Name'), ['Name']);
    assert.deepEqual(parseSelect(' Line , Linenetamt,C_Job_ID '), ['Line', 'Linenetamt', 'C_Job_ID']);
    assert.deepEqual(parseSelect('Name,name,Value,NAME,value'), ['Name', 'Value']);
  });

  it('rejects empty input, empty items and non-identifiers', () => {
    const bad = (t: string, d: string) => assertBadRequest(() => parseSelect(t), 'Invalid $select', d);
    bad('', 'The option is empty');
    bad(' \t', 'The option is empty');
    bad('Name,', 'Empty column name at position 2 of the list');
    bad('Name,,Value', 'Empty column name at position 2 of the list');
    bad('Name Value', "Invalid column name 'Name Value'");
    bad('1Name', "Invalid column name '1Name'");
    bad("Name'", "Invalid column name 'Name''");
    bad('C_Order.Name', "Invalid column name 'C_Order.Name'");
    bad('*', "Invalid column name '*'");
    bad('x,'.repeat(5000), 'too long');
  });
});

describe('parseContext', () => {
  it('parses Name:Value pairs', () => {
    assert.deepEqual([...parseContext('AD_Client_ID:11,#AD_Org_ID:0')], [
      ['AD_Client_ID', '11'],
      ['#AD_Org_ID', '0'],
    ]);
    assert.deepEqual([...parseContext(' IsSOTrx : Y , Name:Joe Block-Jr._x ,Empty:')], [
      ['IsSOTrx', 'Y'],
      ['Name', 'Joe Block-Jr._x'],
      ['Empty', ''],
    ]);
  });

  it('lets the last of repeated names win', () => {
    assert.deepEqual([...parseContext('A:1,B:2,A:3')], [
      ['B', '2'],
      ['A', '3'],
    ]);
  });

  it('rejects malformed items, bad names and unsafe values', () => {
    const bad = (t: string, d: string) => assertBadRequest(() => parseContext(t), 'Invalid $context', d);
    bad('', 'The option is empty');
    bad('A:1,', 'Empty item at position 2 of the list');
    bad('A', "Item 'A' is not of the form Name:Value");
    bad(':1', "Invalid context name ''");
    bad('A B:1', "Invalid context name 'A B'");
    bad('A#:1', "Invalid context name 'A#'");
    bad('##A:1', "Invalid context name '##A'");
    bad("A:1' or '1'='1", "Invalid value for A: '1' or '1'='1'");
    bad('A:1;select', 'Invalid value for A');
    bad('A:x:y', "Invalid value for A: 'x:y'");
    bad('A:%', 'Invalid value for A');
    bad('A:' + '1'.repeat(8001), 'too long');
  });
});

describe('parseTop', () => {
  it('returns the default when absent', () => {
    assert.equal(parseTop(undefined, 100, 100), 100);
    assert.equal(parseTop(undefined, 100, 20), 20);
  });

  it('returns the number when within 1..max', () => {
    assert.equal(parseTop('1', 100, 100), 1);
    assert.equal(parseTop(' 50 ', 100, 100), 50);
    assert.equal(parseTop('100', 100, 100), 100);
    assert.equal(parseTop('007', 100, 100), 7);
  });

  it('turns 0 and values above the maximum into the maximum, as the original does', () => {
    assert.equal(parseTop('0', 100, 20), 100);
    assert.equal(parseTop('101', 100, 20), 100);
    assert.equal(parseTop('99999999999999999999999', 100, 20), 100);
  });

  it('rejects non-numeric and negative values', () => {
    for (const t of ['', ' ', 'abc', '-1', '1.5', '1e2', '+3', '0x10', '10 20']) {
      assertBadRequest(() => parseTop(t, 100, 100), 'Invalid $top', 'is not a non-negative integer');
    }
  });
});

describe('parseSkip', () => {
  it('returns 0 when absent and the number otherwise', () => {
    assert.equal(parseSkip(undefined), 0);
    assert.equal(parseSkip('0'), 0);
    assert.equal(parseSkip(' 25'), 25);
    assert.equal(parseSkip('9007199254740991'), 9007199254740991);
  });

  it('rejects non-numeric, negative and huge values', () => {
    for (const t of ['', 'x', '-5', '2.0', '1e3']) {
      assertBadRequest(() => parseSkip(t), 'Invalid $skip', 'is not a non-negative integer');
    }
    assertBadRequest(() => parseSkip('9007199254740993'), 'Invalid $skip', 'is too large');
  });
});
