import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { documentCalls, idOf } from './document-helpers.js';

/** A price list schema line that keeps every price as it is, with the columns given. */
const schemaLine = (schemaId: number, body: Record<string, unknown>) => ({
  M_DiscountSchema_ID: schemaId, C_ConversionType_ID: 114,
  List_Base: 'L', Std_Base: 'S', Limit_Base: 'X', List_Rounding: 'C', Std_Rounding: 'C', Limit_Rounding: 'C',
  List_AddAmt: 0, List_Discount: 0, List_MinAmt: 0, List_MaxAmt: 0, Std_AddAmt: 0, Std_Discount: 0, Std_MinAmt: 0, Std_MaxAmt: 0,
  Limit_AddAmt: 0, Limit_Discount: 0, Limit_MinAmt: 0, Limit_MaxAmt: 0,
  ...body,
});

describe('Create Price List from a base version by the discount schema lines', () => {
  const fx = serverWithDemoRoles();
  const { call, ok } = documentCalls(() => ({ server: fx.server, token: fx.admin }));
  const run = (versionId: number, params: Record<string, unknown> = {}, token = fx.admin) =>
    call('POST', '/api/v1/processes/m_pricelist-create', { 'model-name': 'm_pricelist_version', 'record-id': versionId, ...params }, token);
  const prices = async (versionId: number) => {
    const r = await ok('GET', `/api/v1/models/m_productprice?$filter=${encodeURIComponent(`M_PriceList_Version_ID eq ${versionId}`)}`);
    return Object.fromEntries((r.records as Record<string, unknown>[]).map((p) => [Number(idOf(p.M_Product_ID)), [p.PriceList, p.PriceStd, p.PriceLimit]]));
  };
  /** A wholesale price list with a version based on Standard 2003 (104) under a new schema of the lines given. */
  const version = async (lines: Record<string, unknown>[], org = 0) => {
    const schema = await ok('POST', '/api/v1/models/m_discountschema', { AD_Org_ID: org, Name: `Wholesale ${Math.random()}`, DiscountType: 'P', ValidFrom: '2003-01-01' });
    for (const l of lines) await ok('POST', '/api/v1/models/m_discountschemaline', schemaLine(schema.id, l));
    const list = await ok('POST', '/api/v1/models/m_pricelist', { AD_Org_ID: org, Name: `Wholesale ${Math.random()}`, C_Currency_ID: 100, IsSOPriceList: true, PricePrecision: 2 });
    const v = await ok('POST', '/api/v1/models/m_pricelist_version', {
      AD_Org_ID: org, M_PriceList_ID: list.id, Name: 'Wholesale 2003', ValidFrom: '2003-01-01', M_DiscountSchema_ID: schema.id, M_Pricelist_Version_Base_ID: 104,
    });
    return { listId: list.id as number, versionId: v.id as number };
  };

  it("prices a version from its base with each line's surcharge, discount, rounding and fixed prices", async () => {
    const { listId, versionId } = await version([
      { SeqNo: 10, M_Product_Category_ID: 107, List_AddAmt: 1, List_Discount: 10, List_Rounding: 'Q', Std_Base: 'L', Std_Discount: 15, Std_Rounding: 'D' },
      { SeqNo: 20, M_Product_ID: 133, Std_Base: 'F', Std_Fixed: 19.99 },
    ]);
    const r = await run(versionId, { DeleteOld: true });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.isError, false, r.text);
    // Bushes (list/std/limit 25/22/20, 25/23/20, 30/28/25): list (L + 1) × 0.9 to quarters; std L × 0.85 to dimes; limit as it was.
    const expected = { 127: [23.5, 21.3, 20], 128: [23.5, 21.3, 20], 129: [28, 25.5, 25], 133: [22, 19.99, 18] };
    assert.deepEqual(await prices(versionId), expected);

    const again = await run(versionId);
    assert.equal(again.body.isError, false, again.text);
    assert.deepEqual(await prices(versionId), expected, 'run again, the prices are replaced, not added');

    const o = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, M_PriceList_ID: listId, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 2 }] });
    const line = o.C_OrderLine[0];
    assert.deepEqual([line.PriceList, line.PriceActual, line.PriceLimit, line.LineNetAmt], [23.5, 21.3, 20, 42.6], 'orders price from the new version');
  });

  it('keeps prices of products no line selects unless DeleteOld', async () => {
    const { versionId } = await version([{ SeqNo: 10, M_Product_ID: 137, List_Rounding: 'N', Std_Rounding: 'N', Limit_Rounding: 'N' }]);
    await ok('POST', '/api/v1/models/m_productprice', { M_PriceList_Version_ID: versionId, M_Product_ID: 141, PriceList: 9, PriceStd: 8, PriceLimit: 7 });
    assert.equal((await run(versionId)).body.isError, false);
    assert.deepEqual(await prices(versionId), { 137: [8, 7.5, 6], 141: [9, 8, 7] });
    assert.equal((await run(versionId, { DeleteOld: true })).body.isError, false);
    assert.deepEqual(await prices(versionId), { 137: [8, 7.5, 6] });
  });

  it('refuses a version without schema lines and a record of another table; roles without the process or the version get nothing done', async () => {
    const { versionId } = await version([]);
    const empty = await run(versionId);
    assert.ok(empty.status === 400 || empty.body.isError === true, empty.text);
    assert.match(empty.text, /no active lines/);
    const order = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132 });
    const wrong = await call('POST', '/api/v1/processes/m_pricelist-create', { 'model-name': 'c_order', 'record-id': order.id });
    assert.ok(wrong.status === 400 || wrong.body.isError === true, wrong.text);

    const { versionId: other } = await version([{ SeqNo: 10, M_Product_ID: 137 }], 50001);
    for (const token of [fx.user, fx.ws]) {
      const denied = await run(other, { DeleteOld: true }, token);
      assert.ok(denied.status === 403 || denied.body.isError === true, denied.text);
    }
    assert.deepEqual(await prices(other), {}, 'nothing written');
  });
});
