// The business partner as the hand-written server answers it: the same members as Dictum's record
// (the API's column names, nulls left out, booleans, numbers, timestamps as ISO text, and every
// foreign key and list value as {propertyLabel, id, identifier, model-name}), written out by hand
// for this one table, as a server without a dictionary would. The identifiers of foreign keys come
// from the statement; list names are read once at start, as such a server caches them.

/** [API name, kind, label, target]: kinds text, num, bool, ts (timestamp), date, fk (target: [table, key]), list (target: reference id). */
export const PARTNER_COLUMNS = [
  ['AD_Client_ID', 'fk', 'Tenant', ['ad_client', 'ad_client_id']],
  ['AD_Language', 'fk', 'Language', ['ad_language', 'ad_language']],
  ['AD_OrgBP_ID', 'fk', 'Org BP', ['ad_org', 'ad_org_id']],
  ['AD_Org_ID', 'fk', 'Organization', ['ad_org', 'ad_org_id']],
  ['AcqusitionCost', 'num'],
  ['ActualLifeTimeValue', 'num'],
  ['BPartner_Parent_ID', 'fk', 'BPartner Parent', ['c_bpartner', 'c_bpartner_id']],
  ['C_BP_Group_ID', 'fk', 'Business Partner Group', ['c_bp_group', 'c_bp_group_id']],
  ['C_Dunning_ID', 'fk', 'Dunning', ['c_dunning', 'c_dunning_id']],
  ['C_Greeting_ID', 'fk', 'Greeting', ['c_greeting', 'c_greeting_id']],
  ['C_InvoiceSchedule_ID', 'fk', 'Invoice Schedule', ['c_invoiceschedule', 'c_invoiceschedule_id']],
  ['C_PaymentTerm_ID', 'fk', 'Payment Term', ['c_paymentterm', 'c_paymentterm_id']],
  ['Created', 'ts'],
  ['CreatedBy', 'fk', 'Created By', ['ad_user', 'ad_user_id']],
  ['CustomerProfileID', 'text'],
  ['DUNS', 'text'],
  ['Default1099Box_ID', 'fk', 'Default1099Box', ['c_1099box', 'c_1099box_id']],
  ['DeliveryRule', 'list', 'Delivery Rule', 151],
  ['DeliveryViaRule', 'list', 'Delivery Via Rule', 152],
  ['Description', 'text'],
  ['DocumentCopies', 'num'],
  ['DunningGrace', 'date'],
  ['FirstSale', 'date'],
  ['FlatDiscount', 'num'],
  ['FreightCostRule', 'list', 'Freight Cost Rule', 153],
  ['InvoiceRule', 'list', 'Invoice Rule', 150],
  ['Invoice_PrintFormat_ID', 'fk', 'Invoice Print Format', ['ad_printformat', 'ad_printformat_id']],
  ['Is1099Vendor', 'bool'],
  ['IsActive', 'bool'],
  ['IsCustomer', 'bool'],
  ['IsDiscountPrinted', 'bool'],
  ['IsEmployee', 'bool'],
  ['IsManufacturer', 'bool'],
  ['IsOneTime', 'bool'],
  ['IsPOTaxExempt', 'bool'],
  ['IsProspect', 'bool'],
  ['IsSalesRep', 'bool'],
  ['IsSummary', 'bool'],
  ['IsTaxExempt', 'bool'],
  ['IsVendor', 'bool'],
  ['Logo_ID', 'num'],
  ['M_DiscountSchema_ID', 'fk', 'Discount Schema', ['m_discountschema', 'm_discountschema_id']],
  ['M_PriceList_ID', 'fk', 'Price List', ['m_pricelist', 'm_pricelist_id']],
  ['NAICS', 'text'],
  ['Name', 'text'],
  ['Name2', 'text'],
  ['NumberEmployees', 'num'],
  ['POReference', 'text'],
  ['PO_DiscountSchema_ID', 'fk', 'PO Discount Schema', ['m_discountschema', 'm_discountschema_id']],
  ['PO_PaymentTerm_ID', 'fk', 'PO Payment Term', ['c_paymentterm', 'c_paymentterm_id']],
  ['PO_PriceList_ID', 'fk', 'PO Price List', ['m_pricelist', 'm_pricelist_id']],
  ['PaymentRule', 'list', 'Payment Rule', 195],
  ['PaymentRulePO', 'list', 'Payment Rule PO', 195],
  ['PotentialLifeTimeValue', 'num'],
  ['Rating', 'text'],
  ['ReferenceNo', 'text'],
  ['SOCreditStatus', 'list', 'Credit Status', 289],
  ['SO_CreditLimit', 'num'],
  ['SO_CreditUsed', 'num'],
  ['SO_Description', 'text'],
  ['SalesRep_ID', 'fk', 'Sales Representative', ['ad_user', 'ad_user_id']],
  ['SalesVolume', 'num'],
  ['SendEMail', 'bool'],
  ['ShareOfCustomer', 'num'],
  ['ShelfLifeMinPct', 'num'],
  ['TaxID', 'text'],
  ['TotalOpenBalance', 'num'],
  ['URL', 'text'],
  ['Updated', 'ts'],
  ['UpdatedBy', 'fk', 'Updated By', ['ad_user', 'ad_user_id']],
  ['Value', 'text'],
];

