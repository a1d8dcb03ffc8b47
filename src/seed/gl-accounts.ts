import type { Tx } from '../db/types.js';

/**
 * Accounts of the demo chart that journals and period end post to, at the ids (= values) of the
 * demo's other accounts: capital for opening balances, retained earnings for the year-end close,
 * unrealized gain and loss for the revaluation of open items; each with its combination.
 */
const ACCOUNTS: readonly [value: string, name: string, type: string, description: string][] = [
  ['31000', 'Capital/Common Stock', 'O', 'Owner capital, the other side of opening balances'],
  ['32900', 'Retained Earnings', 'O', 'Year end processing to balance account (Income Summary)'],
  ['80530', 'Unrealized gain', 'R', 'Difference between foreign currency receivables/payables and current rate'],
  ['82530', 'Unrealized loss', 'E', 'Difference between foreign currency receivables/payables and current rate'],
];

export async function addGlAccounts(tx: Tx): Promise<void> {
  const { rows } = await tx.query<{ c_element_id: number; ad_client_id: number; c_acctschema_id: number }>(
    `SELECT ev.c_element_id, ev.ad_client_id, (SELECT min(s.c_acctschema_id) FROM c_acctschema s WHERE s.ad_client_id = ev.ad_client_id) AS c_acctschema_id
       FROM c_elementvalue ev WHERE ev.c_elementvalue_id = 11100`,
  );
  const demo = rows[0];
  // A database without the demo chart has nothing to add to.
  if (!demo?.c_acctschema_id) return;
  for (const [value, name, type, description] of ACCOUNTS) {
    await tx.query(
      `INSERT INTO c_elementvalue (c_elementvalue_id, c_elementvalue_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, c_element_id,
         value, name, description, accounttype, accountsign, issummary, isdoccontrolled, isbankaccount, isforeigncurrency, postactual, postbudget,
         postencumbrance, poststatistical, isdetailbpartner, isdetailproduct)
       VALUES ($1, md5($8)::uuid::text, $2, 0, 'Y', now(), 100, now(), 100, $3, $4, $5, $6, $7, 'N', 'N', 'N', 'N', 'N', 'Y', 'Y', 'Y', 'Y', 'N', 'N')
       ON CONFLICT DO NOTHING`,
      [Number(value), demo.ad_client_id, demo.c_element_id, value, name, description, type, `C_ElementValue:${value}`],
    );
    await tx.query(
      `INSERT INTO c_validcombination (c_validcombination_id, c_validcombination_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
         combination, description, c_acctschema_id, account_id, isfullyqualified)
       VALUES ($1, md5($6)::uuid::text, $2, 0, 'Y', now(), 100, now(), 100, $3, $4, $5, $1, 'Y')
       ON CONFLICT DO NOTHING`,
      [Number(value), demo.ad_client_id, `HQ-${value}-_-_-_`, `HQ-${name}`, demo.c_acctschema_id, `C_ValidCombination:${value}`],
    );
  }
}
