import type { Correction } from '../apply-corrections.js';

export const administrationCorrections: Correction[] = [
  {
    kind: 'optional',
    target: { operation: 'GET /health', status: '200' },
    properties: ['database'],
    reason: 'the database member is there only when the database was checked (db=true)',
    source: 'v1/resource/impl/HealthResourceImpl.java#L164-L166 (database added only when dbStatus is not null)',
  },
];
