import type { Tx } from '../../db/types.js';

/** The demo's warehouse differences account: element value and combination (the moves range of ids). */
const DIFFERENCES_ACCOUNT = 1109000;
const FIRST_WAREHOUSE_ACCT = 1109001;

/**
 * Inventory differences of physical counts post to each warehouse's W_Differences_Acct
 * (M_Warehouse_Acct), as the original's Doc_Inventory. The demo client gets an account
 * "56100 Warehouse differences" and a M_Warehouse_Acct row per warehouse of its schema that has
 * none; a database without the demo client is left as it is.
 */
export async function addWarehouseDifferenceAccounts(tx: Tx): Promise<void> {
  const { rows } = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM c_acctschema_default d WHERE d.c_acctschema_id = 101 AND d.ad_client_id = 11`,
  );
  if (!rows[0]?.n) return;
  const now = new Date().toISOString().replace('T', ' ').slice(0, 23);
  await tx.query(
    `INSERT INTO c_elementvalue (c_elementvalue_id, c_elementvalue_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, value, name, description,
       accounttype, accountsign, isdoccontrolled, c_element_id, issummary, postactual, postbudget, postencumbrance, poststatistical, isbankaccount, isdetailbpartner, isdetailproduct)
     SELECT $1, gen_random_uuid()::text, 11, 0, 'Y', $2::timestamp, 100, $2::timestamp, 100, '56100', 'Warehouse differences',
            'Physical inventory differences between the book and the counted quantity', 'E', 'N', 'N', 105, 'N', 'Y', 'Y', 'Y', 'Y', 'N', 'N', 'N'
      WHERE NOT EXISTS (SELECT 1 FROM c_elementvalue WHERE c_elementvalue_id = $1)`,
    [DIFFERENCES_ACCOUNT, now],
  );
  await tx.query(
    `INSERT INTO c_validcombination (c_validcombination_id, c_validcombination_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
       combination, description, c_acctschema_id, account_id, isfullyqualified)
     SELECT $1, gen_random_uuid()::text, 11, 0, 'Y', $2::timestamp, 100, $2::timestamp, 100, 'HQ-56100-_-_-_', 'HQ-Warehouse differences', 101, $1, 'Y'
      WHERE NOT EXISTS (SELECT 1 FROM c_validcombination WHERE c_validcombination_id = $1)`,
    [DIFFERENCES_ACCOUNT, now],
  );
  await tx.query(
    `INSERT INTO m_warehouse_acct (m_warehouse_acct_id, m_warehouse_acct_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
       m_warehouse_id, c_acctschema_id, w_differences_acct)
     SELECT $2 + (row_number() OVER (ORDER BY w.m_warehouse_id))::int - 1, gen_random_uuid()::text, w.ad_client_id, w.ad_org_id, 'Y', $3::timestamp, 100, $3::timestamp, 100,
            w.m_warehouse_id, 101, $1
       FROM m_warehouse w
      WHERE w.ad_client_id = 11 AND NOT EXISTS (SELECT 1 FROM m_warehouse_acct a WHERE a.m_warehouse_id = w.m_warehouse_id AND a.c_acctschema_id = 101)
      ORDER BY w.m_warehouse_id`,
    [DIFFERENCES_ACCOUNT, FIRST_WAREHOUSE_ACCT, now],
  );
}
