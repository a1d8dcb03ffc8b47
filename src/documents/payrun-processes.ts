import type { ProcessImplementations } from '../processes/runner.js';
import { paySelectionCreateCheck } from './payselection/create-checks.js';
import { paySelectionCreateFrom } from './payselection/create-from.js';
import { paySelectionPayments } from './payselection/pay-checks.js';
import { paySelectionReversePrepare } from './payselection/reverse-prepare.js';
import { dunningRunCreate } from './dunning/run-create.js';
import { dunningPrint } from './dunning/dunning-print.js';
import { dunningRunProcess } from './dunning/run-process.js';
import { openItemsReport } from './payschedule/open-items.js';

/** The processes of payment runs and dunning, by their class keys (AD_Process.Classname). */
export function registerPayrunProcesses(impls: ProcessImplementations): void {
  impls.register('org.compiere.process.PaySelectionCreateFrom', paySelectionCreateFrom);
  impls.register('org.compiere.process.PaySelectionCreateCheck', paySelectionCreateCheck);
  impls.register('dictum.process.PaySelectionPayments', paySelectionPayments);
  impls.register('org.compiere.process.PaySelectionCheckReverse', paySelectionReversePrepare);
  impls.register('org.compiere.process.DunningRunCreate', dunningRunCreate);
  impls.register('org.compiere.process.DunningPrint', dunningPrint);
  impls.register('dictum.process.DunningRunProcess', dunningRunProcess);
  impls.register('dictum.report.OpenItems', openItemsReport);
}
