import type { DocumentContext } from '../engine/document-type.js';

/**
 * The account (C_ElementValue_ID) of the charge `chargeSql` names: its C_Charge_Acct.Ch_Expense_Acct
 * in the client's accounting schema, the one account the original posts a charge to whatever the
 * side (MCharge.getAccount). Null when the charge has no accounts there.
 */
export const chargeAccountSql = (chargeSql: string, clientSql: string): string =>
  `(SELECT v.account_id FROM c_charge_acct ca JOIN c_validcombination v ON v.c_validcombination_id = ca.ch_expense_acct
     WHERE ca.c_charge_id = ${chargeSql} AND ca.isactive = 'Y'
       AND ca.c_acctschema_id = (SELECT d.c_acctschema_id FROM c_acctschema_default d WHERE d.ad_client_id = ${clientSql} AND d.isactive = 'Y' ORDER BY d.c_acctschema_id LIMIT 1))`;

/** The account of a document's charge (header C_Charge_ID), or null when it has none. */
export async function chargeAccountOf(d: DocumentContext, chargeId: number): Promise<number | null> {
  const { rows } = await d.wc.tx.query<{ account: number | null }>(`SELECT ${chargeAccountSql('$1', '$2')} AS account`, [chargeId, d.row.ad_client_id], {
    name: 'doc_charge_account',
  });
  const account = rows[0]?.account;
  return account === null || account === undefined ? null : Number(account);
}
