import type { Tx } from '../db/types.js';
import { addPeriodControls } from '../documents/engine/period.js';
import { deterministicUuid } from './deterministic-uuid.js';

/**
 * Demo data of bank statements, cash journals and bank transfers (migration 120): the accounts
 * they post to, the bank accounts' and the cash book's accounting rows, the Cash Journal document
 * type (CMC) with its period controls, the demo cash book with a draft cash journal 101, and the
 * Bank Statement Matcher and Bank Transfer processes.
 */

/** New accounts of the demo chart: element value and valid combination share the id. */
const ACCOUNTS: readonly { id: number; value: string; name: string; type: string }[] = [
  { id: 1101001, value: '79100', name: 'Bank interest revenue', type: 'R' },
  { id: 1101002, value: '79200', name: 'Bank interest expense', type: 'E' },
  { id: 1101003, value: '11900', name: 'Petty cash', type: 'A' },
  { id: 1101004, value: '11910', name: 'Petty cash in-transfer', type: 'A' },
  { id: 1101005, value: '79400', name: 'Cash book expense', type: 'E' },
  { id: 1101006, value: '79500', name: 'Cash book receipts', type: 'R' },
  { id: 1101007, value: '79700', name: 'Cash book differences', type: 'E' },
];

export const DEMO_CASH_BOOK = 101;
export const BANK_TRANSFER_PROCESS = 53153;
export const STATEMENT_MATCHER_PROCESS = 1101000;

/** Inserts a copy of one row of `table` with some columns replaced (no-op when the new key exists). */
async function copyRow(tx: Tx, table: string, key: string, fromId: number, values: Record<string, unknown>): Promise<void> {
  await tx.query(
    `INSERT INTO ${table} SELECT (jsonb_populate_record(NULL::${table}, to_jsonb(x) || $2::jsonb)).* FROM ${table} x
      WHERE x.${key} = $1 AND NOT EXISTS (SELECT 1 FROM ${table} y WHERE y.${key} = ($2::jsonb ->> '${key}')::bigint)`,
    [fromId, JSON.stringify(values)],
  );
}

const stamp = (now: string) => ({ created: now, updated: now, createdby: 100, updatedby: 100 });

async function addAccounts(tx: Tx, now: string): Promise<void> {
  for (const a of ACCOUNTS) {
    await copyRow(tx, 'c_elementvalue', 'c_elementvalue_id', 70200, {
      ...stamp(now), c_elementvalue_id: a.id, c_elementvalue_uu: deterministicUuid(`C_ElementValue:${a.id}`), value: a.value, name: a.name, description: a.name, accounttype: a.type,
    });
    await copyRow(tx, 'c_validcombination', 'c_validcombination_id', 70200, {
      ...stamp(now), c_validcombination_id: a.id, c_validcombination_uu: deterministicUuid(`C_ValidCombination:${a.id}`), account_id: a.id, combination: `HQ-${a.value}-_-_-_`, description: `HQ-${a.name}`,
    });
  }
}

/** The accounting rows of the demo bank accounts (the schema's defaults, and the interest accounts) and of the demo cash book. */
async function addAccountingRows(tx: Tx, now: string): Promise<void> {
  await tx.query(
    `INSERT INTO c_bankaccount_acct (c_bankaccount_acct_id, c_bankaccount_acct_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
       c_bankaccount_id, c_acctschema_id, b_asset_acct, b_intransit_acct, b_unallocatedcash_acct, b_paymentselect_acct, b_interestrev_acct, b_interestexp_acct)
     SELECT 1101010 + row_number() OVER (ORDER BY b.c_bankaccount_id), md5('C_BankAccount_Acct:' || b.c_bankaccount_id)::uuid::text, b.ad_client_id, 0, 'Y',
       $1::timestamp, 100, $1::timestamp, 100, b.c_bankaccount_id, d.c_acctschema_id, d.b_asset_acct, d.b_intransit_acct, d.b_unallocatedcash_acct, d.b_paymentselect_acct, 1101001, 1101002
       FROM c_bankaccount b JOIN c_acctschema_default d ON d.ad_client_id = b.ad_client_id AND d.c_acctschema_id = 101
      WHERE b.ad_client_id = 11 AND NOT EXISTS (SELECT 1 FROM c_bankaccount_acct x WHERE x.c_bankaccount_id = b.c_bankaccount_id)`,
    [now],
  );
  await tx.query(
    `INSERT INTO c_cashbook (c_cashbook_id, c_cashbook_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, name, description, c_currency_id, isdefault)
     SELECT $2, $3, 11, 11, 'Y', $1::timestamp, 100, $1::timestamp, 100, 'HQ Cash Book', 'Petty cash of the head office', 100, 'Y'
      WHERE NOT EXISTS (SELECT 1 FROM c_cashbook WHERE c_cashbook_id = $2)`,
    [now, DEMO_CASH_BOOK, deterministicUuid(`C_CashBook:${DEMO_CASH_BOOK}`)],
  );
  await tx.query(
    `INSERT INTO c_cashbook_acct (c_cashbook_acct_id, c_cashbook_acct_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
       c_cashbook_id, c_acctschema_id, cb_asset_acct, cb_cashtransfer_acct, cb_expense_acct, cb_receipt_acct, cb_differences_acct)
     SELECT 1101020, $2, 11, 0, 'Y', $1::timestamp, 100, $1::timestamp, 100, $3, 101, 1101003, 1101004, 1101005, 1101006, 1101007
      WHERE NOT EXISTS (SELECT 1 FROM c_cashbook_acct WHERE c_cashbook_id = $3)`,
    [now, deterministicUuid('C_CashBook_Acct:101'), DEMO_CASH_BOOK],
  );
}

