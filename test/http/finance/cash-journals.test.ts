import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';
import type { ModelEvent } from '../../../src/events/model-events.js';
import { idOf, q } from '../documents/document-helpers.js';
import { ACCT, bankCalls, setTodaysControl } from './bank-helpers.js';

/** C_Cash's and C_AllocationHdr's AD_Table_ID. */
const CASH_TABLE = 407;
const ALLOCATION_TABLE = 735;
const BOOK = 101;

describe('cash journals (CMC)', () => {
  let server: TestServer;
  let admin: string;
  let ws: string;
  const seen: string[] = [];
  const { call, ok, facts, byAccount } = bankCalls(() => ({ server, token: admin }));
  const journal = async (lines: Record<string, unknown>[], extra: Record<string, unknown> = {}) => ok('POST', '/api/v1/models/c_cash', { C_CashBook_ID: BOOK, ...extra, C_CashLine: lines });
  const read = async (id: number) => {
    const r = await ok('GET', `/api/v1/models/c_cash/${id}?$expand=${q('C_CashLine($orderby=Line)')}`);
    return { header: r, lines: r.C_CashLine as Record<string, any>[] };
  };
  const invoice = async (docType: number, partner: number) => {
    const r = await ok('POST', '/api/v1/models/c_invoice', { C_BPartner_ID: partner, C_DocTypeTarget_ID: docType, C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 2, C_Tax_ID: 105 }], 'doc-action': 'CO' });
    return r as { id: number; GrandTotal: number };
  };
  const isPaid = async (id: number) => (await ok('GET', `/api/v1/models/c_invoice/${id}?$select=IsPaid`)).IsPaid as boolean;

  before(async () => {
    server = await startTestServer();
    ({ admin, ws } = await demoRoleTokens(server));
    for (const type of ['after-complete', 'after-void'] as const) server.services.events.on(type, 'c_cash', (e: ModelEvent) => void seen.push(`${type}:${String(e.row.c_cash_id)}`));
  });
  after(async () => {
    await server.close();
  });

  it('the demo cash book and its draft journal 101 are there', async () => {
    const book = await ok('GET', `/api/v1/models/c_cashbook/${BOOK}`);
    assert.equal(book.Name, 'HQ Cash Book');
    const { header, lines } = await read(101);
    assert.equal(idOf(header.DocStatus), 'DR');
    assert.equal(idOf(header.C_CashBook_ID), BOOK);
    assert.equal(lines.length, 1);
    assert.equal(idOf(lines[0]!.CashType), 'E');
  });

  it('lines of every type: signs, amounts and currency follow the type, the balance follows the lines; complete allocates the invoice, makes the transfer payment and posts as Doc_Cash', async () => {
    const inv = await invoice(116, 118);
    const j = await journal([
      { CashType: 'I', C_Invoice_ID: inv.id },
      { CashType: 'R', Amount: -30, Description: 'Sold old pallets' },
      { CashType: 'E', Amount: 12 },
      { CashType: 'C', C_Charge_ID: 100, Amount: -2 },
      { CashType: 'D', Amount: -0.5 },
      { CashType: 'T', C_BankAccount_ID: 100, Amount: -50 },
      { CashType: 'C', Amount: -1 },
    ]);
    const { header, lines } = await read(j.id);
    assert.deepEqual(
      lines.map((l) => [idOf(l.CashType), Number(l.Amount)]),
      [
        ['I', inv.GrandTotal],
        ['R', 30],
        ['E', -12],
        ['C', -2],
        ['D', -0.5],
        ['T', -50],
        ['E', -1],
      ],
      'an invoice line takes the open amount, receipts are positive, expenses negative, a charge line without charge is an expense',
    );
    const difference = Math.round((inv.GrandTotal + 30 - 12 - 2 - 0.5 - 50 - 1) * 100) / 100;
    assert.equal(Number(header.StatementDifference), difference);
    assert.equal(Number(header.EndingBalance), Number(header.BeginningBalance) + difference);

    const done = await ok('PUT', `/api/v1/models/c_cash/${j.id}`, { 'doc-action': 'CO' });
    assert.equal(idOf(done.DocStatus), 'CO');
    assert.ok(seen.includes(`after-complete:${j.id}`), 'DACO');
    assert.equal(await isPaid(inv.id), true, 'the invoice is paid by the cash line');
    const posted = await facts(CASH_TABLE, j.id);
    assert.deepEqual(byAccount(posted), {
      [ACCT.cashTransfer]: [0, inv.GrandTotal],
      [ACCT.cashReceipt]: [0, 30],
      [ACCT.cashExpense]: [13, 0],
      [ACCT.bankCharges]: [2, 0],
      [ACCT.cashDifferences]: [0.5, 0],
      [ACCT.inTransit]: [50, 0],
      [ACCT.cashAsset]: [difference, 0],
    });
    const allocations = await ok('GET', `/api/v1/models/c_allocationline?$filter=${q(`C_Invoice_ID eq ${inv.id}`)}`);
    assert.equal(allocations.records.length, 1);
    const allocation = idOf(allocations.records[0].C_AllocationHdr_ID) as number;
    assert.deepEqual(byAccount(await facts(ALLOCATION_TABLE, allocation)), { [ACCT.cashTransfer]: [inv.GrandTotal, 0], 12110: [0, inv.GrandTotal] });
    const after = await read(j.id);
    const transfer = after.lines.find((l) => idOf(l.CashType) === 'T')!;
    const pay = await ok('GET', `/api/v1/models/c_payment/${idOf(transfer.C_Payment_ID)}`);
    assert.deepEqual([idOf(pay.TenderType), idOf(pay.DocStatus), pay.IsReceipt, Number(pay.PayAmt), idOf(pay.C_BankAccount_ID)], ['X', 'CL', true, 50, 100]);

    const printed = await ok('POST', '/api/v1/processes/rpt-c_cash', { 'model-name': 'c_cash', 'record-id': j.id, 'report-type': 'CSV' });
    assert.equal(printed.isError, false, JSON.stringify(printed));
    const csv = Buffer.from(printed.exportFile, 'base64').toString();
    assert.match(csv, /Bank Account Transfer/);
    assert.match(csv, /Sold old pallets/);
    const next = await journal([{ CashType: 'E', Amount: 1 }]);
    assert.equal(Number(next.BeginningBalance), Number(done.EndingBalance), 'the next journal starts from the last ending balance');
  });

  it('void reverses the journal: a reversal journal, reversing facts, the invoice open again and the transfer payment voided', async () => {
    const inv = await invoice(123, 117);
    const j = await journal([{ CashType: 'I', C_Invoice_ID: inv.id }, { CashType: 'T', C_BankAccount_ID: 100, Amount: 20 }]);
    const { lines } = await read(j.id);
    assert.equal(Number(lines[0]!.Amount), -inv.GrandTotal, 'a vendor invoice is paid out of the cash book');
    await ok('PUT', `/api/v1/models/c_cash/${j.id}`, { 'doc-action': 'CO' });
    assert.equal(await isPaid(inv.id), true);
    const voided = await ok('PUT', `/api/v1/models/c_cash/${j.id}`, { 'doc-action': 'VO' });
    assert.equal(idOf(voided.DocStatus), 'VO');
    assert.ok(seen.includes(`after-void:${j.id}`), 'DAVO');
    assert.equal(await isPaid(inv.id), false);
    const reversals = await ok('GET', `/api/v1/models/c_cash?$filter=${q(`DocStatus eq 'RE' and StatementDifference eq ${-Number(voided.StatementDifference)}`)}`);
    assert.equal(reversals.records.length, 1);
    const all = [...(await facts(CASH_TABLE, j.id)), ...(await facts(CASH_TABLE, reversals.records[0].id))];
    for (const [account, [dr, cr]] of Object.entries(byAccount(all))) assert.deepEqual([dr, cr], [0, 0], `account ${account} nets to zero`);
    const after = await read(j.id);
    const pay = await ok('GET', `/api/v1/models/c_payment/${idOf(after.lines[1]!.C_Payment_ID)}`);
    assert.equal(idOf(pay.DocStatus), 'VO');
  });

  it('refuses an invoice not completed, a closed period and re-activation, writing nothing', async () => {
    const draft = await ok('POST', '/api/v1/models/c_invoice', { C_BPartner_ID: 118, C_DocTypeTarget_ID: 116, C_InvoiceLine: [{ M_Product_ID: 128, QtyEntered: 1, C_Tax_ID: 105 }] });
    const j1 = await journal([{ CashType: 'I', C_Invoice_ID: draft.id }]);
    const r1 = await call('PUT', `/api/v1/models/c_cash/${j1.id}`, { 'doc-action': 'CO' });
    assert.equal(r1.status, 400, r1.text);
    assert.match(r1.body.detail, /invoice \d+ is not completed/);
    assert.equal(idOf((await read(j1.id)).header.DocStatus), 'DR');

    const j2 = await journal([{ CashType: 'E', Amount: 3 }]);
    await ok('PUT', '/api/v1/models/c_acctschema/101', { AutoPeriodControl: false });
    await setTodaysControl(ok, 'CMC', 'C');
    try {
      const r2 = await call('PUT', `/api/v1/models/c_cash/${j2.id}`, { 'doc-action': 'CO' });
      assert.equal(r2.status, 400, r2.text);
      assert.match(r2.body.detail, /is closed for CMC/);
      assert.equal((await facts(CASH_TABLE, j2.id)).length, 0);
    } finally {
      await setTodaysControl(ok, 'CMC', 'O');
      await ok('PUT', '/api/v1/models/c_acctschema/101', { AutoPeriodControl: true });
    }
    await ok('PUT', `/api/v1/models/c_cash/${j2.id}`, { 'doc-action': 'CO' });
    const r3 = await call('PUT', `/api/v1/models/c_cash/${j2.id}`, { 'doc-action': 'RE' });
    assert.equal(r3.status, 400, r3.text);
    const r4 = await call('POST', `/api/v1/models/c_cashline`, { C_Cash_ID: j2.id, CashType: 'E', Amount: 1 });
    assert.equal(r4.status, 400, 'a processed journal takes no lines');
  });

  it('the least privileged role cannot complete a journal of an organization it may not write', async () => {
    const foreign = await journal([{ CashType: 'E', Amount: 4 }], { AD_Org_ID: 50001 });
    const r = await call('PUT', `/api/v1/models/c_cash/${foreign.id}`, { 'doc-action': 'CO' }, ws);
    assert.ok(r.status === 403 || r.status === 404, r.text);
    assert.equal(idOf((await read(foreign.id)).header.DocStatus), 'DR');
  });
});
