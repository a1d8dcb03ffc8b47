import type { Tx } from '../db/types.js';
import { addColumnStatement } from '../dictionary/ddl.js';
import { loadDictionary } from '../dictionary/load.js';
import { physicalColumns } from '../dictionary/sync.js';
import { readSeed, seedTable } from './bootstrap.js';
import { insertSeedRows } from './insert-rows.js';
import { deterministicUuid } from './deterministic-uuid.js';

const ACCOUNT_REFERENCE = 25;

/** Account columns of the original that period end reads and the data model lacked: [AD_Column_ID, AD_Element_ID, table, AD_Table_ID, column, name]. */
const COLUMNS: readonly [number, number, string, number, string, string][] = [
  [6600, 3000, 'C_AcctSchema_Default', 315, 'UnrealizedGain_Acct', 'Unrealized Gain Acct'],
  [6601, 3001, 'C_AcctSchema_Default', 315, 'UnrealizedLoss_Acct', 'Unrealized Loss Acct'],
  [6602, 3002, 'C_AcctSchema_GL', 266, 'RetainedEarning_Acct', 'Retained Earning Acct'],
];

/** The demo's C_AcctSchema_GL row (GardenWorld's schema 101), new: the original's id is not known here. */
const DEMO_SCHEMA_GL_ID = 1100000;

/** Processes of period end: [AD_Process_ID, Value, Name, Description, Classname]. */
export const REVALUATION_PROCESS_ID = 326;
export const YEAR_END_CLOSE_PROCESS_ID = 1100001;
/** The journal's print process (see src/print/print-processes.ts): a report without a class. */
const JOURNAL_PRINT_PROCESS_ID = 1100002;
const PROCESSES: readonly [number, string, string, string, string | null][] = [
  [REVALUATION_PROCESS_ID, 'T_InvoiceNGL', 'Invoice Not Realized Gain/Loss', 'Revalue open invoices in other currencies at a date: a GL journal of the unrealized gain and loss, reversed on the first day of the next period', 'org.compiere.process.InvoiceNGL'],
  [YEAR_END_CLOSE_PROCESS_ID, 'GL_YearEndClose', 'Year End Close', 'Move the balances of the revenue and expense accounts of a year to retained earnings by a GL journal', 'dictum.process.YearEndClose'],
  [JOURNAL_PRINT_PROCESS_ID, 'Rpt GL_Journal', 'GL Journal Print', 'The printed form of a GL journal', null],
];

/** Parameters: [AD_Process_Para_ID, AD_Process_ID, SeqNo, ColumnName, Name, AD_Reference_ID, mandatory, default]. */
const PARAMETERS: readonly [number, number, number, string, string, number, boolean, string | null][] = [
  [1100010, REVALUATION_PROCESS_ID, 10, 'C_AcctSchema_ID', 'Accounting Schema', 19, false, null],
  [1100011, REVALUATION_PROCESS_ID, 20, 'C_ConversionTypeReval_ID', 'Revaluation Conversion Type', 11, false, null],
  [1100012, REVALUATION_PROCESS_ID, 30, 'DateReval', 'Revaluation Date', 15, true, '@#Date@'],
  [1100013, REVALUATION_PROCESS_ID, 40, 'APAR', 'AP - AR', 10, false, 'A'],
  [1100014, REVALUATION_PROCESS_ID, 50, 'C_Currency_ID', 'Currency', 19, false, null],
  [1100015, REVALUATION_PROCESS_ID, 60, 'C_DocTypeReval_ID', 'Revaluation Document Type', 11, false, null],
  [1100020, YEAR_END_CLOSE_PROCESS_ID, 10, 'C_Year_ID', 'Year', 19, true, null],
  [1100021, YEAR_END_CLOSE_PROCESS_ID, 20, 'C_AcctSchema_ID', 'Accounting Schema', 19, false, null],
  [1100022, YEAR_END_CLOSE_PROCESS_ID, 30, 'DateAcct', 'Account Date', 15, false, null],
  [1100023, YEAR_END_CLOSE_PROCESS_ID, 40, 'C_DocType_ID', 'Document Type', 19, false, null],
];

/** Roles that run them: System Administrator and the demo's GardenWorld Admin. */
const ACCESS: readonly [role: number, client: number][] = [
  [0, 0],
  [102, 11],
];

/**
 * Period end: the account columns it reads (unrealized gain and loss of the schema defaults,
 * retained earnings of the schema's GL accounts) with the demo's accounts in them, and its two
 * processes (and the journal's print process) with their parameters and access.
 */
