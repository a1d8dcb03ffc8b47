import type { Schema } from './record-schema.js';

/** What the document says of an operation beyond its path: query options, success status and body. */
export interface OperationFacts {
  summary?: string;
  query?: string[];
  status?: number;
  response?: Schema;
  request?: Schema;
  contentType?: string;
}

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const LIST_OPTIONS = ['$filter', '$orderby', '$top', '$skip', '$select', '$expand', '$valrule', '$context', 'showsql', 'label', 'showlabel'];
const ONE_OPTIONS = ['$select', '$expand', 'showsql', 'showlabel'];
const WINDOW_LIST = ['$filter', '$sort_column', '$page_no'];
const OBJECT: Schema = { type: 'object', additionalProperties: true };

/** Facts of the operations whose shape is known, by `METHOD url`. */
export const OPERATIONS: Record<string, OperationFacts> = {
  'GET /api/v1/models': { summary: 'Tables the role may read', response: { type: 'object', properties: { models: { type: 'array', items: OBJECT } } } },
  'GET /api/v1/models/:table': { summary: 'Records of a table', query: LIST_OPTIONS, response: ref('Records') },
  'POST /api/v1/models/:table': { summary: 'Create a record (details nested as arrays under their table names)', status: 201, request: ref('Record'), response: ref('Record') },
  'GET /api/v1/models/:table/yaml': { summary: "The table's OpenAPI description in YAML", contentType: 'application/yaml', response: { type: 'string' } },
  'GET /api/v1/models/:table/:id': { summary: 'One record by id or UUID', query: ONE_OPTIONS, response: ref('Record') },
  'PUT /api/v1/models/:table/:id': { summary: 'Update a record', request: ref('Record'), response: ref('Record') },
  'DELETE /api/v1/models/:table/:id': { summary: 'Delete a record', response: ref('Deleted') },
  'GET /api/v1/models/:table/:id/:property': { summary: 'One column of a record', response: ref('Record') },
  'GET /api/v1/windows': { summary: 'Windows the role may open ($expand=AD_Tab,AD_Field adds tabs and fields)', query: ['$filter', '$expand', '$select'], response: { type: 'object', properties: { windows: { type: 'array', items: OBJECT } } } },
  'GET /api/v1/windows/:window/tabs': { summary: 'A window with its tabs', response: OBJECT },
  'GET /api/v1/windows/:window/tabs/:tab/fields': { summary: 'Fields of a tab', query: ['$filter'], response: { type: 'object', properties: { fields: { type: 'array', items: OBJECT } } } },
  'GET /api/v1/windows/:window': { summary: 'Records of the header tab', query: WINDOW_LIST, response: ref('WindowRecords') },
  'POST /api/v1/windows/:window': { summary: 'Create a header record (child tab records as arrays under their slugs)', status: 201, request: OBJECT, response: OBJECT },
  'GET /api/v1/windows/:window/:id': { summary: 'A header record', query: ['$expand'], response: OBJECT },
  'PUT /api/v1/windows/:window/:id': { summary: 'Update a header record', request: OBJECT, response: OBJECT },
  'DELETE /api/v1/windows/:window/:id': { summary: 'Delete a header record', response: ref('Deleted') },
  'GET /api/v1/windows/:window/tabs/:tab/:id': { summary: 'A record of a tab', query: ['$expand'], response: OBJECT },
  'PUT /api/v1/windows/:window/tabs/:tab/:id': { summary: 'Update a record of a tab', request: OBJECT, response: OBJECT },
  'DELETE /api/v1/windows/:window/tabs/:tab/:id': { summary: 'Delete a record of a tab', response: ref('Deleted') },
  'GET /api/v1/windows/:window/tabs/:tab/:id/:child': { summary: 'Records of a child tab under a record', query: WINDOW_LIST, response: ref('WindowRecords') },
  'POST /api/v1/windows/:window/tabs/:tab/:id/:child': { summary: 'Create a child tab record under a record', status: 201, request: OBJECT, response: OBJECT },
  'GET /api/v1/forms': { summary: 'Forms the role may open', query: ['$filter'], response: { type: 'object', properties: { forms: { type: 'array', items: OBJECT } } } },
  'GET /api/v1/menutree/:treeId': { summary: 'The menu tree as the role sees it', response: OBJECT },
  'GET /api/v1/views': { summary: 'REST views', response: { type: 'object', properties: { views: { type: 'array', items: OBJECT } } } },
  'GET /api/v1/views/:view': { summary: 'Records of a view', query: LIST_OPTIONS, response: ref('Records') },
  'POST /api/v1/views/:view': { summary: 'Create a record through a view', status: 201, request: OBJECT, response: OBJECT },
  'GET /api/v1/views/:view/yaml': { summary: "The view's OpenAPI description in YAML", contentType: 'application/yaml', response: { type: 'string' } },
  'GET /api/v1/views/:view/:id': { summary: 'One record of a view', query: ONE_OPTIONS, response: OBJECT },
  'PUT /api/v1/views/:view/:id': { summary: 'Update a record through a view', request: OBJECT, response: OBJECT },
  'DELETE /api/v1/views/:view/:id': { summary: 'Delete a record through a view', response: ref('Deleted') },
  'GET /api/v1/views/:view/:id/:property': { summary: 'One property of a view record', response: OBJECT },
  'POST /api/v1/auth/tokens': { summary: 'Log in', request: OBJECT, response: OBJECT },
  'POST /api/v1/batch': { summary: 'Several writes in one request', query: ['transaction'], request: { type: 'array', items: OBJECT }, response: { type: 'array', items: OBJECT } },
  'GET /api/v1/workflow': { summary: "The caller's suspended workflow nodes", response: { type: 'object', properties: { 'row-count': { type: 'integer' }, nodes: { type: 'array', items: OBJECT } } } },
  'GET /api/v1/workflow/:userid': { summary: "A user's suspended workflow nodes", response: { type: 'object', properties: { 'row-count': { type: 'integer' }, nodes: { type: 'array', items: OBJECT } } } },
  'PUT /api/v1/workflow/approve/:nodeid': { summary: 'Approve an approval node', request: OBJECT, response: OBJECT },
  'PUT /api/v1/workflow/reject/:nodeid': { summary: 'Reject an approval node', request: OBJECT, response: OBJECT },
  'PUT /api/v1/workflow/forward/:nodeid': { summary: 'Forward an approval node to another user (userTo)', request: OBJECT, response: OBJECT },
  'PUT /api/v1/workflow/acknowledge/:nodeid': { summary: 'Acknowledge a notification node', request: OBJECT, response: OBJECT },
  'PUT /api/v1/workflow/setuserchoice/:nodeid': { summary: 'Set the value of a user choice node (value)', request: OBJECT, response: OBJECT },
  'GET /api/v1/health': { summary: 'Health', query: ['db', 'key'], response: OBJECT },
};
