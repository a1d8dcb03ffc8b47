import { forbidden } from '../../errors.js';
import type { ModelEvent, ModelEvents } from '../../events/model-events.js';
import { idOf } from '../row-values.js';
import { creditStatus } from './credit-status.js';
import { refreshPartnerCredit } from './open-balance.js';
import { orderCreditCheck } from './order-credit-check.js';

/** Actions after which a document's amounts count differently in its partner's open balance. */
const SETTLING_EVENTS = ['after-complete', 'after-void', 'after-close', 'after-reactivate', 'after-reverse-correct', 'after-reverse-accrual'] as const;

async function refreshAllocationPartners(e: ModelEvent): Promise<void> {
  const { rows } = await e.tx.query<{ id: number }>('SELECT DISTINCT c_bpartner_id AS id FROM c_allocationline WHERE c_allocationhdr_id = $1 AND c_bpartner_id IS NOT NULL', [
    e.row.c_allocationhdr_id,
  ]);
  await refreshPartnerCredit(e.tx, rows.map((r) => Number(r.id)));
}

/**
 * A partner's credit status and limit are the administrator's to set by hand (the override of the
 * credit check); a changed limit gives the status the open balance then has.
 */
async function partnerCreditBeforeChange(e: ModelEvent): Promise<void> {
  const status = e.changed.has('socreditstatus');
  const limit = e.changed.has('so_creditlimit');
  if (!status && !limit) return;
  if (!e.auth.isClientAdministrator) throw forbidden('Access denied', 'Only a client administrator may change a business partner\'s credit status or credit limit (columns SOCreditStatus, SO_CreditLimit)');
  if (status) return;
  const { rows } = await e.tx.query<{ p: string | null }>('SELECT creditwatchpercent::text AS p FROM c_bp_group WHERE c_bp_group_id = $1', [idOf(e.row.c_bp_group_id)]);
  const next = creditStatus({ status: (e.row.socreditstatus as string | null) ?? null, limit: String(e.row.so_creditlimit ?? 0), openBalance: String(e.row.totalopenbalance ?? 0), watchPercent: rows[0]?.p ?? 0 });
  if (next !== null) e.row.socreditstatus = next;
}

/** Credit management: the sales order's credit check, and partners' open balances kept with their invoices, payments and allocations. */
export function registerCreditRules(events: ModelEvents): void {
  events.on('before-prepare', 'c_order', orderCreditCheck);
  events.on('before-change', 'c_bpartner', partnerCreditBeforeChange);
  for (const type of SETTLING_EVENTS) {
    for (const table of ['c_invoice', 'c_payment']) events.on(type, table, (e: ModelEvent) => refreshPartnerCredit(e.tx, [idOf(e.row.c_bpartner_id)]));
    events.on(type, 'c_allocationhdr', refreshAllocationPartners);
  }
}
