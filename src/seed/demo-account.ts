import type { Tx } from '../db/types.js';

export interface DemoAccount {
  /** The element value's id, also its combination's. */
  id: number;
  value: string;
  name: string;
  description: string;
  /** C_ElementValue.AccountType: E expense, L liability, A asset... */
  type: string;
}

/**
 * An account of the demo's chart (element 105) with its fully qualified combination in the demo
 * schema (101), each unless it exists already.
 */
export async function addDemoAccount(tx: Tx, a: DemoAccount, now: string): Promise<void> {
  await tx.query(
    `INSERT INTO c_elementvalue (c_elementvalue_id, c_elementvalue_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, value, name, description,
       accounttype, accountsign, isdoccontrolled, c_element_id, issummary, postactual, postbudget, postencumbrance, poststatistical, isbankaccount, isdetailbpartner, isdetailproduct)
     SELECT $1, gen_random_uuid()::text, 11, 0, 'Y', $2::timestamp, 100, $2::timestamp, 100, $3, $4, $5, $6, 'N', 'N', 105, 'N', 'Y', 'Y', 'Y', 'Y', 'N', 'N', 'N'
      WHERE NOT EXISTS (SELECT 1 FROM c_elementvalue WHERE c_elementvalue_id = $1)`,
    [a.id, now, a.value, a.name, a.description, a.type],
  );
  await tx.query(
    `INSERT INTO c_validcombination (c_validcombination_id, c_validcombination_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
       combination, description, c_acctschema_id, account_id, isfullyqualified)
     SELECT $1, gen_random_uuid()::text, 11, 0, 'Y', $2::timestamp, 100, $2::timestamp, 100, $3, $4, 101, $1, 'Y'
      WHERE NOT EXISTS (SELECT 1 FROM c_validcombination WHERE c_validcombination_id = $1)`,
    [a.id, now, `HQ-${a.value}-_-_-_`, `HQ-${a.name}`],
  );
}
