import type { Correction } from './apply-corrections.js';
import { administrationCorrections } from './corrections/administration.js';
import { authCorrections } from './corrections/auth.js';
import { modelsCorrections } from './corrections/models.js';
import { printCorrections } from './corrections/print.js';
import { processesCorrections } from './corrections/processes.js';
import { readServicesCorrections } from './corrections/read-services.js';
import { recordsCorrections } from './corrections/records.js';
import { uploadsCorrections } from './corrections/uploads.js';
import { viewsCorrections } from './corrections/views.js';
import { windowsCorrections } from './corrections/windows.js';
import { workflowCorrections } from './corrections/workflow.js';

/**
 * Where an upstream document is wrong about its own implementation, by area
 * (corrections/<area>.ts). One entry per correction, each with the line of the original's source
 * that proves it: a path under com.trekglobal.idempiere.rest.api/src/com/trekglobal/idempiere/rest/api/
 * of bxservice/idempiere-rest at cd41207 unless another repository is named. Nothing else is waived.
 */
export const CORRECTIONS: readonly Correction[] = [
  ...recordsCorrections,
  ...authCorrections,
  ...modelsCorrections,
  ...printCorrections,
  ...windowsCorrections,
  ...processesCorrections,
  ...readServicesCorrections,
  ...workflowCorrections,
  ...viewsCorrections,
  ...uploadsCorrections,
  ...administrationCorrections,
];
