import type { Correction } from '../apply-corrections.js';

const WINDOWS = 'v1/resource/impl/WindowResourceImpl.java';

export const windowsCorrections: Correction[] = [
  {
    kind: 'schema',
    target: { operation: 'GET /windows', status: '200' },
    schema: { type: 'object', properties: { windows: { type: 'array', items: { $ref: '#/$defs/Window' } } } },
    reason: 'the windows come in an object under "windows", not as a bare array',
    source: `${WINDOWS}#L142-L144 (json.add("windows", windowArray))`,
  },
  {
    kind: 'schema',
    documents: ['idempiere-rest.PR505'],
    target: { operation: 'GET /windows/{windowSlug}/tabs/{tabSlug}/{id}/{childTabSlug}', status: '200' },
    schema: {
      type: 'object',
      properties: {
        'page-count': { type: 'integer' },
        'page-size': { type: 'integer' },
        'page-number': { type: 'integer' },
        'row-count': { type: 'integer' },
        'childtab-records': { type: 'array', items: { type: 'object' } },
      },
    },
    reason: 'the records of a child tab come under "childtab-records" (the document copies the window list\'s "window-records")',
    source: `${WINDOWS}#L448-L453 (json.add("childtab-records", queryResult.jsonArray))`,
  },
];
