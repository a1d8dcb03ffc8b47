import { buildDictionary } from '../../../src/dictionary/build.js';
import type { Dictionary } from '../../../src/dictionary/model.js';

export const col = (id: number, table: number, name: string, ref: number, extra: Record<string, unknown> = {}) => ({
  ad_column_id: id,
  ad_table_id: table,
  columnname: name,
  name,
  ad_reference_id: ref,
  fieldlength: 60,
  isactive: 'Y',
  ...extra,
});

/** A small dictionary (partner, group, order) for planner tests without a database. */
export function fixtureDictionary(): Dictionary {
  return buildDictionary({
    tables: [
      { ad_table_id: 291, tablename: 'C_BPartner', name: 'Business Partner', accesslevel: '3', isactive: 'Y' },
      { ad_table_id: 394, tablename: 'C_BP_Group', name: 'Group', accesslevel: '3', isactive: 'Y' },
      { ad_table_id: 259, tablename: 'C_Order', name: 'Order', accesslevel: '1', isactive: 'Y' },
    ],
    columns: [
      col(1, 291, 'C_BPartner_ID', 13, { iskey: 'Y' }),
      col(2, 291, 'C_BPartner_UU', 200231),
      col(3, 291, 'AD_Client_ID', 19),
      col(4, 291, 'AD_Org_ID', 19),
      col(5, 291, 'IsActive', 20),
      col(6, 291, 'Name', 10, { isidentifier: 'Y', seqno: 1 }),
      col(7, 291, 'Created', 16),
      col(8, 291, 'SO_CreditLimit', 12),
      col(9, 291, 'C_BP_Group_ID', 19),
      col(10, 291, 'Birthday', 15),
      col(11, 291, 'Password', 10, { issecure: 'Y' }),
      col(12, 291, 'SOCreditStatus', 17, { ad_reference_value_id: 289, fieldlength: 1 }),
      col(20, 394, 'C_BP_Group_ID', 13, { iskey: 'Y' }),
      col(21, 394, 'Name', 10, { isidentifier: 'Y', seqno: 1 }),
      col(30, 259, 'C_Order_ID', 13, { iskey: 'Y' }),
      col(31, 259, 'C_BPartner_ID', 30),
      col(32, 259, 'DocumentNo', 10, { isidentifier: 'Y', seqno: 1 }),
    ],
    references: [{ ad_reference_id: 289, name: 'SOCreditStatus', validationtype: 'L', isactive: 'Y' }],
    refLists: [
      { ad_ref_list_id: 1, ad_reference_id: 289, value: 'X', name: 'No Credit Check', isactive: 'Y' },
      { ad_ref_list_id: 2, ad_reference_id: 289, value: 'O', name: 'Credit OK', isactive: 'Y' },
    ],
    refTables: [],
    valRules: [],
  });
}
