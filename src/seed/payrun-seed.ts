import type { Tx } from '../db/types.js';
import { readSeed, seedTable } from './bootstrap.js';
import { insertSeedRows } from './insert-rows.js';
import { deterministicUuid } from './deterministic-uuid.js';

type SeedRow = Record<string, unknown>;

const DEMO_CLIENT = 11;
/** The demo role that runs the payment and dunning processes: GardenWorld Admin (the accounting of the demo company). */
const PROCESS_ROLES = [102];

const LIST = 17;
const TABLE_DIRECT = 19;
const SEARCH = 30;
const DATE = 15;
const YES_NO = 20;
/** The original's list of payment rules (_Payment Rule). */
const PAYMENT_RULES = 195;

interface ProcessSeed {
  id: number;
  value: string;
  name: string;
  description: string;
  classname: string;
  isReport?: boolean;
  params: [id: number, column: string, name: string, reference: number, referenceValue?: number | null, defaultValue?: string | null][];
}

/** Inserts processes with their parameters and the demo roles' access, skipping those already there. */
export async function addProcesses(tx: Tx, processes: readonly ProcessSeed[], now: string): Promise<void> {
  const { dict } = readSeed();
  const skip = { skipExisting: true };
  await insertSeedRows(
    tx,
    seedTable(dict, 'AD_Process'),
    processes.map((p) => ({
      AD_Process_ID: p.id, AD_Client_ID: 0, AD_Org_ID: 0, Value: p.value, Name: p.name, Description: p.description, Classname: p.classname,
      IsReport: p.isReport ? 'Y' : 'N', AccessLevel: '3', AllowMultipleExecution: 'P', EntityType: 'D', IsBetaFunctionality: 'N', IsDirectPrint: 'N', ShowHelp: 'Y',
    })),
    now,
    skip,
  );
  const params: SeedRow[] = processes.flatMap((p) =>
    p.params.map(([id, column, name, reference, referenceValue, defaultValue], n) => ({
      AD_Process_Para_ID: id, AD_Client_ID: 0, AD_Org_ID: 0, AD_Process_ID: p.id, SeqNo: (n + 1) * 10, ColumnName: column, Name: name,
      AD_Reference_ID: reference, AD_Reference_Value_ID: referenceValue ?? null, DefaultValue: defaultValue ?? null, FieldLength: reference === YES_NO ? 1 : 22,
      IsMandatory: 'N', IsRange: 'N', IsCentrallyMaintained: 'Y', DateRangeOption: 'D', EntityType: 'D', IsAutocomplete: 'N', IsEncrypted: 'N', IsShowNegateButton: 'N',
    })),
  );
  await insertSeedRows(tx, seedTable(dict, 'AD_Process_Para'), params, now, skip);
  const { rows } = await tx.query<{ ad_process_id: number; ad_role_id: number }>(`SELECT ad_process_id, ad_role_id FROM ad_process_access WHERE ad_process_id = ANY($1::bigint[])`, [
    processes.map((p) => p.id),
  ]);
  const have = new Set(rows.map((r) => `${Number(r.ad_process_id)}:${Number(r.ad_role_id)}`));
  const access = processes.flatMap((p) =>
    PROCESS_ROLES.filter((role) => !have.has(`${p.id}:${role}`)).map((role) => ({
      AD_Process_ID: p.id, AD_Role_ID: role, AD_Client_ID: DEMO_CLIENT, AD_Org_ID: 0, IsReadWrite: 'Y', AD_Process_Access_UU: deterministicUuid(`AD_Process_Access:${p.id}:${role}`),
    })),
  );
  await insertSeedRows(tx, seedTable(dict, 'AD_Process_Access'), access, now);
}

/**
 * Payment schedules: the demo's 50/50 term (108) gets its two installments, half due at once and
 * half in 30 days, and is valid; completed invoices then get their installments.
 */
