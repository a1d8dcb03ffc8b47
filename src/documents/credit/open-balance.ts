import type { Queryable } from '../../db/types.js';
import { convertedSql } from '../accounting/conversion.js';
import { INVOICE_SENSE_SQL, OPEN_AMOUNT_SQL, PAYMENT_SENSE_SQL, UNALLOCATED_SQL } from '../engine/settlement.js';

/** The currency of the client's (first) accounting schema, for balances in the base currency. */
const BASE_CURRENCY = (client: string) => `(SELECT s.c_currency_id FROM c_acctschema s WHERE s.ad_client_id = ${client} ORDER BY s.c_acctschema_id LIMIT 1)`;

/** What is open of a completed invoice, signed as a receivable (customer credit memos and vendor invoices negative), in the base currency. */
const INVOICE_OPEN = `${convertedSql(`(${OPEN_AMOUNT_SQL('i')}) * ${INVOICE_SENSE_SQL('i')}`, 'i.c_currency_id', BASE_CURRENCY('i.ad_client_id'), 'i.c_conversiontype_id', 'i.dateacct', 'i.ad_client_id')}`;

/** What is unallocated of a completed payment, receipts positive, in the base currency. */
const PAYMENT_OPEN = `${convertedSql(`(${UNALLOCATED_SQL('p')}) * ${PAYMENT_SENSE_SQL('p')}`, 'p.c_currency_id', BASE_CURRENCY('p.ad_client_id'), 'p.c_conversiontype_id', 'p.datetrx', 'p.ad_client_id')}`;

/**
 * TotalOpenBalance, SO_CreditUsed and SOCreditStatus of partners, as the original's MBPartner
 * setTotalOpenBalance and setSOCreditStatus: the open balance is what is open of completed
 * invoices less unallocated completed payments without a charge; credit used counts open sales
 * invoices only; the status follows (see creditStatus: no check, stop and partners without a
 * limit keep theirs; hold over the limit, watch over the group's watch percent of it, else OK).
 */
const REFRESH_SQL = `WITH x AS (
  SELECT bp.c_bpartner_id,
         COALESCE((SELECT sum(${INVOICE_OPEN}) FROM c_invoice i WHERE i.c_bpartner_id = bp.c_bpartner_id AND i.docstatus IN ('CO', 'CL')), 0)
       - COALESCE((SELECT sum(${PAYMENT_OPEN}) FROM c_payment p WHERE p.c_bpartner_id = bp.c_bpartner_id AND p.docstatus IN ('CO', 'CL')
                      AND p.isallocated = 'N' AND p.c_charge_id IS NULL), 0) AS open,
         COALESCE((SELECT sum(${INVOICE_OPEN}) FROM c_invoice i WHERE i.c_bpartner_id = bp.c_bpartner_id AND i.docstatus IN ('CO', 'CL') AND i.issotrx = 'Y'), 0) AS used,
         COALESCE(NULLIF(g.creditwatchpercent, 0), 90) / 100 AS ratio
    FROM c_bpartner bp LEFT JOIN c_bp_group g ON g.c_bp_group_id = bp.c_bp_group_id
   WHERE bp.c_bpartner_id = ANY($1::bigint[]))
UPDATE c_bpartner bp SET totalopenbalance = x.open, so_creditused = x.used,
       socreditstatus = CASE WHEN bp.socreditstatus IN ('X', 'S') OR COALESCE(bp.so_creditlimit, 0) = 0 THEN bp.socreditstatus
                             WHEN x.open > bp.so_creditlimit THEN 'H' WHEN x.open > bp.so_creditlimit * x.ratio THEN 'W' ELSE 'O' END
  FROM x WHERE bp.c_bpartner_id = x.c_bpartner_id`;

/** Recomputes the open balance, credit used and credit status of partners (see REFRESH_SQL). */
export async function refreshPartnerCredit(q: Queryable, partnerIds: readonly (number | null)[]): Promise<void> {
  const ids = [...new Set(partnerIds.filter((id): id is number => id !== null))];
  if (!ids.length) return;
  await q.query(REFRESH_SQL, [ids], { name: 'doc_partner_credit' });
}
