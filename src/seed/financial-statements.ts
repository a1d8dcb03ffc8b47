import type { Tx } from '../db/types.js';
import { createTableStatements } from '../dictionary/ddl.js';
import { loadDictionary } from '../dictionary/load.js';
import { OPEN_AMOUNT_SQL } from '../documents/engine/settlement.js';
import { createTableSequenceRows, FIRST_USER_ID, readSeed, seedTable } from './bootstrap.js';
import { insertSeedRows } from './insert-rows.js';
import { deterministicUuid } from './deterministic-uuid.js';
import { DUE_DATE_SQL } from '../reports/finance/open-items.js';

/** AD_Table_ID of PA_ReportSource in the original. */
const REPORT_SOURCE_TABLE = 450;
const GW = { AD_Client_ID: 11, AD_Org_ID: 0 };
const SYSTEM = { AD_Client_ID: 0, AD_Org_ID: 0, EntityType: 'D' };

const standard = (id: number, name: string, element: number, ref: number, extra: Record<string, unknown> = {}) => ({
  AD_Column_ID: id, AD_Table_ID: REPORT_SOURCE_TABLE, ColumnName: name, Name: name, AD_Element_ID: element, AD_Reference_ID: ref,
  FieldLength: 10, IsKey: 'N', IsParent: 'N', IsMandatory: 'Y', IsUpdateable: 'Y', IsIdentifier: 'N', IsSelectionColumn: 'N', IsTranslated: 'N',
  IsEncrypted: 'N', IsSecure: 'N', IsAlwaysUpdateable: 'N', SeqNo: 0, ...SYSTEM, ...extra,
});

/** PA_ReportSource: the accounts (C_ElementValue) a report line sums, with the columns a source needs. */
async function addReportSourceTable(tx: Tx, now: string): Promise<void> {
  const { dict } = readSeed();
  await insertSeedRows(tx, seedTable(dict, 'AD_Element'), [
    { AD_Element_ID: 3060, ColumnName: 'PA_ReportSource_ID', Name: 'Report Source', PrintName: 'Report Source', ...SYSTEM },
    { AD_Element_ID: 3061, ColumnName: 'PA_ReportSource_UU', Name: 'PA_ReportSource_UU', PrintName: 'PA_ReportSource_UU', ...SYSTEM },
  ], now, { skipExisting: true });
  await insertSeedRows(tx, seedTable(dict, 'AD_Table'), [
    { AD_Table_ID: REPORT_SOURCE_TABLE, TableName: 'PA_ReportSource', Name: 'Report Source', AccessLevel: '3', IsView: 'N', IsDeleteable: 'Y', IsHighVolume: 'N', IsChangeLog: 'N', IsSecurityEnabled: 'N', ReplicationType: 'L', ...SYSTEM },
  ], now, { skipExisting: true });
  await insertSeedRows(tx, seedTable(dict, 'AD_Column'), [
    standard(6660, 'PA_ReportSource_ID', 3060, 13, { IsKey: 'Y', IsUpdateable: 'N', Name: 'Report Source' }),
    standard(6661, 'AD_Client_ID', 100, 19, { AD_Val_Rule_ID: 129, DefaultValue: '@#AD_Client_ID@', IsUpdateable: 'N', Name: 'Tenant' }),
    standard(6662, 'AD_Org_ID', 101, 19, { AD_Val_Rule_ID: 104, DefaultValue: '@#AD_Org_ID@', Name: 'Organization' }),
    standard(6663, 'IsActive', 118, 20, { FieldLength: 1, DefaultValue: 'Y', Name: 'Active' }),
    standard(6664, 'Created', 111, 16, { FieldLength: 7, DefaultValue: 'SYSDATE', IsUpdateable: 'N' }),
    standard(6665, 'CreatedBy', 112, 18, { AD_Reference_Value_ID: 110, IsUpdateable: 'N', Name: 'Created By' }),
    standard(6666, 'Updated', 133, 16, { FieldLength: 7, DefaultValue: 'SYSDATE', IsUpdateable: 'N' }),
    standard(6667, 'UpdatedBy', 134, 18, { AD_Reference_Value_ID: 110, IsUpdateable: 'N', Name: 'Updated By' }),
    standard(6668, 'PA_ReportSource_UU', 3061, 10, { FieldLength: 36, IsMandatory: 'N', IsUpdateable: 'N' }),
    standard(6669, 'PA_ReportLine_ID', 1863, 19, { IsParent: 'Y', IsUpdateable: 'N', Name: 'Report Line' }),
    standard(6670, 'ElementType', 1830, 17, { AD_Reference_Value_ID: 53280, FieldLength: 2, DefaultValue: 'AC', Name: 'Element Type' }),
    standard(6671, 'C_ElementValue_ID', 591, 19, { IsMandatory: 'N', IsIdentifier: 'Y', SeqNo: 1, Name: 'Account Element' }),
    standard(6672, 'Description', 114, 10, { FieldLength: 255, IsMandatory: 'N' }),
  ], now, { skipExisting: true });
  const loaded = await loadDictionary(tx);
  const table = loaded.byName.get('pa_reportsource')!;
  for (const stmt of createTableStatements(table, FIRST_USER_ID)) await tx.query(stmt);
  await createTableSequenceRows(tx, loaded, [table], now);
}