export async function addPaymentScheduleSeed(tx: Tx, now = new Date().toISOString()): Promise<void> {
  const { dict } = readSeed();
  const row = (id: number, netDays: number): SeedRow => ({
    C_PaySchedule_ID: id, AD_Client_ID: DEMO_CLIENT, AD_Org_ID: 0, C_PaymentTerm_ID: 108, Percentage: 50, NetDays: netDays, Discount: 0, DiscountDays: 0, GraceDays: 0, IsValid: 'Y',
  });
  await insertSeedRows(tx, seedTable(dict, 'C_PaySchedule'), [row(1102000, 0), row(1102001, 30)], now, { skipExisting: true });
  await tx.query(`UPDATE c_paymentterm SET isvalid = 'Y' WHERE c_paymentterm_id = 108`);
}

/** The Open Items report: open installments of invoices with their due dates (the original's RV_OpenItem). */
export async function addOpenItemsSeed(tx: Tx, now = new Date().toISOString()): Promise<void> {
  await addProcesses(
    tx,
    [
      {
        id: 1102013, value: 'RV_OpenItem', name: 'Open Items', classname: 'dictum.report.OpenItems', isReport: true,
        description: 'Open installments of invoices with their due dates and discounts',
        params: [
          [1102140, 'IsSOTrx', 'Sales Transaction', YES_NO],
          [1102141, 'C_BPartner_ID', 'Business Partner', SEARCH],
          [1102142, 'DateAcct', 'Statement Date', DATE],
          [1102143, 'OnlyDue', 'Only Due', YES_NO, null, 'N'],
        ],
      },
    ],
    now,
  );
}

/**
 * Payment selections: Create From Invoices (156), Prepare Payment (155) and Payment Print/Export,
 * which makes the payments. A new selection is named by the time it is made and totals zero, as the
 * original's (its Name default was the original's Oracle query, which PostgreSQL cannot run).
 */
export async function addPaySelectionSeed(tx: Tx, now = new Date().toISOString()): Promise<void> {
  await tx.query(`UPDATE ad_column SET defaultvalue = $2 WHERE ad_column_id = $1`, [5506, "@SQL=SELECT to_char(now(), 'YYYY-MM-DD HH24:MI:SS')"]);
  await tx.query(`UPDATE ad_column SET defaultvalue = '0' WHERE ad_column_id = 5511 AND defaultvalue IS NULL`);
  await addProcesses(
    tx,
    [
      {
        id: 156, value: 'C_PaySelection_CreateFrom', name: 'Create From Invoices', classname: 'org.compiere.process.PaySelectionCreateFrom',
        description: 'Select the due vendor invoices to pay, with the discount of their term when paid in time',
        params: [
          [1102100, 'OnlyDiscount', 'Only Discount', YES_NO, null, 'N'],
          [1102101, 'OnlyDue', 'Only Due', YES_NO, null, 'Y'],
          [1102102, 'IncludeInDispute', 'Include Disputed', YES_NO, null, 'N'],
          [1102103, 'PaymentRule', 'Payment Rule', LIST, PAYMENT_RULES],
          [1102104, 'C_BPartner_ID', 'Business Partner', SEARCH],
          [1102105, 'C_BP_Group_ID', 'Business Partner Group', TABLE_DIRECT],
          [1102106, 'DueDate', 'Due Date', DATE],
        ],
      },
      {
        id: 155, value: 'C_PaySelection_CreatePayment', name: 'Prepare Payment', classname: 'org.compiere.process.PaySelectionCreateCheck',
        description: 'Group the selected invoices into one payment per business partner (or per invoice)',
        params: [
          [1102110, 'PaymentRule', 'Payment Rule', LIST, PAYMENT_RULES],
          [1102111, 'IsOnePaymentPerInvoice', 'One Payment Per Invoice', YES_NO, null, '@IsOnePaymentPerInvoice@'],
        ],
      },
      {
        id: 200136, value: 'C_PaySelection_ReversePreparePayment', name: 'Reverse Prepare Payment', classname: 'org.compiere.process.PaySelectionCheckReverse',
        description: 'Delete the prepared payments of a selection that has no payments yet, and open it again',
        params: [],
      },
      {
        id: 1102010, value: 'C_PaySelection_Payment', name: 'Payment Print/Export', classname: 'dictum.process.PaySelectionPayments',
        description: 'Create and complete the prepared payments of a payment selection, allocated to their invoices',
        params: [],
      },
    ],
    now,
  );
}

