import type { ProcessImplementations } from '../../processes/runner.js';
import { paySelectionCreateCheck } from './create-checks.js';
import { paySelectionCreateFrom } from './create-from.js';
import { paySelectionPayments } from './pay-checks.js';

/** The processes of payment runs and dunning, by their class keys (AD_Process.Classname). */
export function registerPayrunProcesses(impls: ProcessImplementations): void {
  impls.register('org.compiere.process.PaySelectionCreateFrom', paySelectionCreateFrom);
  impls.register('org.compiere.process.PaySelectionCreateCheck', paySelectionCreateCheck);
  impls.register('dictum.process.PaySelectionPayments', paySelectionPayments);
}
