import type { Correction } from '../apply-corrections.js';

const PROCESS = 'json/Process.java';

export const processesCorrections: Correction[] = [
  {
    kind: 'optional',
    target: { component: 'Process' },
    properties: ['parameters'],
    reason: 'the list of processes leaves the parameters out; GET /processes/{slug} adds them',
    source: 'v1/resource/impl/ProcessResourceImpl.java#L111-L113 (the list: the process and its slug), #L164-L176 (one process: parameters added)',
  },
  {
    kind: 'optional',
    target: { component: 'ProcessInfo' },
    properties: ['reportFile', 'reportFileName', 'reportFileLength', 'exportFile', 'exportFileName', 'exportFileLength', 'nodeId'],
    reason:
      'a run answers reportFile* only when it made a PDF report, exportFile* only when it made an export (HTML, CSV, XLS, ...), ' +
      'and nodeId only on a cluster member',
    source: `${PROCESS}#L297-L301 (reportFile when getPDFReport() is not null), #L302-L307 (exportFile when getExportFile() is not null), #L308-L311 (nodeId when there is a local cluster member)`,
  },
];
