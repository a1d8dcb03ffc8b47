import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statementName, StatementNames } from '../../../src/records/read/statements.js';
import { AliasSource, selectItems } from '../../../src/records/read/select-list.js';
import { packedSelect } from '../../../src/records/read/packed-row.js';
import { prefixUpperBound } from '../../../src/records/read/filter-sql.js';
import { fixtureDictionary } from './fixture-dictionary.js';

describe('prepared statement names', () => {
  it('gives one name per statement text, the same every time', () => {
    const a = statementName('SELECT 1 FROM x WHERE a = $1');
    const b = statementName('SELECT 1 FROM x WHERE a = $1');
    const c = statementName('SELECT 1 FROM x WHERE b = $1');
    assert.ok(a && a.startsWith('rec_'));
    assert.equal(a, b);
    assert.notEqual(a, c);
  });

  it('stops naming past its limit, and each set of names has its own limit', () => {
    const inserts = new StatementNames('ins', 2);
    const reads = new StatementNames('rec', 2);
    assert.ok(inserts.of('INSERT 1')?.startsWith('ins_'));
    assert.ok(inserts.of('INSERT 2'));
    assert.equal(inserts.of('INSERT 3'), undefined, 'a third shape runs unnamed');
    assert.ok(inserts.of('INSERT 1'), 'a shape named before keeps its name');
    assert.ok(reads.of('SELECT 1'), 'the full insert set takes nothing from the reads');
  });

  it('renders the same select list twice as the same text (no process-wide alias counter)', () => {
    const dict = fixtureDictionary();
    const order = dict.byName.get('c_order')!;
    const first = packedSelect(selectItems(dict, order, order.columns, 'c_order'));
    const second = packedSelect(selectItems(dict, order, order.columns, 'c_order'));
    assert.equal(first, second);
    assert.match(first, /\(SELECT r1\."name"::text FROM "c_bpartner" r1 WHERE r1\."c_bpartner_id" = "c_order"\."c_bpartner_id" LIMIT 1\)/);
  });

  it('numbers identifier aliases per statement', () => {
    const a = new AliasSource();
    assert.deepEqual([a.next(), a.next()], ['r1', 'r2']);
  });
});

describe('prefix upper bound', () => {
  it('increments the last character', () => {
    assert.equal(prefixUpperBound('Ma'), 'Mb');
    assert.equal(prefixUpperBound('a z'), 'a {');
    assert.equal(prefixUpperBound('é'), 'ê');
    assert.equal(prefixUpperBound(''), null);
    assert.equal(prefixUpperBound('\u{10FFFF}'), null);
  });
});