/** GardenWorld's summary accounts, one per leading digit of the account keys (the account tree driven by value). */
const SUMMARY_ACCOUNTS = [
  [1103000, '1', 'Assets', 'A'],
  [1103001, '2', 'Liabilities', 'L'],
  [1103002, '3', "Owner's Equity", 'O'],
  [1103003, '4', 'Sales', 'R'],
  [1103004, '5', 'Cost of Goods Sold', 'E'],
  [1103005, '6', 'Expenses', 'E'],
  [1103006, '7', 'Other Expenses', 'E'],
  [1103007, '8', 'Other Income', 'R'],
] as const;
const SUMMARY = Object.fromEntries(SUMMARY_ACCOUNTS.map(([id, value]) => [value, id])) as Record<string, number>;

type Line = { id: number; seq: number; name: string; type: 'S' | 'C'; sources?: string[]; amount?: string; calc?: string; op1?: number; op2?: number; printed?: boolean; opposite?: boolean };
type Column = { id: number; seq: number; name: string; relative?: number; amount: string; period: string };

/**
 * The demo company's report sets: a balance sheet that balances (assets against liabilities,
 * equity and the profit not yet closed), an income statement, and a trial balance listing every
 * account with its opening balance, period debits and credits and closing balance.
 */
const REPORTS: { id: number; name: string; description: string; listSources: boolean; lineSet: number; columnSet: number; lines: Line[]; columns: Column[] }[] = [
  {
    id: 100, name: 'Balance Sheet Current Month', description: 'Assets, liabilities and equity at the end of the period', listSources: false, lineSet: 1103100, columnSet: 1103200,
    lines: [
      { id: 1103110, seq: 10, name: 'Assets', type: 'S', sources: ['1'] },
      { id: 1103111, seq: 20, name: 'Liabilities', type: 'S', sources: ['2'] },
      { id: 1103112, seq: 30, name: "Owner's Equity", type: 'S', sources: ['3'] },
      { id: 1103113, seq: 40, name: 'Profit not yet closed', type: 'S', sources: ['4', '5', '6', '7', '8'], amount: 'S', opposite: true },
      { id: 1103114, seq: 50, name: 'Liabilities and equity before profit', type: 'C', calc: 'A', op1: 1103111, op2: 1103112, printed: false },
      { id: 1103115, seq: 60, name: 'Total Liabilities and Equity', type: 'C', calc: 'S', op1: 1103114, op2: 1103113 },
    ],
    columns: [
      { id: 1103210, seq: 10, name: 'Balance', amount: 'B', period: 'T' },
      { id: 1103211, seq: 20, name: 'Previous Period', relative: -1, amount: 'B', period: 'T' },
    ],
  },
  {
    id: 1103001, name: 'Income Statement Current Month', description: 'Revenue, costs and profit of the period and of the year to date', listSources: false, lineSet: 1103101, columnSet: 1103201,
    lines: [
      { id: 1103120, seq: 10, name: 'Sales', type: 'S', sources: ['4'] },
      { id: 1103121, seq: 20, name: 'Cost of Goods Sold', type: 'S', sources: ['5'] },
      { id: 1103122, seq: 30, name: 'Gross Margin', type: 'C', calc: 'S', op1: 1103120, op2: 1103121 },
      { id: 1103123, seq: 40, name: 'Expenses', type: 'S', sources: ['6'] },
      { id: 1103124, seq: 50, name: 'Operating Income', type: 'C', calc: 'S', op1: 1103122, op2: 1103123 },
      { id: 1103125, seq: 60, name: 'Other Income less Other Expenses', type: 'S', sources: ['7', '8'], amount: 'S', opposite: true },
      { id: 1103126, seq: 70, name: 'Net Income', type: 'C', calc: 'S', op1: 1103124, op2: 1103125 },
    ],
    columns: [
      { id: 1103220, seq: 10, name: 'Period', amount: 'B', period: 'P' },
      { id: 1103221, seq: 20, name: 'Year to Date', amount: 'B', period: 'Y' },
    ],
  },
  {
    id: 1103002, name: 'Trial Balance', description: 'Every account: opening balance, debits and credits of the period, closing balance', listSources: true, lineSet: 1103102, columnSet: 1103202,
    lines: [{ id: 1103130, seq: 10, name: 'Total', type: 'S', sources: ['1', '2', '3', '4', '5', '6', '7', '8'] }],
    columns: [
      { id: 1103230, seq: 10, name: 'Opening Balance', relative: -1, amount: 'S', period: 'T' },
      { id: 1103231, seq: 20, name: 'Debit', amount: 'D', period: 'P' },
      { id: 1103232, seq: 30, name: 'Credit', amount: 'C', period: 'P' },
      { id: 1103233, seq: 40, name: 'Closing Balance', amount: 'S', period: 'T' },
    ],
  },
];

