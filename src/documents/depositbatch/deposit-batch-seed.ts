import type { Tx } from '../../db/types.js';
import { addColumnStatement, createTableStatements, isStored } from '../../dictionary/ddl.js';
import { loadDictionary } from '../../dictionary/load.js';
import { physicalColumns } from '../../dictionary/sync.js';
import { createTableSequenceRows, FIRST_USER_ID, readSeed, seedTable } from '../../seed/bootstrap.js';
import { insertSeedRows } from '../../seed/insert-rows.js';
import { columnRow, elementIds, STANDARD } from '../../seed/spec-tables.js';
import { AMOUNT, DATE, INTEGER, LIST, SEARCH, STRING, TABLE_DIRECT, YES_NO, type ColumnSpec } from '../../seed/spec-tables.js';

const SYSTEM = { AD_Client_ID: 0, AD_Org_ID: 0, EntityType: 'D' };
/** The original's ids of the two tables. */
export const DEPOSIT_BATCH_TABLE = 200056;
export const DEPOSIT_BATCH_LINE_TABLE = 200057;
const FIRST_COLUMN_ID = 7700;
const FIRST_ELEMENT_ID = 3240;
/** Lists of the document columns: _Document Status (131), _Document Action (135). */
const DOC_STATUS_LIST = 131;
const DOC_ACTION_LIST = 135;
const BUTTON = 28;

/** Elements the data model lacked, by column name; existing elements of the same column name are used instead. */
const NEW_ELEMENTS: readonly [column: string, name: string][] = [
  ['DateDeposit', 'Deposit Date'],
  ['DepositAmt', 'Deposit Amount'],
  ['C_DepositBatchLine_ID', 'Deposit Batch Line'],
  ['C_DepositBatchLine_UU', 'C_DepositBatchLine_UU'],
];

/** The header's columns the seed's C_DepositBatch lacks (it had only Value, Name and Description). */
const HEADER_COLUMNS: readonly ColumnSpec[] = [
  { name: 'DocumentNo', reference: STRING, length: 30, mandatory: true, identifier: true },
  { name: 'C_BankAccount_ID', reference: TABLE_DIRECT, mandatory: true },
  { name: 'C_DocType_ID', reference: TABLE_DIRECT, mandatory: true },
  { name: 'C_Currency_ID', reference: TABLE_DIRECT },
  { name: 'DateDoc', reference: DATE, mandatory: true, defaultValue: '@#Date@' },
  { name: 'DateDeposit', reference: DATE, mandatory: true, defaultValue: '@#Date@' },
  { name: 'DepositAmt', reference: AMOUNT, mandatory: true, defaultValue: '0', updateable: false },
  { name: 'DocStatus', reference: LIST, referenceValue: DOC_STATUS_LIST, length: 2, mandatory: true, defaultValue: 'DR', updateable: false },
  { name: 'DocAction', reference: BUTTON, referenceValue: DOC_ACTION_LIST, length: 2, mandatory: true, defaultValue: 'CO' },
  { name: 'Processed', reference: YES_NO, mandatory: true, defaultValue: 'N', updateable: false },
  { name: 'Processing', reference: BUTTON, length: 1 },
];

const LINE_COLUMNS: readonly ColumnSpec[] = [
  { name: 'C_DepositBatch_ID', reference: TABLE_DIRECT, mandatory: true, parent: true },
  { name: 'Line', reference: INTEGER, mandatory: true, identifier: true },
  { name: 'C_Payment_ID', reference: SEARCH, mandatory: true },
  { name: 'PayAmt', reference: AMOUNT, mandatory: true, defaultValue: '0', updateable: false },
  { name: 'Processed', reference: YES_NO, mandatory: true, defaultValue: 'N', updateable: false },
  { name: 'Processing', reference: BUTTON, length: 1 },
];

/**
 * Deposit batches in the dictionary and the database: the document columns of C_DepositBatch
 * (200056, which the seed had with a name only), the table C_DepositBatchLine (200057) with the
 * original's columns, and the physical columns and table. Both tables are Client+Organization as
 * in the original; the batch's name is no longer required, its document number identifies it.
 */
