import type { ModelEvents } from '../events/model-events.js';
import { registerPaymentSchedules } from './payschedule/invoice-pay-schedule.js';
import { registerPaySelectionRules } from './payselection/selection-rules.js';

/** Rules of payment runs: payment schedules of terms and invoices, payment selections. */
export function registerPayrunRules(events: ModelEvents): void {
  registerPaymentSchedules(events);
  registerPaySelectionRules(events);
}
