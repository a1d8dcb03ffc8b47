import type { ProcessImplementations } from '../../processes/runner.js';
import { replenishReport } from './replenish-report.js';
import { REPLENISH_REPORT_CLASS } from './replenish-seed.js';

export function registerReplenishProcesses(impls: ProcessImplementations): void {
  impls.register(REPLENISH_REPORT_CLASS, replenishReport);
}
