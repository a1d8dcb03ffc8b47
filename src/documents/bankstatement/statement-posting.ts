import { compare, dec, isZero, negated, toText, type DecimalInput } from '../decimal.js';
import { ident } from '../../db/sql.js';
import { accountSchema, type Fact } from '../accounting/facts.js';
import { chargeAccountOf } from '../accounting/charge-account.js';
import { refuse, type DocumentContext } from '../engine/document-type.js';
import { statementOrgs } from './statement-orgs.js';

/** The accounts (C_ElementValue_ID) a bank account posts to: its C_BankAccount_Acct, else the schema's defaults. */
export interface BankAccounts {
  asset: number | undefined;
  inTransit: number | undefined;
  interestRev: number | undefined;
  interestExp: number | undefined;
}

/**
 * The accounts (C_ElementValue_ID) an accounting row gives, by column (B_Asset_Acct, CB_Asset_Acct ...):
 * the row of `table` whose `keyColumn` is `id` in the client's schema; null when there is none.
 */
export async function accountsOfRow(d: DocumentContext, table: string, keyColumn: string, id: unknown, columns: readonly string[]): Promise<Record<string, number | undefined> | null> {
  const schema = await accountSchema(d);
  const list = columns.map((c) => `(SELECT v.account_id FROM c_validcombination v WHERE v.c_validcombination_id = a.${ident(c)}) AS ${ident(c)}`).join(', ');
  const { rows } = await d.wc.tx.query<Record<string, number | null>>(
    `SELECT ${list} FROM ${ident(table)} a WHERE a.${ident(keyColumn)} = $1 AND a.c_acctschema_id = $2 AND a.isactive = 'Y' LIMIT 1`,
    [id, schema.schemaId],
  );
  const r = rows[0];
  if (!r) return null;
  return Object.fromEntries(columns.map((c) => [c, r[c] === null || r[c] === undefined ? undefined : Number(r[c])]));
}

export async function bankAccountsOf(d: DocumentContext, bankAccountId: unknown): Promise<BankAccounts> {
  const schema = await accountSchema(d);
  const r = (await accountsOfRow(d, 'c_bankaccount_acct', 'c_bankaccount_id', bankAccountId, ['b_asset_acct', 'b_intransit_acct', 'b_interestrev_acct', 'b_interestexp_acct'])) ?? {};
  return {
    asset: r.b_asset_acct ?? schema.accounts.b_asset_acct,
    inTransit: r.b_intransit_acct ?? schema.accounts.b_intransit_acct,
    interestRev: r.b_interestrev_acct,
    interestExp: r.b_interestexp_acct,
  };
}

/** A fact of a signed amount: a positive one debits the account, a negative one credits it (the original's Fact.createLine). */
export function signedFact(account: number, amount: DecimalInput, extra: Partial<Fact> = {}): Fact {
  return dec(amount).units >= 0n ? { ...extra, account, dr: toText(amount) } : { ...extra, account, cr: negated(amount) };
}

export interface StatementLine {
  c_bankstatementline_id: number;
  c_bpartner_id: number | null;
  c_charge_id: number | null;
  stmtamt: string;
  trxamt: string;
  chargeamt: string;
  interestamt: string;
  description: string | null;
}

const need = (account: number | undefined, what: string): number => {
  if (account === undefined) throw refuse(`the bank account has no ${what} account (C_BankAccount_Acct)`);
  return account;
};

/**
 * The facts of a bank statement, per line as the original's Doc_BankStatement: the statement
 * amount to the bank asset, the transaction amount from the bank in transit, the charge amount to
 * the charge's account and the interest to interest revenue (or expense); the bank facts in the
 * bank account's organization (statementOrgs).
 */
export async function statementFacts(d: DocumentContext, lines: readonly StatementLine[]): Promise<Fact[]> {
  const accounts = await bankAccountsOf(d, d.row.c_bankaccount_id);
  const orgs = await statementOrgs(d);
  // The line's own fields, with the organization when the fact takes one (no object spreads: a statement has thousands of facts).
  const lineFields = (l: StatementLine, orgId?: number): Partial<Fact> => {
    const extra: Partial<Fact> = { lineId: Number(l.c_bankstatementline_id), bpartnerId: l.c_bpartner_id === null ? null : Number(l.c_bpartner_id) };
    if (orgId !== undefined) extra.orgId = orgId;
    return extra;
  };
  const charges = new Map<number, number>();
  const facts: Fact[] = [];
  for (const l of lines) {
    const extra = lineFields(l);
    facts.push(signedFact(need(accounts.asset, 'bank asset'), l.stmtamt, lineFields(l, orgs.bank)));
    if (!isZero(l.trxamt)) facts.push(signedFact(need(accounts.inTransit, 'bank in transit'), negate(l.trxamt), lineFields(l, orgs.inTransit(Number(l.c_bankstatementline_id)))));
    if (!isZero(l.chargeamt)) {
      const chargeId = Number(l.c_charge_id);
      if (!charges.has(chargeId)) {
        const account = await chargeAccountOf(d, chargeId);
        if (account === null) throw refuse(`charge ${chargeId} has no account (C_Charge_Acct) in the accounting schema`);
        charges.set(chargeId, account);
      }
      facts.push(signedFact(charges.get(chargeId)!, negate(l.chargeamt), extra));
    }
    if (!isZero(l.interestamt)) {
      const revenue = compare(l.interestamt, 0) > 0;
      const account = revenue ? need(accounts.interestRev, 'interest revenue') : need(accounts.interestExp, 'interest expense');
      facts.push(signedFact(account, negate(l.interestamt), extra));
    }
  }
  return facts;
}

export const negate = negated;