/** The Cash Journal document type (the original's 141, CMC) and the periods' controls for it. */
async function addCashJournalType(tx: Tx, now: string): Promise<void> {
  await copyRow(tx, 'c_doctype', 'c_doctype_id', 146, {
    ...stamp(now), c_doctype_id: 141, c_doctype_uu: deterministicUuid('C_DocType:141'), name: 'Cash Journal', printname: 'Cash Journal', description: 'Cash Journal',
    docbasetype: 'CMC', docnosequence_id: null, isdocnocontrolled: 'N',
  });
  const { rows } = await tx.query<{ status: string }>(`SELECT COALESCE(min(periodstatus), 'N') AS status FROM c_periodcontrol WHERE docbasetype = 'CMB'`);
  await addPeriodControls(tx, null, rows[0]?.status ?? 'N', 100, now);
}

/** A draft cash journal 101 of the demo cash book, with one expense (the upstream API's example reads it). */
async function addDemoCashJournal(tx: Tx, now: string): Promise<void> {
  const { rows } = await tx.query<{ day: string }>(`SELECT to_char(current_date, 'YYYY-MM-DD') AS day`);
  const day = rows[0]!.day;
  await tx.query(
    `INSERT INTO c_cash (c_cash_id, c_cash_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, c_cashbook_id, name, statementdate, dateacct,
       beginningbalance, endingbalance, statementdifference, docstatus, docaction, processed, posted, processing, isapproved)
     SELECT 101, $2, 11, 11, 'Y', $1::timestamp, 100, $1::timestamp, 100, $3, $4, $5::timestamp, $5::timestamp, 0, -25, -25, 'DR', 'CO', 'N', 'N', 'N', 'N'
      WHERE NOT EXISTS (SELECT 1 FROM c_cash WHERE c_cash_id = 101)`,
    [now, deterministicUuid('C_Cash:101'), DEMO_CASH_BOOK, day, day],
  );
  await tx.query(
    `INSERT INTO c_cashline (c_cashline_id, c_cashline_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, c_cash_id, line, description,
       cashtype, amount, c_currency_id, discountamt, writeoffamt, isgenerated, processed)
     SELECT 101, $2, 11, 11, 'Y', $1::timestamp, 100, $1::timestamp, 100, 101, 10, 'Office supplies', 'E', -25, 100, 0, 0, 'N', 'N'
      WHERE EXISTS (SELECT 1 FROM c_cash WHERE c_cash_id = 101) AND NOT EXISTS (SELECT 1 FROM c_cashline WHERE c_cashline_id = 101)`,
    [now, deterministicUuid('C_CashLine:101')],
  );
}

interface ParaSeed {
  id: number;
  column: string;
  name: string;
  reference: number;
  mandatory: boolean;
  seq: number;
  element?: number;
  /** A range parameter (from and to). */
  range?: boolean;
}

export async function addProcess(tx: Tx, now: string, p: { id: number; value: string; name: string; description: string; classname: string | null; isReport?: boolean }, params: readonly ParaSeed[]): Promise<void> {
  await tx.query(
    `INSERT INTO ad_process (ad_process_id, ad_process_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, value, name, description,
       accesslevel, entitytype, isbetafunctionality, isdirectprint, isreport, showhelp, allowmultipleexecution, classname)
     SELECT $2, $3, 0, 0, 'Y', $1::timestamp, 100, $1::timestamp, 100, $4, $5, $6, '3', 'D', 'N', 'N', $8, 'Y', 'P', $7
      WHERE NOT EXISTS (SELECT 1 FROM ad_process WHERE ad_process_id = $2)`,
    [now, p.id, deterministicUuid(`AD_Process:${p.id}`), p.value, p.name, p.description, p.classname, p.isReport ? 'Y' : 'N'],
  );
  for (const para of params) {
    await tx.query(
      `INSERT INTO ad_process_para (ad_process_para_id, ad_process_para_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, ad_process_id,
         columnname, name, ad_reference_id, ad_element_id, ismandatory, isrange, seqno, fieldlength, entitytype, iscentrallymaintained, isencrypted, isautocomplete, isshownegatebutton)
       SELECT $2, $3, 0, 0, 'Y', $1::timestamp, 100, $1::timestamp, 100, $4, $5, $6, $7, $8, $9, $11, $10, 22, 'D', 'N', 'N', 'N', 'N'
        WHERE NOT EXISTS (SELECT 1 FROM ad_process_para WHERE ad_process_para_id = $2)`,
      [now, para.id, deterministicUuid(`AD_Process_Para:${para.id}`), p.id, para.column, para.name, para.reference, para.element ?? null, para.mandatory ? 'Y' : 'N', para.seq, para.range ? 'Y' : 'N'],
    );
  }
  // The demo administrator and user roles run it.
  await tx.query(
    `INSERT INTO ad_process_access (ad_process_access_uu, ad_client_id, ad_org_id, ad_process_id, ad_role_id, isactive, isreadwrite, created, createdby, updated, updatedby)
     SELECT md5('AD_Process_Access:' || $2::bigint || ':' || r.ad_role_id)::uuid::text, r.ad_client_id, 0, $2::bigint, r.ad_role_id, 'Y', 'Y', $1::timestamp, 100, $1::timestamp, 100
       FROM ad_role r WHERE r.ad_role_id IN (102, 103)
        AND NOT EXISTS (SELECT 1 FROM ad_process_access a WHERE a.ad_process_id = $2::bigint AND a.ad_role_id = r.ad_role_id)`,
    [now, p.id],
  );
}

