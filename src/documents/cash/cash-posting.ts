import { add, dec, isZero, toText, ZERO, type Decimal } from '../decimal.js';
import { accountSchema, type Fact } from '../accounting/facts.js';
import { conversionRate, convertAmounts } from '../accounting/conversion.js';
import { current } from '../engine/common.js';
import { chargeAccountOf } from '../accounting/charge-account.js';
import { refuse, type DocumentContext } from '../engine/document-type.js';
import { accountsOfRow, bankAccountsOf, negate, signedFact } from '../bankstatement/statement-posting.js';
import { CASH_TYPE } from './cash-rules.js';

export interface CashLine {
  c_cashline_id: number;
  line: number;
  cashtype: string;
  amount: string;
  discountamt: string;
  writeoffamt: string;
  c_invoice_id: number | null;
  c_bankaccount_id: number | null;
  c_charge_id: number | null;
  c_currency_id: number;
  /** The conversion type of the line's amount (its invoice's; none for the client's default). */
  conversion_type: number | null;
  invoice_status: string | null;
  invoice_bpartner: number | null;
  description: string | null;
}

const BOOK_ACCOUNTS = { asset: 'cb_asset_acct', transfer: 'cb_cashtransfer_acct', expense: 'cb_expense_acct', receipt: 'cb_receipt_acct', differences: 'cb_differences_acct' } as const;

/** The accounts (C_ElementValue_ID) of the journal's cash book (C_CashBook_Acct); refused when it has none. */
async function cashBookAccounts(d: DocumentContext): Promise<Record<keyof typeof BOOK_ACCOUNTS, number>> {
  const r = await accountsOfRow(d, 'c_cashbook_acct', 'c_cashbook_id', d.row.c_cashbook_id, Object.values(BOOK_ACCOUNTS));
  if (!r) throw refuse('the cash book has no accounts (C_CashBook_Acct) in the accounting schema');
  const need = (k: keyof typeof BOOK_ACCOUNTS): number => {
    const account = r[BOOK_ACCOUNTS[k]];
    if (account === undefined) throw refuse(`the cash book has no ${BOOK_ACCOUNTS[k]} account (C_CashBook_Acct)`);
    return account;
  };
  return { asset: need('asset'), transfer: need('transfer'), expense: need('expense'), receipt: need('receipt'), differences: need('differences') };
}

/**
 * The two facts of a line in another currency than the cash book's (an invoice's, a bank
 * account's), as Doc_Cash posts them: the cash asset with the amount and the line's account with
 * it negated, both in the line's currency, accounted at the journal's date with the line's
 * conversion type.
 */
async function foreignLineFacts(d: DocumentContext, l: CashLine, asset: number, account: number, extra: Partial<Fact>): Promise<Fact[]> {
  const schema = await accountSchema(d);
  const from = Number(l.c_currency_id);
  const source = [signedFact(asset, l.amount, extra), signedFact(account, negate(l.amount), extra)];
  let accounted = source.map((f) => ({ dr: dec(f.dr ?? 0), cr: dec(f.cr ?? 0) }));
  if (from !== schema.currencyId) {
    const found = await conversionRate(d.wc.tx, from, schema.currencyId, l.conversion_type === null ? null : Number(l.conversion_type), current(d, 'dateacct'), d.row.ad_client_id);
    if ('missing' in found) throw refuse(`line ${l.line}: ${found.missing}`);
    accounted = convertAmounts(source.map((f) => ({ dr: f.dr ?? 0, cr: f.cr ?? 0 })), found.rate);
  }
  return source.map((f, i) => ({ ...f, currencyId: from, accounted: { dr: toText(accounted[i]!.dr), cr: toText(accounted[i]!.cr) } }));
}

/**
 * The facts of a cash journal, as the original's Doc_Cash: each line against its own account with
 * the negated amount (expenses, receipts, charges, differences, invoices to cash transfer, bank
 * transfers to the bank's in-transit), and the cash book's asset with their sum. An invoice or
 * transfer line in another currency than the book's posts its own asset fact in its currency
 * (foreignLineFacts).
 */
export async function cashFacts(d: DocumentContext, lines: readonly CashLine[], bookCurrency: number): Promise<Fact[]> {
  const book = await cashBookAccounts(d);
  const facts: Fact[] = [];
  let asset: Decimal = ZERO;
  for (const l of lines) {
    if (isZero(l.amount)) continue;
    const extra: Partial<Fact> = { lineId: Number(l.c_cashline_id), ...(l.invoice_bpartner ? { bpartnerId: Number(l.invoice_bpartner) } : {}), description: l.description ?? undefined };
    let account: number;
    switch (l.cashtype) {
      case CASH_TYPE.receipt:
        account = book.receipt;
        break;
      case CASH_TYPE.charge: {
        const charge = await chargeAccountOf(d, Number(l.c_charge_id));
        if (charge === null) throw refuse(`charge ${String(l.c_charge_id)} has no account (C_Charge_Acct) in the accounting schema`);
        account = charge;
        break;
      }
      case CASH_TYPE.difference:
        account = book.differences;
        break;
      case CASH_TYPE.invoice:
        account = book.transfer;
        break;
      case CASH_TYPE.transfer: {
        const bank = await bankAccountsOf(d, l.c_bankaccount_id);
        if (bank.inTransit === undefined) throw refuse(`bank account ${String(l.c_bankaccount_id)} has no in-transit account`);
        account = bank.inTransit;
        break;
      }
      default:
        account = book.expense;
    }
    if (Number(l.c_currency_id) !== bookCurrency) {
      facts.push(...(await foreignLineFacts(d, l, book.asset, account, extra)));
      continue;
    }
    facts.push(signedFact(account, negate(l.amount), extra));
    asset = add(asset, l.amount);
  }
  if (!isZero(asset)) facts.push(signedFact(book.asset, toText(asset)));
  return facts;
}
