import type { Tx } from '../db/types.js';
import { loadDictionary } from '../dictionary/load.js';
import { synchroniseSchema } from '../dictionary/sync.js';
import { readSeed, seedTable } from './bootstrap.js';
import { insertSeedRows } from './insert-rows.js';

/** The original's table of the attributes a set uses (M_AttributeUse, 563), which the data model lacked. */
export const ATTRIBUTE_USE_TABLE = 563;
const UU_ELEMENT = 3100;

const TABLE_DIRECT = 19;
const NEXT_SEQNO = '@SQL=SELECT COALESCE(MAX(SeqNo),0)+10 AS DefaultValue FROM M_AttributeUse WHERE M_AttributeSet_ID=@M_AttributeSet_ID@';

/** [AD_Column_ID, ColumnName, Name, AD_Element_ID, AD_Reference_ID, FieldLength, mandatory, updateable, extra]. */
const COLUMNS: readonly [number, string, string, number, number, number, boolean, boolean, Record<string, unknown>][] = [
  [6700, 'AD_Client_ID', 'Tenant', 100, TABLE_DIRECT, 10, true, false, { DefaultValue: '@#AD_Client_ID@' }],
  [6701, 'AD_Org_ID', 'Organization', 101, TABLE_DIRECT, 10, true, false, { DefaultValue: '@#AD_Org_ID@' }],
  [6702, 'Created', 'Created', 111, 16, 7, true, false, { DefaultValue: 'SYSDATE' }],
  [6703, 'CreatedBy', 'Created By', 112, 18, 10, true, false, { AD_Reference_Value_ID: 110 }],
  [6704, 'IsActive', 'Active', 118, 20, 1, true, true, { DefaultValue: 'Y' }],
  [6705, 'M_AttributeSet_ID', 'Attribute Set', 662, TABLE_DIRECT, 10, true, false, { IsParent: 'Y' }],
  [6706, 'M_Attribute_ID', 'Attribute', 1963, TABLE_DIRECT, 10, true, false, { IsParent: 'Y', IsIdentifier: 'Y', SeqNo: 1 }],
  [6707, 'M_AttributeUse_UU', 'M_AttributeUse_UU', UU_ELEMENT, 10, 36, false, false, {}],
  [6708, 'SeqNo', 'Sequence', 177, 11, 10, true, true, { DefaultValue: NEXT_SEQNO }],
  [6709, 'Updated', 'Updated', 133, 16, 7, true, false, { DefaultValue: 'SYSDATE' }],
  [6710, 'UpdatedBy', 'Updated By', 134, 18, 10, true, false, { AD_Reference_Value_ID: 110 }],
];

/**
 * The attributes an attribute set uses (M_AttributeUse: set, attribute, sequence), as the
 * original's table 563 with its columns: the set's instance attributes and their order come from
 * it. Its dictionary rows and its physical table.
 */
export async function addAttributeUseTable(tx: Tx, now = new Date().toISOString()): Promise<void> {
  const { dict } = readSeed();
  const skip = { skipExisting: true };
  const system = { AD_Client_ID: 0, AD_Org_ID: 0, EntityType: 'D' };
  await insertSeedRows(tx, seedTable(dict, 'AD_Element'), [{ ...system, AD_Element_ID: UU_ELEMENT, ColumnName: 'M_AttributeUse_UU', Name: 'M_AttributeUse_UU', PrintName: 'M_AttributeUse_UU' }], now, skip);
  await insertSeedRows(tx, seedTable(dict, 'AD_Table'), [{
    ...system, AD_Table_ID: ATTRIBUTE_USE_TABLE, TableName: 'M_AttributeUse', Name: 'Attribute Use', AccessLevel: '3', IsView: 'N', IsDeleteable: 'Y',
    IsHighVolume: 'N', IsChangeLog: 'N', IsSecurityEnabled: 'N', ReplicationType: 'L',
  }], now, skip);
  await insertSeedRows(tx, seedTable(dict, 'AD_Column'), COLUMNS.map(([id, column, name, element, reference, length, mandatory, updateable, extra]) => ({
    ...system, AD_Column_ID: id, AD_Table_ID: ATTRIBUTE_USE_TABLE, ColumnName: column, Name: name, AD_Element_ID: element, AD_Reference_ID: reference, FieldLength: length,
    IsMandatory: mandatory ? 'Y' : 'N', IsUpdateable: updateable ? 'Y' : 'N', IsKey: 'N', IsParent: 'N', IsIdentifier: 'N', SeqNo: 0, ...extra,
  })), now, skip);
  await synchroniseSchema(tx, await loadDictionary(tx));
}
