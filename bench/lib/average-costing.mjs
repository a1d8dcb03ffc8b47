/**
 * Costs the demo at Average PO instead of its standard costs: the schema's costing method becomes
 * A and each product's cost row moves to the Average PO element (103) with its price and quantity,
 * so the documents that follow average their receipts and take the rest out at the average.
 */
export async function costDemoAtAverage(db) {
  await db.query(`UPDATE c_acctschema SET costingmethod = 'A' WHERE ad_client_id = 11`);
  await db.query(`UPDATE m_cost SET m_costelement_id = 103, costingmethod = 'A' WHERE ad_client_id = 11 AND m_costelement_id = 100`);
}
