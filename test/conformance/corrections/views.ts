import type { Correction } from '../apply-corrections.js';

const VIEWS = 'v1/resource/impl/ViewResourceImpl.java';
const MODELS = 'v1/resource/impl/ModelResourceImpl.java';
const VIEW_LIST = (...path: string[]) => ({ operation: 'GET /views', status: '200', path: ['properties', 'views', 'items', ...path] });

export const viewsCorrections: Correction[] = [
  {
    kind: 'optional',
    target: VIEW_LIST(),
    properties: ['uid', 'whereClause', 'columns', 'relatedViews'],
    reason: 'a view is listed without a UUID, where clause, columns or related views it does not have',
    source: `${VIEWS}#L104-L106, #L111-L113, #L115-L144 (columns only when there are some), #L146-L167 (related views likewise)`,
  },
  {
    kind: 'optional',
    target: VIEW_LIST('properties', 'columns', 'items'),
    properties: ['uid', 'help'],
    reason: 'a view column is listed without a UUID, and without help when its column has neither help nor description',
    source: `${VIEWS}#L120-L122, #L126-L132`,
  },
  {
    kind: 'optional',
    documents: ['idempiere-rest.PR505'],
    target: { operation: 'GET /views/{viewName}', status: '200' },
    properties: ['records'],
    reason: 'showsql=nodata leaves the records out of the page (the views share the models implementation)',
    source: `${VIEWS}#L82-L86 (getPOs of ModelResourceImpl with the view); ${MODELS}#L393`,
  },
  {
    kind: 'response',
    operation: 'POST /views/{viewName}/{id}/attachments',
    status: '201',
    content: null,
    reason: 'an attachment entry is added with 201 and no body',
    source: `${VIEWS}#L215-L217 (addAttachmentEntry of ModelResourceImpl); ${MODELS}#L1148`,
  },
  {
    kind: 'response',
    operation: 'GET /views/{viewName}/{id}/attachments/{fileName}',
    status: '200',
    content: { '*/*': null, 'application/json': { type: 'object', properties: { data: { type: 'string', format: 'byte' } } } },
    reason: 'an entry is sent with its own MIME type (by its file name), or as {data} in base64 with ?json',
    source: `${VIEWS}#L210-L212 (getAttachmentEntry of ModelResourceImpl); ${MODELS}#L1061-L1069`,
  },
];
