import type { ModelEvent, ModelEvents } from '../../events/model-events.js';
import { registerCreditRules } from '../credit/register.js';
import { paymentTermDiscount } from '../payschedule/payment-discount.js';

/** Selling and buying terms: the credit check and open balances, and payment-term discounts on payments. */
export function registerPricingRules(events: ModelEvents): void {
  registerCreditRules(events);
  // After the payment's own defaults (its invoice's open amount as PayAmt).
  for (const type of ['before-new', 'before-change'] as const) events.on(type, 'c_payment', (e: ModelEvent) => paymentTermDiscount(e));
}