const col = (name) => name.toLowerCase();

/**
 * The select list over the partner `p`: each identifier as <column>$i, looked up by key in a
 * subquery of its own (20 LEFT JOINs cost PostgreSQL 50 ms of planning and a plan of sorts and merges).
 */
function selectList() {
  const items = ['p.c_bpartner_id', 'p.c_bpartner_uu'];
  for (const [name, kind, , target] of PARTNER_COLUMNS) {
    const c = `p.${col(name)}`;
    // The format's colons are quoted: pgbench, which replays these statements, reads :name as a variable.
    if (kind === 'ts') items.push(`to_char(${c}, 'YYYY-MM-DD"T"HH24":"MI":"SS"Z"') AS ${col(name)}`);
    else if (kind === 'date') items.push(`to_char(${c}, 'YYYY-MM-DD') AS ${col(name)}`);
    else items.push(c);
    if (kind === 'fk') items.push(`(SELECT t.name FROM ${target[0]} t WHERE t.${target[1]} = ${c}) AS "${col(name)}$i"`);
  }
  return items.join(', ');
}

const items = selectList();

/** The page statement. */
export const pageWithIdentifiers = (where) => `SELECT ${items} FROM c_bpartner p WHERE ${where} ORDER BY p.name, p.c_bpartner_id LIMIT $3 OFFSET $4`;

/** One partner by id with its identifiers. */
export const byIdWithIdentifiers = (where) => `SELECT ${items} FROM c_bpartner p WHERE ${where}`;

/** The lists' names by reference and value, read once: {referenceId: Map(value, name)}. */
export async function loadListNames(pool) {
  const refs = [...new Set(PARTNER_COLUMNS.filter((c) => c[1] === 'list').map((c) => c[3]))];
  const { rows } = await pool.query('SELECT ad_reference_id AS r, value, name FROM ad_ref_list WHERE ad_reference_id = ANY($1::int[]) AND isactive = $2', [refs, 'Y']);
  const out = new Map(refs.map((r) => [r, new Map()]));
  for (const row of rows) out.get(Number(row.r)).set(row.value, row.name);
  return out;
}

/** A row of the page statement as the API's record. */
export function partnerRecord(row, lists) {
  const out = { id: Number(row.c_bpartner_id), uid: row.c_bpartner_uu };
  for (const [name, kind, label, target] of PARTNER_COLUMNS) {
    const v = row[col(name)];
    if (v === null || v === undefined) continue;
    if (kind === 'num') out[name] = Number(v);
    else if (kind === 'bool') out[name] = v === 'Y';
    else if (kind === 'fk') out[name] = { propertyLabel: label, id: target[1] === 'ad_language' ? v : Number(v), identifier: row[`${col(name)}$i`], 'model-name': target[0] };
    else if (kind === 'list') out[name] = { propertyLabel: label, id: v, identifier: lists.get(target)?.get(v) ?? v, 'model-name': 'ad_ref_list' };
    else out[name] = v;
  }
  out['model-name'] = 'c_bpartner';
  return out;
}
