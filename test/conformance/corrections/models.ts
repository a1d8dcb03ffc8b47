import type { Correction } from '../apply-corrections.js';

const MODELS = 'v1/resource/impl/ModelResourceImpl.java';

export const modelsCorrections: Correction[] = [
  {
    kind: 'optional',
    target: { component: 'Models', path: ['properties', 'models', 'items'] },
    properties: ['uid', 'description'],
    reason: 'a table without a UUID or a description is listed without them',
    source: `${MODELS}#L302 and #L307 (addProperty only when not empty)`,
  },
  {
    kind: 'optional',
    documents: ['idempiere-rest.PR505'],
    target: { operation: 'GET /models/{tableName}', status: '200' },
    properties: ['records'],
    reason: 'showsql=nodata leaves the records out of the page',
    source: `${MODELS}#L393 (records added only when showData)`,
  },
  {
    kind: 'response',
    operation: 'POST /models/{tableName}/{id}/attachments',
    status: '201',
    content: null,
    reason: 'an attachment entry is added with 201 and no body',
    source: `${MODELS}#L1148 (Response.status(Status.CREATED).build())`,
  },
  {
    kind: 'response',
    operation: 'GET /models/{tableName}/{id}/attachments/{fileName}',
    status: '200',
    content: { '*/*': null, 'application/json': { type: 'object', properties: { data: { type: 'string', format: 'byte' } } } },
    reason: "an entry is sent with its own MIME type (by its file name), or as {data} in base64 with ?json",
    source: `${MODELS}#L1061-L1069 (MimeType.getMimeType(zipFile.getName()); json.addProperty("data", ...))`,
  },
];