async function addProcesses(tx: Tx, now: string): Promise<void> {
  await addProcess(
    tx,
    now,
    { id: STATEMENT_MATCHER_PROCESS, value: 'C_BankStatement_Matcher', name: 'Bank Statement Matcher', description: 'Match the lines of a bank statement to payments', classname: 'org.compiere.process.BankStatementMatcher' },
    [],
  );
  // Reference types: 11 Integer, 12 Amount, 15 Date, 10 String, 19 Table Direct.
  await addProcess(
    tx,
    now,
    { id: BANK_TRANSFER_PROCESS, value: 'C_BankStatement BankTransfer', name: 'Bank Transfer', description: 'Transfer money between two bank accounts by two payments', classname: 'org.eevolution.process.BankTransfer' },
    [
      { id: 53246, column: 'From_C_BankAccount_ID', name: 'Bank Account From', reference: 11, mandatory: true, seq: 10 },
      { id: 53247, column: 'To_C_BankAccount_ID', name: 'Bank Account To', reference: 11, mandatory: true, seq: 20 },
      { id: 53248, column: 'Amount', name: 'Transfer Amount', reference: 12, mandatory: true, seq: 30 },
      { id: 53249, column: 'C_BPartner_ID', name: 'Business Partner', reference: 19, mandatory: true, seq: 40, element: 187 },
      { id: 53250, column: 'C_Charge_ID', name: 'Charge', reference: 19, mandatory: true, seq: 50, element: 968 },
      { id: 1101001, column: 'C_Currency_ID', name: 'Currency', reference: 19, mandatory: false, seq: 60, element: 193 },
      { id: 1101002, column: 'DocumentNo', name: 'Document No', reference: 10, mandatory: false, seq: 70 },
      { id: 1101003, column: 'Description', name: 'Description', reference: 10, mandatory: false, seq: 80 },
      { id: 1101004, column: 'StatementDate', name: 'Statement date', reference: 15, mandatory: false, seq: 90 },
      { id: 1101005, column: 'DateAcct', name: 'Account Date', reference: 15, mandatory: false, seq: 100 },
    ],
  );
}

/** The print processes of bank statements and cash journals (run on a record: its printed form). */
export async function addBankAndCashPrints(tx: Tx, now = new Date().toISOString()): Promise<void> {
  await addProcess(tx, now, { id: 1101006, value: 'Rpt C_BankStatement', name: 'Bank Statement Print', description: 'Print a bank statement', classname: null, isReport: true }, []);
  await addProcess(tx, now, { id: 1101007, value: 'Rpt C_Cash', name: 'Cash Journal Print', description: 'Print a cash journal', classname: null, isReport: true }, []);
}

export async function addBankAndCashDemo(tx: Tx, now = new Date().toISOString()): Promise<void> {
  await addAccounts(tx, now);
  await addAccountingRows(tx, now);
  await addCashJournalType(tx, now);
  await addDemoCashJournal(tx, now);
  await addProcesses(tx, now);
}

export const STATEMENT_CREATE_FROM_PROCESS = 1130000;

/** Create Lines from Payments of a bank statement (migration 123), with the payments' transaction date range. */
export async function addStatementCreateFrom(tx: Tx, now = new Date().toISOString()): Promise<void> {
  await addProcess(
    tx,
    now,
    {
      id: STATEMENT_CREATE_FROM_PROCESS,
      value: 'C_BankStatement_CreateFromPayments',
      name: 'Create Lines from Payments',
      description: 'Add a line per unreconciled payment of the bank account to a draft bank statement',
      classname: 'dictum.process.BankStatementCreateFromPayments',
    },
    [{ id: 1130001, column: 'DateTrx', name: 'Transaction Date', reference: 15, mandatory: false, seq: 10, element: 919, range: true }],
  );
}
