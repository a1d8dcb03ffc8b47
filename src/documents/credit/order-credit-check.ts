import type { ModelEvent } from '../../events/model-events.js';
import { convertedSql } from '../accounting/conversion.js';
import { compare } from '../decimal.js';
import { documentTypeRow } from '../document-types.js';
import { refuse } from '../engine/document-type.js';
import { idOf } from '../row-values.js';
import { creditStatus, STATUS_NAMES } from './credit-status.js';
import { creditStateKey, type CreditState } from '../pricing/partner-discount.js';

/** The SysConfig switches of the original that skip the check for cash POS and prepay orders (both default Y). */
const SKIP_SWITCH: Record<string, string> = { WR: 'CHECK_CREDIT_ON_CASH_POS_ORDER', PR: 'CHECK_CREDIT_ON_PREPAY_ORDER' };

async function switchedOff(e: ModelEvent, name: string): Promise<boolean> {
  const { rows } = await e.tx.query<{ value: string }>(
    `SELECT value FROM ad_sysconfig WHERE name = $1 AND isactive = 'Y' AND ad_client_id IN (0, $2) AND ad_org_id IN (0, $3)
      ORDER BY ad_client_id DESC, ad_org_id DESC LIMIT 1`,
    [name, e.row.ad_client_id, e.row.ad_org_id],
  );
  return rows[0]?.value === 'N';
}

/** Whether the original skips the check for this order: a cash POS order or a prepay order when their switch is N. */
async function skipped(e: ModelEvent): Promise<boolean> {
  const typeId = idOf(e.row.c_doctypetarget_id) ?? idOf(e.row.c_doctype_id);
  const subtype = typeId === null ? null : (await documentTypeRow(e.tx, e.memo, typeId))?.docsubtypeso ?? null;
  const name = subtype ? SKIP_SWITCH[subtype] : undefined;
  if (!name || (subtype === 'WR' && e.row.paymentrule !== 'B')) return false;
  return switchedOff(e, name);
}

interface PartnerCredit {
  name: string;
  socreditstatus: string | null;
  so_creditlimit: string;
  totalopenbalance: string;
  creditwatchpercent: string | null;
  /** The order's grand total in the base currency at its order date (null without a rate). */
  amount: string | null;
}

const PARTNER_CREDIT_SQL = `SELECT bp.name, bp.socreditstatus, COALESCE(bp.so_creditlimit, 0)::text AS so_creditlimit,
    COALESCE(bp.totalopenbalance, 0)::text AS totalopenbalance, g.creditwatchpercent::text AS creditwatchpercent,
    (${convertedSql('$2::numeric', '$3::bigint', '(SELECT s.c_currency_id FROM c_acctschema s WHERE s.ad_client_id = bp.ad_client_id ORDER BY s.c_acctschema_id LIMIT 1)', '$4::bigint', '$5::timestamp', 'bp.ad_client_id')})::text AS amount
  FROM c_bpartner bp LEFT JOIN c_bp_group g ON g.c_bp_group_id = bp.c_bp_group_id WHERE bp.c_bpartner_id = $1`;

/**
 * The original's credit check of a sales order's prepare (CreditManagerOrder), on its bill-to
 * partner, for a positive grand total: refused when the partner is on credit stop or credit hold,
 * or when its open balance plus the order (in the base currency at the order date) would put it
 * over its credit limit. A partner with No Credit Check, or without a limit, is not checked: an
 * administrator overrides the check by setting that status (or raising the limit) by hand.
 */
export async function orderCreditCheck(e: ModelEvent): Promise<void> {
  const row = e.row;
  if (row.issotrx !== 'Y' || compare(String(row.grandtotal ?? 0), 0) <= 0) return;
  const partnerId = idOf(row.bill_bpartner_id) ?? idOf(row.c_bpartner_id);
  if (partnerId === null) return;
  // Pricing the lines in the same request read the partner's status and limit: nothing to check without a statement more.
  const known = await e.memo.peek<CreditState>('c_bpartner', creditStateKey(partnerId));
  if (known && (known.status === 'X' || (known.status !== 'S' && known.status !== 'H' && compare(known.limit, 0) === 0))) return;
  const { rows } = await e.tx.query<PartnerCredit>(
    PARTNER_CREDIT_SQL,
    [partnerId, String(row.grandtotal), idOf(row.c_currency_id), idOf(row.c_conversiontype_id), row.dateordered],
    { name: 'doc_order_credit' },
  );
  const bp = rows[0];
  if (!bp || bp.socreditstatus === 'X') return;
  if ((bp.socreditstatus === 'S' || bp.socreditstatus === 'H') && (await skipped(e))) return;
  const named = `business partner ${bp.name}`;
  if (bp.socreditstatus === 'S') throw refuse(`the ${named} is on ${STATUS_NAMES.S} (SOCreditStatus S)`);
  if (bp.socreditstatus === 'H') throw refuse(`the ${named} is on ${STATUS_NAMES.H} (SOCreditStatus H)`);
  if (compare(bp.so_creditlimit, 0) === 0) return;
  if (bp.amount === null) throw refuse(`no conversion rate for the order's total to the accounting currency on ${String(row.dateordered).slice(0, 10)}: the credit check cannot run`);
  const facts = { status: bp.socreditstatus, limit: bp.so_creditlimit, openBalance: bp.totalopenbalance, watchPercent: bp.creditwatchpercent };
  if (creditStatus(facts, bp.amount) === 'H' && !(await skipped(e))) {
    throw refuse(`the order would put the ${named} over its credit limit: open balance ${bp.totalopenbalance} + order ${bp.amount} > credit limit ${bp.so_creditlimit} (${STATUS_NAMES.H})`);
  }
}
