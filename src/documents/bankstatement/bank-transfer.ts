import { badRequest } from '../../errors.js';
import type { Row } from '../../events/model-events.js';
import { insertRecord } from '../../records/write/persist.js';
import { createWriteContext } from '../../records/write/write-context.js';
import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { runDocumentAction } from '../engine/engine.js';
import { compare, dec, toText } from '../decimal.js';
import { idOf, todayDate } from '../row-values.js';
import { docTypeOfBase } from './statement-rules.js';

/**
 * Bank Transfer (the original's BankTransfer process): moves an amount from one bank account to
 * another by two completed payments with the transfer's charge, a vendor payment out of the
 * source and a receipt into the target, both direct deposits of the given partner.
 */
export async function bankTransfer(c: ProcessCall): Promise<ProcessOutcome> {
  const value = (name: string) => c.param(name)?.value ?? null;
  const from = idOf(value('From_C_BankAccount_ID'));
  const to = idOf(value('To_C_BankAccount_ID'));
  const partner = idOf(value('C_BPartner_ID'));
  const charge = idOf(value('C_Charge_ID'));
  const amountText = value('Amount');
  if (from === null || to === null) throw badRequest('Invalid parameter', 'From_C_BankAccount_ID and To_C_BankAccount_ID name the two bank accounts');
  if (from === to) throw badRequest('Invalid parameter', 'The bank accounts of a transfer must differ');
  if (partner === null || charge === null) throw badRequest('Invalid parameter', 'A bank transfer needs C_BPartner_ID and C_Charge_ID');
  if (amountText === null || !/^-?\d+(\.\d+)?$/.test(String(amountText).trim()) || compare(dec(String(amountText).trim()), 0) <= 0) {
    throw badRequest('Invalid parameter', 'Amount must be a positive number');
  }
  const amount = toText(dec(String(amountText).trim()));
  const { rows } = await c.tx.query<Row>('SELECT c_bankaccount_id, c_currency_id FROM c_bankaccount WHERE c_bankaccount_id = ANY($1::bigint[]) AND ad_client_id = $2', [[from, to], c.auth.clientId]);
  if (rows.length !== 2) throw badRequest('Invalid parameter', `No bank accounts ${from} and ${to} of this client`);
  const currency = idOf(value('C_Currency_ID')) ?? Number(rows.find((r) => Number(r.c_bankaccount_id) === from)!.c_currency_id);
  const statementDate = value('StatementDate') ?? todayDate();
  const dateAcct = value('DateAcct') ?? statementDate;
  const documentNo = value('DocumentNo');
  const description = value('Description');
  const wc = createWriteContext(c.s.dictionary.current, c.auth, c.tx, c.s.events);
  const table = wc.dict.byName.get('c_payment')!;
  const made: string[] = [];
  for (const [bankAccount, receipt] of [
    [from, false],
    [to, true],
  ] as const) {
    const created = await insertRecord(wc, table, {
      C_BankAccount_ID: bankAccount,
      IsReceipt: receipt,
      C_DocType_ID: await docTypeOfBase(c.tx, c.auth.clientId, receipt ? 'ARR' : 'APP'),
      C_BPartner_ID: partner,
      C_Charge_ID: charge,
      C_Currency_ID: currency,
      PayAmt: amount,
      TenderType: 'A',
      DateTrx: statementDate,
      DateAcct: dateAcct,
      ...(documentNo ? { DocumentNo: documentNo } : {}),
      ...(description ? { Description: description } : {}),
    });
    await wc.deferred.flush();
    const done = await runDocumentAction(wc, table, String(created.row.c_payment_id), 'CO');
    made.push(String(done.row.documentno));
  }
  return { summary: `Created = 2 payments (${made.join(', ')})` };
}