export async function addDepositBatchTables(tx: Tx, now = new Date().toISOString()): Promise<void> {
  const { dict } = readSeed();
  const names = [...STANDARD.map(([c]) => c), 'C_DepositBatchLine_ID', 'C_DepositBatchLine_UU', ...HEADER_COLUMNS.map((c) => c.name), ...LINE_COLUMNS.map((c) => c.name)];
  const elements = await elementIds(tx, names, { firstElementId: FIRST_ELEMENT_ID, newElements: NEW_ELEMENTS }, now);
  const element = (column: string) => elements.get(column.toLowerCase())!;
  let next = FIRST_COLUMN_ID;
  const columns: Record<string, unknown>[] = HEADER_COLUMNS.map((c) => columnRow(c, next++, DEPOSIT_BATCH_TABLE, element(c.name)));
  for (const [column, reference, extra] of STANDARD) {
    columns.push({ ...columnRow({ name: column, reference }, next++, DEPOSIT_BATCH_LINE_TABLE, element(column)), FieldLength: 10, ...extra });
  }
  const key = columnRow({ name: 'C_DepositBatchLine_ID', reference: 13, mandatory: true, updateable: false }, next++, DEPOSIT_BATCH_LINE_TABLE, element('C_DepositBatchLine_ID'));
  columns.push({ ...key, IsKey: 'Y', FieldLength: 10 });
  columns.push(columnRow({ name: 'C_DepositBatchLine_UU', reference: STRING, length: 36, updateable: false }, next++, DEPOSIT_BATCH_LINE_TABLE, element('C_DepositBatchLine_UU')));
  for (const c of LINE_COLUMNS) columns.push(columnRow(c, next++, DEPOSIT_BATCH_LINE_TABLE, element(c.name)));

  await insertSeedRows(
    tx,
    seedTable(dict, 'AD_Table'),
    [{ AD_Table_ID: DEPOSIT_BATCH_LINE_TABLE, TableName: 'C_DepositBatchLine', Name: 'Deposit Batch Line', AccessLevel: '3', IsView: 'N', IsDeleteable: 'Y', IsHighVolume: 'N', IsChangeLog: 'N', IsSecurityEnabled: 'N', ReplicationType: 'L', ...SYSTEM }],
    now,
    { skipExisting: true },
  );
  await insertSeedRows(tx, seedTable(dict, 'AD_Column'), columns, now, { skipExisting: true });
  await tx.query(`UPDATE ad_table SET accesslevel = '3' WHERE ad_table_id = $1`, [DEPOSIT_BATCH_TABLE]);
  await tx.query(`UPDATE ad_column SET ismandatory = 'N', isidentifier = 'N', seqno = 0 WHERE ad_table_id = $1 AND lower(columnname) IN ('name', 'value')`, [DEPOSIT_BATCH_TABLE]);

  const loaded = await loadDictionary(tx);
  const header = loaded.byName.get('c_depositbatch')!;
  const present = (await physicalColumns(tx)).get('c_depositbatch');
  if (present) {
    for (const column of header.columns.filter(isStored)) if (!present.has(column.dbName)) await tx.query(addColumnStatement(header, column));
  } else {
    for (const stmt of createTableStatements(header, FIRST_USER_ID)) await tx.query(stmt);
  }
  const line = loaded.byName.get('c_depositbatchline')!;
  for (const stmt of createTableStatements(line, FIRST_USER_ID)) await tx.query(stmt);
  await createTableSequenceRows(tx, loaded, [header, line], now);
  // Existing batches (none in the demo) keep a coherent state.
  await tx.query(`UPDATE c_depositbatch SET docstatus = COALESCE(docstatus, 'DR'), docaction = COALESCE(docaction, 'CO'), processed = COALESCE(processed, 'N'), depositamt = COALESCE(depositamt, 0)`);
}