export async function addPeriodEndSeed(tx: Tx, now = new Date().toISOString()): Promise<void> {
  const { dict } = readSeed();
  const skipExisting = { skipExisting: true };
  await insertSeedRows(
    tx,
    seedTable(dict, 'AD_Element'),
    COLUMNS.map(([, element, , , column, name]) => ({ AD_Client_ID: 0, AD_Org_ID: 0, AD_Element_ID: element, ColumnName: column, Name: name, PrintName: name, EntityType: 'D' })),
    now,
    skipExisting,
  );
  await insertSeedRows(
    tx,
    seedTable(dict, 'AD_Column'),
    COLUMNS.map(([id, element, , tableId, column, name]) => ({
      AD_Client_ID: 0, AD_Org_ID: 0, AD_Column_ID: id, AD_Table_ID: tableId, AD_Element_ID: element, ColumnName: column, Name: name, AD_Reference_ID: ACCOUNT_REFERENCE,
      FieldLength: 10, IsMandatory: 'N', IsUpdateable: 'Y', IsKey: 'N', IsParent: 'N', IsIdentifier: 'N', EntityType: 'D',
    })),
    now,
    skipExisting,
  );
  const loaded = await loadDictionary(tx);
  const physical = await physicalColumns(tx);
  for (const [, , tableName, , column] of COLUMNS) {
    const table = loaded.byName.get(tableName.toLowerCase())!;
    if (!physical.get(table.dbName)?.has(column.toLowerCase())) await tx.query(addColumnStatement(table, table.byName.get(column.toLowerCase())!));
  }
  // The demo schema's accounts (the combinations of migration 110's accounts), where none is set.
  await tx.query(
    `UPDATE c_acctschema_default SET unrealizedgain_acct = COALESCE(unrealizedgain_acct, 80530), unrealizedloss_acct = COALESCE(unrealizedloss_acct, 82530)
      WHERE c_acctschema_id = 101 AND EXISTS (SELECT 1 FROM c_validcombination WHERE c_validcombination_id IN (80530, 82530) HAVING count(*) = 2)`,
  );
  await tx.query(
    `INSERT INTO c_acctschema_gl (c_acctschema_gl_id, c_acctschema_gl_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
       c_acctschema_id, usesuspensebalancing, usesuspenseerror, usecurrencybalancing, retainedearning_acct)
     SELECT $1, md5('C_AcctSchema_GL:' || $2)::uuid::text, s.ad_client_id, 0, 'Y', now(), 100, now(), 100, s.c_acctschema_id, 'N', 'N', 'N', 32900
       FROM c_acctschema s WHERE s.c_acctschema_id = 101 AND EXISTS (SELECT 1 FROM c_validcombination WHERE c_validcombination_id = 32900)
        AND NOT EXISTS (SELECT 1 FROM c_acctschema_gl g WHERE g.c_acctschema_id = s.c_acctschema_id)`,
    [DEMO_SCHEMA_GL_ID, String(DEMO_SCHEMA_GL_ID)],
  );
  await insertSeedRows(
    tx,
    seedTable(dict, 'AD_Process'),
    PROCESSES.map(([id, value, name, description, classname]) => ({
      AD_Client_ID: 0, AD_Org_ID: 0, AD_Process_ID: id, Value: value, Name: name, Description: description, Classname: classname, AccessLevel: '3',
      IsReport: id === JOURNAL_PRINT_PROCESS_ID ? 'Y' : 'N',
      AllowMultipleExecution: 'N', EntityType: 'D', IsBetaFunctionality: 'N', IsDirectPrint: 'N', ShowHelp: 'Y',
    })),
    now,
    skipExisting,
  );
  await insertSeedRows(
    tx,
    seedTable(dict, 'AD_Process_Para'),
    PARAMETERS.map(([id, process, seq, column, name, reference, mandatory, value]) => ({
      AD_Client_ID: 0, AD_Org_ID: 0, AD_Process_Para_ID: id, AD_Process_ID: process, SeqNo: seq, ColumnName: column, Name: name, AD_Reference_ID: reference,
      FieldLength: reference === 15 ? 7 : 10, IsMandatory: mandatory ? 'Y' : 'N', IsRange: 'N', IsCentrallyMaintained: 'N', DefaultValue: value,
      EntityType: 'D', IsAutocomplete: 'N', IsEncrypted: 'N', IsShowNegateButton: 'N', DateRangeOption: 'D',
    })),
    now,
    skipExisting,
  );
  const { rows } = await tx.query<{ p: number; r: number }>(
    `SELECT ad_process_id AS p, ad_role_id AS r FROM ad_process_access WHERE ad_process_id = ANY($1::bigint[])`,
    [PROCESSES.map((p) => p[0])],
  );
  const have = new Set(rows.map((r) => `${Number(r.p)}:${Number(r.r)}`));
  const access = PROCESSES.flatMap(([id]) => ACCESS.filter(([role]) => !have.has(`${id}:${role}`)).map(([role, client]) => ({
    AD_Process_ID: id, AD_Role_ID: role, AD_Client_ID: client, AD_Org_ID: 0, IsReadWrite: 'Y', AD_Process_Access_UU: deterministicUuid(`AD_Process_Access:${id}:${role}`),
  })));
  await insertSeedRows(tx, seedTable(dict, 'AD_Process_Access'), access, now);
}