async function addReportSets(tx: Tx, now: string): Promise<void> {
  const dict = await loadDictionary(tx);
  const insert = (name: string, rows: Record<string, unknown>[]) => insertSeedRows(tx, dict.byName.get(name.toLowerCase())!, rows, now, { skipExisting: true });
  await insert('C_ElementValue', SUMMARY_ACCOUNTS.map(([id, value, name, type]) => ({
    C_ElementValue_ID: id, ...GW, Value: value, Name: name, Description: `Summary of the accounts whose key starts with ${value}`, AccountType: type, AccountSign: 'N',
    C_Element_ID: 105, IsSummary: 'Y', IsDocControlled: 'N', PostActual: 'N', PostBudget: 'N', PostEncumbrance: 'N', PostStatistical: 'N',
  })));
  let sourceId = 1103300;
  for (const r of REPORTS) {
    await insert('PA_ReportLineSet', [{ PA_ReportLineSet_ID: r.lineSet, ...GW, Name: r.name }]);
    await insert('PA_ReportColumnSet', [{ PA_ReportColumnSet_ID: r.columnSet, ...GW, Name: r.name }]);
    await insert('PA_ReportLine', r.lines.map((l) => ({
      PA_ReportLine_ID: l.id, ...GW, PA_ReportLineSet_ID: r.lineSet, SeqNo: l.seq, Name: l.name, LineType: l.type, IsPrinted: l.printed === false ? 'N' : 'Y',
      IsShowOppositeSign: l.opposite ? 'Y' : 'N', IsInverseDebitCreditOnly: 'N', PAAmountType: l.amount ?? null, CalculationType: l.calc ?? null, Oper_1_ID: l.op1 ?? null, Oper_2_ID: l.op2 ?? null,
    })));
    await insert('PA_ReportSource', r.lines.flatMap((l) => (l.sources ?? []).map((v) => ({ PA_ReportSource_ID: sourceId++, ...GW, PA_ReportLine_ID: l.id, ElementType: 'AC', C_ElementValue_ID: SUMMARY[v] }))));
    await insert('PA_ReportColumn', r.columns.map((c) => ({
      PA_ReportColumn_ID: c.id, ...GW, PA_ReportColumnSet_ID: r.columnSet, SeqNo: c.seq, Name: c.name, ColumnType: 'R', RelativePeriod: c.relative ?? 0,
      PAAmountType: c.amount, PAPeriodType: c.period, PostingType: 'A', IsPrinted: 'Y',
    })));
    await insert('PA_Report', [{ PA_Report_ID: r.id, ...GW, Name: r.name, Description: r.description, C_AcctSchema_ID: 101, C_Calendar_ID: 102, PA_ReportLineSet_ID: r.lineSet, PA_ReportColumnSet_ID: r.columnSet, ListSources: r.listSources ? 'Y' : 'N' }]);
  }
}

