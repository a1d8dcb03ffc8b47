import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildDictionary } from '../../../src/dictionary/build.js';
import type { Dictionary } from '../../../src/dictionary/model.js';
import { readSeedDictionary } from '../../../src/seed/dictionary-files.js';
import type { AuthContext } from '../../../src/auth/context.js';
import { infoWindowDef } from '../../../src/infowindows/info-window.js';
import { planInfoQuery } from '../../../src/infowindows/info-query.js';
import { ApiError } from '../../../src/errors.js';

const auth: AuthContext = {
  clientId: 11, userId: 101, roleId: 102, orgId: 11, warehouseId: 103, language: 'en_US', sessionId: 1,
  userLevel: ' CO', orgIds: [0, 11], writableOrgIds: [0, 11], isClientAdministrator: true, isAccessAdvanced: true, tableRules: null,
};

const window = { ad_infowindow_id: 1, name: 'Partners', ad_table_id: 291, fromclause: 'C_BPartner b', whereclause: "b.IsSummary='N' AND b.AD_Client_ID=@#AD_Client_ID@", orderbyclause: 'b.Value', isdistinct: 'N' };
const column = (id: number, name: string, select: string, ref: number, extra: Record<string, unknown> = {}) => ({
  ad_infocolumn_id: id, name, columnname: name, selectclause: select, ad_reference_id: ref, isdisplayed: 'Y', iskey: 'N', isrange: 'N', ...extra,
});
const columns = [
  column(1, 'C_BPartner_ID', 'b.C_BPartner_ID', 13, { isdisplayed: 'N', iskey: 'Y' }),
  column(2, 'Name', 'b.Name', 10, { queryoperator: 'Like', queryfunction: 'Upper' }),
  column(3, 'C_BP_Group_ID', 'b.C_BP_Group_ID', 19, { queryoperator: '=' }),
  column(4, 'SO_CreditUsed', 'b.SO_CreditUsed', 12, { queryoperator: '>=' }),
];

describe('info window query plan', () => {
  let dict: Dictionary;
  before(() => {
    dict = buildDictionary(readSeedDictionary());
  });

  it('binds every request value and context variable as a parameter', () => {
    const evil = "x' OR '1'='1; DROP TABLE c_bpartner --";
    const plan = planInfoQuery(dict, auth, infoWindowDef(dict, window, columns), {
      parameters: [{ column: 'name', value: evil }, { column: 'C_BP_Group_ID', value: 103 }, { column: 'SO_CreditUsed', value: { from: 1, to: 2 } }],
      orderBy: [{ column: 'Name', direction: 'desc' }],
      page: 2,
      pageSize: 100,
    });
    assert.ok(!plan.page.text.includes(evil) && !plan.page.text.includes('DROP'));
    assert.ok(plan.page.values.includes(`${evil}%`), 'Like appends % to the value');
    assert.match(plan.page.text, /Upper\(\(b\.Name\)\) LIKE UPPER\(\$\d+::text\)/);
    assert.match(plan.page.text, /\(b\.C_BP_Group_ID\) = \$\d+::bigint/);
    assert.match(plan.page.text, /\(b\.SO_CreditUsed\) >= \$\d+::numeric AND \(b\.SO_CreditUsed\) <= \$\d+::numeric/);
    assert.match(plan.page.text, /b\.AD_Client_ID=\$\d+::bigint/, 'context variables become parameters');
    assert.match(plan.page.text, /"b"\."ad_client_id" IN \(0, \$\d+\)/, 'the access predicate covers the FROM table');
    assert.match(plan.page.text, /ORDER BY \(b\.Name\) DESC, "c0" LIMIT \$\d+ OFFSET \$\d+$/);
    assert.deepEqual(plan.page.values.slice(-2), [101, 100]);
    assert.deepEqual(plan.outputs.map((o) => o.name), ['C_BPartner_ID', 'Name', 'C_BP_Group_ID', 'SO_CreditUsed']);
  });

  it('refuses columns the window does not have and values of the wrong type', () => {
    const def = infoWindowDef(dict, window, columns);
    const plan = (o: Partial<Parameters<typeof planInfoQuery>[3]>) => () => planInfoQuery(dict, auth, def, { parameters: [], page: 1, pageSize: 100, ...o });
    const is400 = (e: unknown) => e instanceof ApiError && e.status === 400;
    assert.throws(plan({ parameters: [{ column: 'Password', value: 'x' }] }), is400);
    assert.throws(plan({ parameters: [{ column: 'C_BP_Group_ID', value: 'abc' }] }), is400);
    assert.throws(plan({ parameters: [{ column: 'SO_CreditUsed', value: '1e400' }] }), is400);
    assert.throws(plan({ orderBy: [{ column: 'Value', direction: 'asc' }] }), is400);
  });
});
