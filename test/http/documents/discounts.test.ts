import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithDemoRoles } from '../../helpers/demo-roles.js';
import { documentCalls, idOf } from './document-helpers.js';
import { newCustomer } from './pricing-helpers.js';
import { recordStatements } from '../../helpers/statements.js';

// Demo prices (Standard 2003): Azalea Bush 128 list 25 / std 23 / limit 20 (category 107 Bushes);
// Patio Chair 133 list 22 / std 20 / limit 18 (category 110). Partner 118 (Joe Block) is in group 103.
describe('discount schemas and line discounts', () => {
  const fx = serverWithDemoRoles();
  const { call, ok } = documentCalls(() => ({ server: fx.server, token: fx.admin }));

  const schema = async (body: Record<string, unknown>, breaks: Record<string, unknown>[] = []) => {
    const s = await ok('POST', '/api/v1/models/m_discountschema', { ValidFrom: '2003-01-01', ...body });
    for (const b of breaks) await ok('POST', '/api/v1/models/m_discountschemabreak', { M_DiscountSchema_ID: s.id, ...b });
    return s.id as number;
  };
  const partner = (body: Record<string, unknown>) => newCustomer(ok, body);
  const line = async (bpartnerId: number, l: Record<string, unknown>) => {
    const o = await ok('POST', '/api/v1/models/c_order', { C_BPartner_ID: bpartnerId, C_DocTypeTarget_ID: 132, C_OrderLine: [l] });
    return { order: o, line: o.C_OrderLine[0] };
  };

  it('prices by quantity breaks: the first break by SeqNo that the quantity reaches, none below the lowest', async () => {
    const id = await schema({ Name: 'Bush breaks', DiscountType: 'B', CumulativeLevel: 'L' }, [
      { SeqNo: 10, BreakValue: 50, BreakDiscount: 10 },
      { SeqNo: 20, BreakValue: 10, BreakDiscount: 5 },
    ]);
    const bp = await partner({ M_DiscountSchema_ID: id });
    const below = await line(bp.id, { M_Product_ID: 128, QtyEntered: 9 });
    assert.equal(below.line.PriceEntered, 23, 'break not reached: the standard price');
    assert.equal(below.line.Discount, 8);
    const first = await line(bp.id, { M_Product_ID: 128, QtyEntered: 10 });
    assert.equal(first.line.PriceEntered, 21.85, '23 less 5%');
    assert.equal(first.line.PriceActual, 21.85);
    assert.equal(first.line.PriceList, 25, 'the list price stays');
    assert.equal(first.line.PriceLimit, 20, 'the limit price stays');
    assert.equal(first.line.Discount, 12.6, 'against the list price');
    assert.equal(first.line.LineNetAmt, 218.5);
    const top = await line(bp.id, { M_Product_ID: 128, QtyEntered: 60 });
    assert.equal(top.line.PriceActual, 20.7, '23 less 10%');
    assert.equal(top.order.TotalLines, 1242);

    const more = await ok('PUT', `/api/v1/models/c_orderline/${below.line.id}`, { QtyEntered: 50 });
    assert.equal(more.PriceActual, 20.7, 'a changed quantity reaches the higher break');
    assert.equal(more.LineNetAmt, 1035);
    const header = await ok('GET', `/api/v1/models/c_order/${below.order.id}`);
    assert.equal(header.TotalLines, 1035);
    const fewer = await ok('PUT', `/api/v1/models/c_orderline/${below.line.id}`, { QtyEntered: 2 });
    assert.equal(fewer.PriceActual, 23, 'below every break again');
    const manual = await ok('PUT', `/api/v1/models/c_orderline/${below.line.id}`, { QtyEntered: 60, PriceEntered: 22 });
    assert.equal(manual.PriceActual, 22, 'a price the caller sets with the quantity is kept');
  });

  it('breaks by product and by product category apply only to them; a value break counts quantity × price', async () => {
    const id = await schema({ Name: 'Category breaks', DiscountType: 'B', CumulativeLevel: 'L' }, [
      { SeqNo: 10, BreakValue: 1, BreakDiscount: 10, M_Product_ID: 133 },
      { SeqNo: 20, BreakValue: 1, BreakDiscount: 5, M_Product_Category_ID: 107 },
    ]);
    const bp = await partner({ M_DiscountSchema_ID: id });
    assert.equal((await line(bp.id, { M_Product_ID: 133, QtyEntered: 1 })).line.PriceActual, 18, 'the product break: 20 less 10%');
    assert.equal((await line(bp.id, { M_Product_ID: 127, QtyEntered: 1 })).line.PriceActual, 20.9, 'the category break on Rose Bush: 22 less 5%');
    assert.equal((await line(bp.id, { M_Product_ID: 137, QtyEntered: 1 })).line.PriceActual, 7.5, 'Mulch is in neither');

    const byValue = await schema({ Name: 'Value breaks', DiscountType: 'B', CumulativeLevel: 'L', IsQuantityBased: false }, [{ SeqNo: 10, BreakValue: 100, BreakDiscount: 4 }]);
    const bp2 = await partner({ M_DiscountSchema_ID: byValue });
    assert.equal((await line(bp2.id, { M_Product_ID: 128, QtyEntered: 4 })).line.PriceActual, 23, '4 × 23 = 92 does not reach 100');
    assert.equal((await line(bp2.id, { M_Product_ID: 128, QtyEntered: 5 })).line.PriceActual, 22.08, '5 × 23 = 115 reaches it: 23 less 4%');

    const fixed = await schema({ Name: 'Fixed price break', DiscountType: 'B', CumulativeLevel: 'L' }, [{ SeqNo: 10, BreakValue: 20, BreakDiscount: 0, FixedPrice: 21 }]);
    const bp3 = await partner({ M_DiscountSchema_ID: fixed });
    assert.equal((await line(bp3.id, { M_Product_ID: 128, QtyEntered: 20 })).line.PriceActual, 21, 'a break without discount gives its fixed price');

    const noLevel = await schema({ Name: 'Breaks without level', DiscountType: 'B' }, [{ SeqNo: 10, BreakValue: 1, BreakDiscount: 10 }]);
    const bp4 = await partner({ M_DiscountSchema_ID: noLevel });
    assert.equal((await line(bp4.id, { M_Product_ID: 128, QtyEntered: 5 })).line.PriceActual, 23, 'pricing applies breaks only with CumulativeLevel Line, as the original');
  });

  it("flat discounts: the schema's, or the partner's when the schema says so; the group's schema when the partner has none", async () => {
    const flat = await schema({ Name: 'Flat 5', DiscountType: 'F', FlatDiscount: 5 });
    const bp = await partner({ M_DiscountSchema_ID: flat, FlatDiscount: 8 });
    assert.equal((await line(bp.id, { M_Product_ID: 128, QtyEntered: 1 })).line.PriceActual, 21.85, "the schema's 5%, not the partner's 8%");

    const partnerFlat = await schema({ Name: 'Partner flat', DiscountType: 'F', IsBPartnerFlatDiscount: true, FlatDiscount: 5 });
    const bp2 = await partner({ M_DiscountSchema_ID: partnerFlat, FlatDiscount: 4 });
    assert.equal((await line(bp2.id, { M_Product_ID: 128, QtyEntered: 1 })).line.PriceActual, 22.08, "the partner's 4%");

    const groupBreaks = await schema({ Name: 'Group breaks', DiscountType: 'B', CumulativeLevel: 'L' }, [{ SeqNo: 10, BreakValue: 3, IsBPartnerFlatDiscount: true, BreakDiscount: 0 }]);
    const group = await ok('POST', '/api/v1/models/c_bp_group', { Value: 'disc-group', Name: 'Discount group', M_DiscountSchema_ID: groupBreaks });
    const member = await partner({ C_BP_Group_ID: group.id, FlatDiscount: 10 });
    assert.equal((await line(member.id, { M_Product_ID: 128, QtyEntered: 2 })).line.PriceActual, 23, 'the break is not reached');
    assert.equal((await line(member.id, { M_Product_ID: 128, QtyEntered: 3 })).line.PriceActual, 20.7, "the group's break gives the partner's flat 10%");
  });

  it('an entered discount sets the price from the list price, a changed price sets the discount; the limit price holds', async () => {
    await ok('PUT', '/api/v1/models/m_pricelist/101', { EnforcePriceLimit: true });
    const { order, line: l } = await line(118, { M_Product_ID: 128, QtyEntered: 2, Discount: 10 });
    assert.equal(l.PriceEntered, 22.5, '25 less 10%');
    assert.equal(l.PriceActual, 22.5);
    assert.equal(l.Discount, 10);
    assert.equal(l.LineNetAmt, 45);
    const five = await ok('PUT', `/api/v1/models/c_orderline/${l.id}`, { Discount: 5 });
    assert.equal(five.PriceActual, 23.75);
    assert.equal(five.LineNetAmt, 47.5);
    const priced = await ok('PUT', `/api/v1/models/c_orderline/${l.id}`, { PriceEntered: 21 });
    assert.equal(priced.Discount, 16, 'the price sets the discount');
    assert.equal((await ok('GET', `/api/v1/models/c_order/${order.id}`)).TotalLines, 42);

    const under = await call('PUT', `/api/v1/models/c_orderline/${l.id}`, { Discount: 50 }, fx.user);
    assert.equal(under.status, 400, under.text);
    assert.match(under.body.detail, /under the limit price 20/);
    const kept = await ok('GET', `/api/v1/models/c_orderline/${l.id}`);
    assert.equal(kept.PriceActual, 21, 'nothing written');
    assert.equal(kept.Discount, 16);

    const refusedNew = await call('POST', '/api/v1/models/c_order', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 132, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 1, Discount: 30 }] });
    assert.equal(refusedNew.status, 400, refusedNew.text);
  });

  it('discount lines on invoices as on orders', async () => {
    const flat = await schema({ Name: 'Flat 10 invoices', DiscountType: 'F', FlatDiscount: 10 });
    const bp = await partner({ M_DiscountSchema_ID: flat });
    const inv = await ok('POST', '/api/v1/models/c_invoice', { C_BPartner_ID: bp.id, C_DocTypeTarget_ID: 116, C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 2 }] });
    assert.equal(inv.C_InvoiceLine[0].PriceActual, 20.7);
    assert.equal(inv.C_InvoiceLine[0].LineNetAmt, 41.4);
  });

  it('breaks and schema lines are records of the schema; roles read and write them within their access', async () => {
    const id = await schema({ Name: 'Readable', DiscountType: 'B', CumulativeLevel: 'L' }, [{ SeqNo: 10, BreakValue: 5, BreakDiscount: 2 }]);
    const list = await call('GET', `/api/v1/models/m_discountschemabreak?$filter=${encodeURIComponent(`M_DiscountSchema_ID eq ${id}`)}`, undefined, fx.ws);
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.records.length, 1);
    assert.equal(list.body.records[0].BreakDiscount, 2);
    const dsLine = await ok('POST', '/api/v1/models/m_discountschemaline', { M_DiscountSchema_ID: id, SeqNo: 10, C_ConversionType_ID: 114, List_Base: 'L', Std_Base: 'S', Limit_Base: 'X', List_Rounding: 'C', Std_Rounding: 'C', Limit_Rounding: 'C', List_AddAmt: 0, List_Discount: 0, List_MinAmt: 0, List_MaxAmt: 0, Std_AddAmt: 0, Std_Discount: 0, Std_MinAmt: 0, Std_MaxAmt: 0, Limit_AddAmt: 0, Limit_Discount: 0, Limit_MinAmt: 0, Limit_MaxAmt: 0 });
    assert.equal(idOf(dsLine.M_DiscountSchema_ID), id);

    const foreign = await ok('POST', '/api/v1/models/m_discountschema', { AD_Org_ID: 50001, Name: 'Foreign org', DiscountType: 'F', FlatDiscount: 1, ValidFrom: '2003-01-01' });
    for (const token of [fx.user, fx.ws]) {
      const denied = await call('PUT', `/api/v1/models/m_discountschema/${foreign.id}`, { FlatDiscount: 50 }, token);
      assert.ok(denied.status === 403 || denied.status === 404, `${denied.status} ${denied.text}`);
    }
    assert.equal((await ok('GET', `/api/v1/models/m_discountschema/${foreign.id}`)).FlatDiscount, 1, 'unchanged');
  });

  it('a discount schema with breaks costs a 20-line order no more statements than no schema', async () => {
    const id = await schema({ Name: 'Statement breaks', DiscountType: 'B', CumulativeLevel: 'L' }, [
      { SeqNo: 10, BreakValue: 10, BreakDiscount: 3, M_Product_Category_ID: 107 },
      { SeqNo: 20, BreakValue: 1, BreakDiscount: 1 },
    ]);
    const withSchema = await partner({ M_DiscountSchema_ID: id, FlatDiscount: 2 });
    const without = await partner({});
    const count = async (bpartnerId: number) => {
      const products = [123, 124, 125, 127, 128, 129, 130, 133, 134, 135];
      const lines = Array.from({ length: 20 }, (_, i) => ({ M_Product_ID: products[i % 10], QtyEntered: 1 + i }));
      const { result, statements } = await recordStatements(fx.server.services.db, () => call('POST', '/api/v1/models/c_order', { C_BPartner_ID: bpartnerId, C_DocTypeTarget_ID: 132, C_OrderLine: lines, 'doc-action': 'CO' }));
      assert.equal(result.status, 201, result.text);
      return { total: result.body.TotalLines, statements: statements.map((st) => st.name ?? st.text.slice(0, 60)) };
    };
    // Caches (workflows, document types, the partners' identifiers) filled first.
    await count(without.id);
    await count(withSchema.id);
    const plain = await count(without.id);
    const discounted = await count(withSchema.id);
    assert.ok(discounted.total < plain.total, `${discounted.total} < ${plain.total}: the breaks apply`);
    assert.deepEqual(discounted.statements, plain.statements);
  });
});
