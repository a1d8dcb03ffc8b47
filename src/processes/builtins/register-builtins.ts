import { documentPrint } from '../../print/print-process.js';
import { DOCUMENT_PRINT_CLASS } from '../../print/print-processes.js';
import { reportViewReport } from '../../reports/report-process.js';
import { agingReport } from '../../reports/finance/aging.js';
import { financialReport } from '../../reports/finance/fin-report.js';
import { AGING_CLASS, FIN_REPORT_CLASS, GL_DETAIL_CLASS } from '../../seed/financial-statements.js';
import { generalLedgerDetail } from '../../reports/finance/gl-detail.js';
import { DOCUMENT_ACTION_CLASS, REPORT_VIEW_CLASS, type ProcessImplementations } from '../runner.js';
import { validateBPartners } from './bpartner-validate.js';
import { documentAction } from './document-action.js';
import { exportRecords } from './export-records.js';
import { generateInvoices } from './generate-invoices.js';
import { importBPartners } from './import-bpartners.js';
import { roleAccessUpdate } from './role-access-update.js';
import { registerSystemProcesses } from './system-processes.js';
import { periodControlStatus, periodStatus } from './period-status.js';
import { invoiceRevaluation } from '../../documents/period-end/revaluation.js';
import { yearEndClose } from '../../documents/period-end/year-end-close.js';
import { registerPayrunProcesses } from '../../documents/payrun-processes.js';
import { priceListCreate } from '../../documents/pricing/price-list-create.js';

/** Binds the built-in processes to their class keys (AD_Process.Classname). */
export function registerBuiltins(impls: ProcessImplementations): void {
  registerSystemProcesses(impls);
  impls.register(DOCUMENT_ACTION_CLASS, documentAction);
  impls.register(REPORT_VIEW_CLASS, reportViewReport);
  impls.register(DOCUMENT_PRINT_CLASS, documentPrint);
  impls.register(FIN_REPORT_CLASS, financialReport);
  impls.register(AGING_CLASS, agingReport);
  impls.register(GL_DETAIL_CLASS, generalLedgerDetail);
  impls.register('dictum.process.InvoiceGenerateFromShipments', generateInvoices);
  impls.register('dictum.process.ExportRecords', exportRecords);
  impls.register('dictum.process.ImportBPartners', importBPartners);
  impls.register('org.compiere.process.BPartnerValidate', validateBPartners);
  impls.register('org.compiere.process.PeriodStatus', periodStatus);
  impls.register('org.compiere.process.PeriodControlStatus', periodControlStatus);
  impls.register('org.compiere.process.RoleAccessUpdate', roleAccessUpdate);
  impls.register('org.compiere.process.InvoiceNGL', invoiceRevaluation);
  impls.register('dictum.process.YearEndClose', yearEndClose);
  registerPayrunProcesses(impls);
  impls.register('org.compiere.process.M_PriceList_Create', priceListCreate);
}
