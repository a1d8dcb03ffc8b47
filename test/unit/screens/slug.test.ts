import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { propertyName } from '../../../src/screens/property-name.js';
import { slugify } from '../../../src/dictionary/slug.js';
import { parseTabListOptions, tabOrder } from '../../../src/screens/tab-records.js';
import { menuEntries, menuEntryAllowed } from '../../../src/screens/menu-tree.js';
import type { ScreenAccess } from '../../../src/screens/screen-access.js';

describe('screen slugs and names', () => {
  it('slugifies names as the original paths use them', () => {
    assert.equal(slugify('Bank/Cash'), 'bank-cash');
    assert.equal(slugify('Sales Order'), 'sales-order');
    assert.equal(slugify('Contact (User)'), 'contact-user');
    assert.equal(slugify('Window, Tab & Field'), 'window-tab-field');
    assert.equal(slugify('Crème brûlée_2'), 'creme-brulee_2');
    assert.equal(slugify('  --Bank Account Document--  '), 'bank-account-document');
  });
  it('writes property names with a lower-case first letter only without underscores', () => {
    assert.equal(propertyName('IsActive'), 'isActive');
    assert.equal(propertyName('Name'), 'name');
    assert.equal(propertyName('C_BPartner_ID'), 'C_BPartner_ID');
    assert.equal(propertyName('AD_Org_ID'), 'AD_Org_ID');
  });
});

describe('tab list options', () => {
  it('reads $filter, $sort_column and $page_no', () => {
    const o = parseTabListOptions({ $filter: "Name eq 'x'", $sort_column: '!Name', $page_no: '3' });
    assert.deepEqual(o.sortColumn, { column: 'Name', direction: 'desc' });
    assert.equal(o.pageNo, 3);
    assert.equal(o.filter?.kind, 'compare');
    assert.deepEqual(parseTabListOptions({}), { pageNo: 0 }, 'the first page is 0, as in the original');
    assert.deepEqual(parseTabListOptions({ $page_no: '0' }), { pageNo: 0 });
    assert.deepEqual(parseTabListOptions({ $page_no: ' 1 ' }), { pageNo: 1 }, 'the second page');
    assert.deepEqual(parseTabListOptions({ $page_no: '-3' }), { pageNo: 0 }, 'a negative page is the first');
  });
  it('refuses bad pages and sort columns with 400', () => {
    for (const q of [{ $page_no: '1.5' }, { $page_no: 'x' }, { $page_no: '1234567890' }, { $sort_column: 'Name;drop' }, { $page_no: ['1', '2'] }]) {
      assert.throws(() => parseTabListOptions(q), (e: { status?: number }) => e.status === 400, JSON.stringify(q));
    }
  });
  it('takes a plain order-by clause of the tab table and ignores anything else', () => {
    const table = { dbName: 'c_orderline', byName: new Map([['line', {}], ['name', {}]]) } as never;
    assert.deepEqual(tabOrder({ orderByClause: 'C_OrderLine.Line', table }), [{ column: 'Line', direction: 'asc' }]);
    assert.deepEqual(tabOrder({ orderByClause: 'Name DESC, Line', table }), [{ column: 'Name', direction: 'desc' }, { column: 'Line', direction: 'asc' }]);
    assert.equal(tabOrder({ orderByClause: 'C_Order.DateOrdered', table }), undefined);
    assert.equal(tabOrder({ orderByClause: 'COALESCE(Line,0)', table }), undefined);
    assert.equal(tabOrder({ orderByClause: null, table }), undefined);
  });
});

describe('menu entries', () => {
  const access: ScreenAccess = { windows: new Map([[143, true]]), processes: new Map([[136, true]]), forms: new Map(), workflows: new Map(), infoWindows: new Map(), advanced: false };
  const menu = (id: number, row: Record<string, unknown>) => [id, { row: { issummary: 'N', ...row }, record: { id, Name: `m${id}` } }] as const;
  const menus = new Map([
    menu(1, { issummary: 'Y' }),
    menu(2, { action: 'W', ad_window_id: 143 }),
    menu(3, { action: 'W', ad_window_id: 999 }),
    menu(4, { issummary: 'Y' }),
    menu(5, { action: 'X', ad_form_id: 104 }),
    menu(6, { action: 'P', ad_process_id: 136 }),
    menu(7, { action: 'T', ad_task_id: 100 }),
  ]);
  const nodes = [
    { nodeId: 1, parentId: 0, seqNo: 20 },
    { nodeId: 2, parentId: 1, seqNo: 20 },
    { nodeId: 3, parentId: 1, seqNo: 10 },
    { nodeId: 4, parentId: 0, seqNo: 10 },
    { nodeId: 5, parentId: 4, seqNo: 10 },
    { nodeId: 6, parentId: 0, seqNo: 30 },
    { nodeId: 7, parentId: 0, seqNo: 40 },
  ];
  it('keeps what the role may open and drops summaries left empty', () => {
    const out = menuEntries(nodes, menus as never, access);
    assert.deepEqual(out, [{ id: 1, Name: 'm1', entries: [{ id: 2, Name: 'm2' }] }, { id: 6, Name: 'm6' }]);
  });
  it('judges each action by its own access list', () => {
    assert.equal(menuEntryAllowed({ action: 'R', ad_process_id: 136 }, access), true);
    assert.equal(menuEntryAllowed({ action: 'I', ad_infowindow_id: 1 }, access), false);
    assert.equal(menuEntryAllowed({ action: 'T' }, access), false);
  });
});
