import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fromViewBody, mapFilter, rewriteViewQuery, setPath, toViewRecord } from '../../../src/views/view-mapping.js';
import type { RestView } from '../../../src/views/view-model.js';
import { parseFilter } from '../../../src/records/query/filter-parser.js';

const col = (name: string) => ({ name, dbName: name.toLowerCase() });
const view = {
  id: 1,
  uid: null,
  name: 'users',
  table: { modelName: 'ad_user' },
  whereClause: null,
  related: [],
  columns: [
    { id: 1, uid: null, name: 'name', column: col('Name'), referenceViewId: null },
    { id: 2, uid: null, name: 'contact.phone', column: col('Phone'), referenceViewId: null },
    { id: 3, uid: null, name: 'contact.fax', column: col('Fax'), referenceViewId: null },
    { id: 4, uid: null, name: 'active', column: col('IsActive'), referenceViewId: null },
  ],
} as unknown as RestView;

describe('view mapping', () => {
  it('renames and nests properties, then adds model-name and view-name', () => {
    const out = toViewRecord(view, { id: 7, uid: 'u', Name: 'A', Phone: '1', IsActive: true, Description: 'not in the view', 'model-name': 'ad_user' });
    assert.deepEqual(out, { id: 7, uid: 'u', name: 'A', contact: { phone: '1' }, active: true, 'model-name': 'ad_user', 'view-name': 'users' });
  });
  it('flattens nested bodies back to column names and refuses unknown properties', () => {
    assert.deepEqual(fromViewBody(view, { id: 7, name: 'B', contact: { phone: '2', fax: '3' } }), { id: 7, Name: 'B', Phone: '2', Fax: '3' });
    assert.deepEqual(fromViewBody(view, { 'contact.phone': '2' }), { Phone: '2' });
    assert.throws(() => fromViewBody(view, { Description: 'x' }), (e: { status?: number; detail?: string }) => e.status === 400 && /Description/.test(e.detail ?? ''));
    assert.throws(() => fromViewBody(view, { contact: { mobile: '1' } }), (e: { detail?: string }) => /contact\.mobile/.test(e.detail ?? ''));
  });
  it('sets values at dotted paths', () => {
    const o = {};
    setPath(o, 'a.b.c', 1);
    setPath(o, 'a.d', 2);
    assert.deepEqual(o, { a: { b: { c: 1 }, d: 2 } });
  });
  it('maps filters and query options to column names', () => {
    const f = mapFilter(view, parseFilter("name eq 'x' and active eq true and id gt 3"));
    assert.equal(JSON.stringify(f).includes('"IsActive"'), true);
    assert.equal(JSON.stringify(f).includes('"Name"'), true);
    assert.equal(JSON.stringify(f).includes('"id"'), true);
    assert.throws(() => mapFilter(view, parseFilter("Description eq 'x'")), (e: { status?: number }) => e.status === 400);
    assert.deepEqual(rewriteViewQuery(view, { $select: 'name, contact.phone', $orderby: 'contact.fax desc,name', $top: '3' }), { $select: 'Name,Phone', $orderby: 'Fax desc,Name', $top: '3' });
  });
});
