import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate } from '../../../src/db/migrate.js';
import { loadDictionary } from '../../../src/dictionary/load.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

describe('migration 81 (inventory clearing and invoice price variance accounts, double purchase order matches)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('brings the accounts to a database built before them and merges the receipt copy of a matched pair', async () => {
    const db = server.services.db;
    // A database as it was before: no such default accounts, and the demo receipt lines matched
    // twice (the invoice's match naming the receipt line, and the receipt's own).
    await db.exec(`ALTER TABLE c_acctschema_default DROP COLUMN p_inventoryclearing_acct, DROP COLUMN p_invoicepricevariance_acct;
      DELETE FROM ad_column WHERE ad_table_id = 315 AND columnname IN ('P_InventoryClearing_Acct', 'P_InvoicePriceVariance_Acct');
      DELETE FROM ad_element WHERE columnname IN ('P_InventoryClearing_Acct', 'P_InvoicePriceVariance_Acct');
      DELETE FROM c_validcombination WHERE c_validcombination_id IN (51290, 58100);
      DELETE FROM c_elementvalue WHERE c_elementvalue_id IN (51290, 58100);
      INSERT INTO m_matchpo (m_matchpo_id, m_matchpo_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, c_orderline_id, m_inoutline_id,
        m_product_id, datetrx, dateacct, qty, processed, posted, isapproved, documentno)
      SELECT nextval('m_matchpo_sq'), gen_random_uuid()::text, ad_client_id, ad_org_id, 'Y', created, createdby, updated, updatedby, c_orderline_id, m_inoutline_id,
        m_product_id, datetrx, dateacct, qty, 'Y', 'N', 'Y', documentno FROM m_matchpo WHERE m_inoutline_id IN (102, 103) AND c_invoiceline_id IS NOT NULL;
      DELETE FROM dictum.migration WHERE version = 81`);
    const before = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM m_matchpo WHERE m_inoutline_id IN (102, 103)`);
    assert.equal(before.rows[0]!.n, 4, 'each demo receipt line matched twice');
    assert.deepEqual(await migrate(db), [81]);
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT d.p_inventoryclearing_acct AS clearing, d.p_invoicepricevariance_acct AS ipv,
              (SELECT name FROM c_elementvalue WHERE c_elementvalue_id = 58100) AS ipv_name,
              (SELECT count(*)::int FROM m_matchpo WHERE m_inoutline_id IN (102, 103)) AS matches,
              (SELECT count(*)::int FROM m_matchpo WHERE m_inoutline_id IN (102, 103) AND c_invoiceline_id IS NOT NULL) AS with_invoice
         FROM c_acctschema_default d WHERE d.c_acctschema_id = 101`,
    );
    assert.deepEqual(rows[0], { clearing: 51290, ipv: 58100, ipv_name: 'Invoice price variance', matches: 2, with_invoice: 2 });
    const dict = await loadDictionary(db, 100);
    const table = dict.byName.get('c_acctschema_default')!;
    assert.ok(table.byName.has('p_inventoryclearing_acct') && table.byName.has('p_invoicepricevariance_acct'));
    assert.deepEqual(await migrate(db), [], 'applied once');
  });
});