const para = (id: number, processId: number, seq: number, column: string, name: string, ref: number, extra: Record<string, unknown> = {}) => ({
  AD_Process_Para_ID: id, ...SYSTEM, AD_Process_ID: processId, SeqNo: seq, ColumnName: column, Name: name, AD_Reference_ID: ref, FieldLength: ref === 20 ? 1 : ref === 15 ? 7 : 10,
  IsMandatory: 'N', IsRange: 'N', IsCentrallyMaintained: 'Y', DateRangeOption: 'D', IsAutocomplete: 'N', IsEncrypted: 'N', IsShowNegateButton: 'N', ...extra,
});

export const FIN_REPORT_CLASS = 'org.compiere.report.FinReport';
export const AGING_CLASS = 'org.compiere.process.Aging';
export const GL_DETAIL_CLASS = 'dictum.report.GeneralLedgerDetail';

/** The report processes: Financial Report (202) and Aging (238) at the original's ids, and General Ledger Detail. */
async function addReportProcesses(tx: Tx, now: string): Promise<void> {
  const dict = await loadDictionary(tx);
  const insert = (name: string, rows: Record<string, unknown>[]) => insertSeedRows(tx, dict.byName.get(name.toLowerCase())!, rows, now, { skipExisting: true });
  const process = (id: number, value: string, name: string, description: string, classname: string) => ({
    AD_Process_ID: id, ...SYSTEM, Value: value, Name: name, Description: description, IsReport: 'Y', AccessLevel: '3', IsBetaFunctionality: 'N', IsDirectPrint: 'N',
    AllowMultipleExecution: 'P', ShowHelp: 'Y', Classname: classname,
  });
  await insert('AD_Process', [
    process(202, 'FinReport', 'Financial Report', 'Balance sheet, income statement, trial balance and other reports of a report definition (PA_Report)', FIN_REPORT_CLASS),
    process(238, 'Aging', 'Aging', 'Open receivables or payables by days past their due date', AGING_CLASS),
    process(1103400, 'GL_Detail', 'General Ledger Detail', 'Accounting facts of each account with its running balance', GL_DETAIL_CLASS),
  ]);
  await insert('AD_Process_Para', [
    para(1103410, 202, 10, 'C_Period_ID', 'Period', 19),
    para(1103411, 202, 20, 'Org_ID', 'Organization', 18, { AD_Reference_Value_ID: 200510 }),
    para(1103412, 202, 30, 'DetailsSourceFirst', 'Details/Source First', 20, { DefaultValue: 'N' }),
    para(1103413, 202, 40, 'C_BPartner_ID', 'Business Partner', 30),
    para(1103414, 202, 50, 'M_Product_ID', 'Product', 30),
    para(1103420, 238, 10, 'StatementDate', 'Statement Date', 15, { DefaultValue: '@#Date@', IsMandatory: 'Y' }),
    para(1103421, 238, 20, 'IsSOTrx', 'Sales Transaction', 20, { DefaultValue: 'Y' }),
    para(1103422, 238, 30, 'AD_Org_ID', 'Organization', 19),
    para(1103423, 238, 40, 'C_BP_Group_ID', 'Business Partner Group', 19),
    para(1103424, 238, 50, 'C_BPartner_ID', 'Business Partner', 30),
    para(1103425, 238, 60, 'IsListInvoices', 'List Invoices', 20, { DefaultValue: 'N' }),
    para(1103430, 1103400, 10, 'C_AcctSchema_ID', 'Accounting Schema', 19),
    para(1103431, 1103400, 20, 'C_Period_ID', 'Period', 19),
    para(1103432, 1103400, 30, 'DateAcct', 'Account Date', 15, { IsRange: 'Y' }),
    para(1103433, 1103400, 40, 'AD_Org_ID', 'Organization', 19),
    para(1103434, 1103400, 50, 'Account_ID', 'Account', 18, { AD_Reference_Value_ID: 200517 }),
    para(1103435, 1103400, 60, 'C_BPartner_ID', 'Business Partner', 30),
  ]);
  // Named by process and role: the seed's numbering by position would repeat UUIDs of rows already there.
  const access = (id: number, role: number, client: number) => ({ AD_Process_ID: id, AD_Role_ID: role, AD_Client_ID: client, AD_Org_ID: 0, IsReadWrite: 'Y', AD_Process_Access_UU: deterministicUuid(`AD_Process_Access:${id}:${role}`) });
  await insert('AD_Process_Access', [202, 238, 1103400].flatMap((id) => [access(id, 0, 0), ...[102, 103, 200001].map((role) => access(id, role, 11))]));
}

