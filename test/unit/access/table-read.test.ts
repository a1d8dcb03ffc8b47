import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { tableAccessAllowed, tableReadable } from '../../../src/access/access.js';
import type { AuthContext, TableRules } from '../../../src/auth/context.js';
import type { Table } from '../../../src/dictionary/model.js';

const table = (id: number, dbName: string, accessLevel: string): Table => ({ id, dbName, name: dbName, accessLevel }) as unknown as Table;
const role = (userLevel: string, tableRules: TableRules | null = null): AuthContext => ({ userLevel, tableRules }) as unknown as AuthContext;

describe('reading tables', () => {
  it('does not limit reading by the access level: every level is readable by every user level', () => {
    for (const level of ['1', '2', '3', '4', '6', '7']) {
      for (const userLevel of ['S  ', ' C ', '  O', ' CO', 'SCO']) {
        assert.equal(tableReadable(role(userLevel), table(100, 'ad_table', level)), true, `${userLevel} reads level ${level}`);
      }
    }
  });

  it('keeps the level for writing', () => {
    assert.equal(tableAccessAllowed(' CO', '4'), false);
    assert.equal(tableAccessAllowed('  O', '2'), false);
    assert.equal(tableAccessAllowed('S  ', '4'), true);
  });

  it("keeps the service's internal tables to the user levels that reach them", () => {
    for (const name of ['rest_mail', 'rest_passwordreset', 'rest_upload', 'rest_uploadchunk', 'rest_signingkey', 'ad_clusternode']) {
      assert.equal(tableReadable(role(' CO'), table(1, name, '4')), false, name);
      assert.equal(tableReadable(role('S  '), table(1, name, '4')), true, name);
    }
  });

  it('lets table access rules close a table for reading', () => {
    const exclude: TableRules = { hasInclude: false, byTable: new Map([[100, { exclude: true, readOnly: false }]]) };
    assert.equal(tableReadable(role(' CO', exclude), table(100, 'ad_table', '4')), false);
    assert.equal(tableReadable(role(' CO', exclude), table(101, 'ad_column', '4')), true);
    const include: TableRules = { hasInclude: true, byTable: new Map([[259, { exclude: false, readOnly: true }]]) };
    assert.equal(tableReadable(role(' CO', include), table(100, 'ad_table', '4')), false, 'only included tables are open');
    assert.equal(tableReadable(role(' CO', include), table(259, 'c_order', '1')), true);
  });
});