/**
 * Dunning: the demo's dunning (C_Dunning 100, Default) with its first level (101, Dun all due
 * invoices) and a second notice 30 days after due with a fee, the standard customers' group
 * dunned by it; the processes Create Dunning Run, Print Dunning Letters (159) and Process Dunning
 * Run.
 */
export async function addDunningSeed(tx: Tx, now = new Date().toISOString()): Promise<void> {
  const { dict } = readSeed();
  const skip = { skipExisting: true };
  await insertSeedRows(
    tx,
    seedTable(dict, 'C_Dunning'),
    [{ C_Dunning_ID: 100, AD_Client_ID: DEMO_CLIENT, AD_Org_ID: 0, Name: 'Default', Description: 'Reminders of overdue invoices', IsDefault: 'Y', SendDunningLetter: 'Y', CreateLevelsSequentially: 'N' }],
    now,
    skip,
  );
  const level = (id: number, name: string, printName: string, daysAfterDue: number, daysBetween: number, fee: number, note: string): SeedRow => ({
    C_DunningLevel_ID: id, AD_Client_ID: DEMO_CLIENT, AD_Org_ID: 0, C_Dunning_ID: 100, Name: name, PrintName: printName, Note: note, DaysAfterDue: daysAfterDue,
    DaysBetweenDunning: daysBetween, ChargeFee: fee > 0 ? 'Y' : 'N', FeeAmt: fee, ChargeInterest: 'N', InterestPercent: 0, IsShowAllDue: 'N', IsShowNotDue: 'N',
    IsStatement: 'N', IsSetCreditStop: 'N', IsSetPaymentTerm: 'N',
  });
  await insertSeedRows(
    tx,
    seedTable(dict, 'C_DunningLevel'),
    [
      level(101, 'Dun all due invoices', 'Payment Reminder', 0, 7, 0, 'Please pay the following due invoices.'),
      level(1102020, 'Second notice', 'Second Notice', 30, 14, 10, 'These invoices are over 30 days late: pay within 7 days.'),
    ],
    now,
    skip,
  );
  await tx.query(`UPDATE c_bp_group SET c_dunning_id = 100 WHERE c_bp_group_id = 103 AND c_dunning_id IS NULL`);
  await addProcesses(
    tx,
    [
      {
        id: 1102011, value: 'C_DunningRun_Create', name: 'Create Dunning Run', classname: 'org.compiere.process.DunningRunCreate',
        description: "Select the overdue invoices of the run's dunning levels, one entry per business partner",
        params: [
          [1102120, 'IncludeInDispute', 'Include Disputed', YES_NO, null, 'N'],
          [1102121, 'OnlySOTrx', 'Only Sales Invoices', YES_NO, null, 'Y'],
          [1102122, 'IsAllCurrencies', 'All Currencies', YES_NO, null, 'N'],
          [1102123, 'C_Currency_ID', 'Currency', TABLE_DIRECT],
          [1102124, 'SalesRep_ID', 'Sales Representative', 18, 190],
          [1102125, 'C_BPartner_ID', 'Business Partner', SEARCH],
          [1102126, 'C_BP_Group_ID', 'Business Partner Group', TABLE_DIRECT],
        ],
      },
      {
        id: 159, value: 'C_DunningRun_Print', name: 'Print Dunning Letters', classname: 'org.compiere.process.DunningPrint', isReport: true,
        description: 'The dunning letters of a dunning run, one per business partner',
        params: [
          [1102130, 'PrintUnprocessedOnly', 'Print Unprocessed Entries Only', YES_NO, null, 'N'],
          [1102131, 'IsOnlyIfBPBalance', 'Only If BP has Balance', YES_NO, null, 'N'],
        ],
      },
      {
        id: 1102012, value: 'C_DunningRun_Process', name: 'Process Dunning Run', classname: 'dictum.process.DunningRunProcess',
        description: 'Mark the dunning run processed: its invoices take the dunning level they were dunned at',
        params: [],
      },
    ],
    now,
  );
}