/**
 * The original's functions for open items, for the dictionary's SQL (charts, info windows):
 * paymentTermDueDate(term, date) and invoiceOpen(invoice, schedule), the whole invoice's open
 * amount (the schedule is not read).
 */
async function addOpenItemFunctions(tx: Tx): Promise<void> {
  await tx.query(`CREATE OR REPLACE FUNCTION paymenttermduedate(p_paymentterm_id numeric, p_docdate timestamp) RETURNS date LANGUAGE sql STABLE AS
    'SELECT ${DUE_DATE_SQL('i').replace(/'/g, "''")} FROM (SELECT p_docdate AS dateinvoiced, p_paymentterm_id AS c_paymentterm_id) i'`);
  await tx.query(`CREATE OR REPLACE FUNCTION invoiceopen(p_invoice_id numeric, p_payschedule_id numeric) RETURNS numeric LANGUAGE sql STABLE AS
    'SELECT ${OPEN_AMOUNT_SQL('i').replace(/'/g, "''")} FROM c_invoice i WHERE i.c_invoice_id = p_invoice_id'`);
}

/** The "Open Invoices by Age" chart: open amounts of completed invoices (credit memos negative) by days past their due date. */
export const OPEN_INVOICES_BY_AGE = {
  FromClause: 'C_Invoice i',
  WhereClause: "i.DocStatus IN ('CO','CL') AND invoiceOpen(i.C_Invoice_ID, 0) <> 0",
  CategoryColumn:
    "CASE WHEN now()::date - paymentTermDueDate(i.C_PaymentTerm_ID, i.DateInvoiced) <= 0 THEN '0 not due' WHEN now()::date - paymentTermDueDate(i.C_PaymentTerm_ID, i.DateInvoiced) <= 30 THEN '1-30 days' WHEN now()::date - paymentTermDueDate(i.C_PaymentTerm_ID, i.DateInvoiced) <= 60 THEN '31-60 days' WHEN now()::date - paymentTermDueDate(i.C_PaymentTerm_ID, i.DateInvoiced) <= 90 THEN '61-90 days' ELSE '91+ days' END",
  SeriesColumn: "CASE WHEN i.IsSOTrx='Y' THEN 'Receivables' ELSE 'Payables' END",
  ValueColumn: "SUM(invoiceOpen(i.C_Invoice_ID, 0) * CASE WHEN (SELECT dt.DocBaseType FROM C_DocType dt WHERE dt.C_DocType_ID=i.C_DocType_ID) IN ('ARC','APC') THEN -1 ELSE 1 END)",
};

/** Migration 140: the financial statements, aging and general ledger detail, and the aging chart by due date over open amounts. */
export async function addFinancialStatements(tx: Tx, now = new Date().toISOString()): Promise<void> {
  await addOpenItemFunctions(tx);
  await tx.query(
    `UPDATE ad_chartdatasource SET fromclause = $1, whereclause = $2, categorycolumn = $3, seriescolumn = $4, valuecolumn = $5 WHERE ad_chartdatasource_id = 50003`,
    [OPEN_INVOICES_BY_AGE.FromClause, OPEN_INVOICES_BY_AGE.WhereClause, OPEN_INVOICES_BY_AGE.CategoryColumn, OPEN_INVOICES_BY_AGE.SeriesColumn, OPEN_INVOICES_BY_AGE.ValueColumn],
  );
  await tx.query(`UPDATE ad_chart SET description = 'Open receivables and payables by days past their due date', domainlabel = 'Days past due' WHERE ad_chart_id = 50003`);
  await addReportSourceTable(tx, now);
  await addReportSets(tx, now);
  await addReportProcesses(tx, now);
  // The statements' one aggregate reads the facts of a schema by account and date.
  await tx.query(`CREATE INDEX IF NOT EXISTS fact_acct_schema_account_date ON fact_acct (c_acctschema_id, account_id, dateacct)`);
}
