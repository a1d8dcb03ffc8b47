import { Type, type TSchema } from '@sinclair/typebox';
import { listOf, Open, ref } from './answer-schemas.js';

/** What the document says of an operation beyond its path. */
export interface OperationFacts {
  summary: string;
  description?: string;
  /** Query parameters, for routes that do not list them in `config.queryParameters`. */
  query?: readonly string[];
  /** Success status (200 unless said). */
  status?: number;
  /** The JSON answer; absent for answers without a body. */
  answer?: TSchema;
  /** Answers in other media types (files, images, text), by media type. */
  binary?: readonly string[];
  body?: TSchema;
  /** The body's media type (application/json unless said). */
  bodyType?: string;
  /** An example of the body when there is one, else of the JSON answer. */
  example?: unknown;
}

const OBJECT = Open({});
const recordsExample = { 'page-count': 1, 'records-size': 1, 'skip-records': 0, 'row-count': 1, 'array-count': 1, records: [{ id: 118, uid: 'a5c1c4ab-4b8b-4b45-a4b3-2b6e7a0b0c11', Name: 'Joe Block', 'model-name': 'c_bpartner' }] };
const windowRecordsExample = { 'page-count': 1, 'page-size': 100, 'page-number': 1, 'row-count': 1, 'window-records': [{ id: 102, documentNo: '80000' }] };
const deleted = { answer: ref('Deleted'), example: { msg: 'Deleted' } };
const FILE = ['application/octet-stream'];
const processInfoExample = { AD_PInstance_ID: 1000000, process: 'Order Print', summary: '', isError: false, reportFileName: 'order.pdf', reportFileLength: 2048, nodeId: 'node-1', logs: [] };
const workflowAnswer = Open({ id: Type.Optional(Type.Integer()), msg: Type.Optional(Type.String()) }, 'The node after the action');
const workflowNodes = Type.Object({ 'row-count': Type.Integer(), nodes: Type.Array(ref('DictionaryRow')) });
const scheduler = Open({ id: Type.Optional(Type.Integer()), name: Type.Optional(Type.String()), schedulerState: Type.Optional(Type.String()) }, 'A scheduler and its state in the server manager');
const serverJob = Open({ id: Type.Optional(Type.String()), name: Type.Optional(Type.String()), state: Type.Optional(Type.String()) }, 'A background server of a node');
const serverJobs = listOf('servers', serverJob);
const nodeLogs = Open({ logs: Type.Optional(Type.Array(Open({ fileName: Type.Optional(Type.String()), fileSize: Type.Optional(Type.Integer()) }))) });
const delivery = Open({ id: Type.Optional(Type.Integer()), status: Type.Optional(Type.String()) }, 'An outbound webhook delivery');
const attachmentBody = Type.Object({ name: Type.String({ description: 'file name' }), data: Type.String({ contentEncoding: 'base64' }), overwrite: Type.Optional(Type.Boolean()) });
const windowRecord = ref('DictionaryRow');

/** Facts of every operation, by `METHOD url` as the route is registered. */
export const OPERATIONS: Record<string, OperationFacts> = {
  // authentication
  'POST /api/v1/auth/tokens': { summary: 'Log in', description: 'Without parameters: the first step (the clients to choose from and a first-step token); with parameters (clientId, roleId, organizationId, warehouseId): the full login.', body: ref('LoginRequest'), answer: ref('LoginAnswer'), example: { userName: 'GardenAdmin', password: 'GardenAdmin', parameters: { clientId: 11, roleId: 102, organizationId: 11, warehouseId: 103, language: 'en_US' } } },
  'PUT /api/v1/auth/tokens': { summary: 'Finish a login: choose client, role, organization and warehouse', body: ref('LoginParameters'), answer: ref('LoginAnswer'), example: { clientId: 11, roleId: 102, organizationId: 11, warehouseId: 103 } },
  'GET /api/v1/auth/roles': { summary: 'Roles the user may choose in a client', answer: listOf('roles', ref('IdName')), example: { roles: [{ id: 102, name: 'GardenWorld Admin' }] } },
  'GET /api/v1/auth/organizations': { summary: 'Organizations of a role in a client', answer: listOf('organizations', ref('IdName')), example: { organizations: [{ id: 11, name: 'HQ' }] } },
  'GET /api/v1/auth/warehouses': { summary: 'Warehouses of an organization', answer: listOf('warehouses', ref('IdName')), example: { warehouses: [{ id: 103, name: 'HQ Warehouse' }] } },
  'GET /api/v1/auth/language': { summary: "A client's language", answer: Type.Object({ AD_Language: Type.String() }), example: { AD_Language: 'en_US' } },
  'POST /api/v1/auth/refresh': { summary: 'A new token pair for a refresh token (each refresh token works once)', body: ref('RefreshRequest'), answer: ref('TokenPair'), example: { refresh_token: 'eyJ...', clientId: 11, userId: 101 } },
  'POST /api/v1/auth/logout': { summary: 'End the session of a token', body: ref('LogoutRequest'), answer: ref('Message'), example: { token: 'eyJ...' } },
  'POST /api/v1/auth/password-reset/request': { summary: 'Send a password reset code by e-mail', body: ref('PasswordResetRequest'), answer: ref('Message'), example: { email: 'admin@gardenworld.com' } },
  'POST /api/v1/auth/password-reset/verify': { summary: 'Check a password reset code', body: ref('PasswordResetVerify'), answer: Open({ verifiedToken: Type.Optional(Type.String()) }), example: { email: 'admin@gardenworld.com', code: '123456' } },
  'POST /api/v1/auth/password-reset/complete': { summary: 'Set the new password', body: ref('PasswordResetComplete'), answer: ref('Message'), example: { verifiedToken: 'c2f1...', newPassword: 'a long new password' } },
  'GET /api/v1/auth/jwk': { summary: 'The public keys that verify tokens (JWKS)', answer: Type.Object({ keys: Type.Array(Open({ kty: Type.String(), kid: Type.Optional(Type.String()), alg: Type.Optional(Type.String()) })) }), example: { keys: [{ kty: 'EC', crv: 'P-256', x: '...', y: '...', kid: 'k1', alg: 'ES256', use: 'sig' }] } },
  'GET /api/v1/health': { summary: 'Health of the service (and of the database with db=true)', answer: Open({ status: Type.String() }), example: { status: 'UP' } },
  'GET /api/v1/health/ready': { summary: 'Readiness: 503 while the instance drains or cannot reach its database', answer: Open({ status: Type.String(), database: Type.Optional(Type.String()), draining: Type.Optional(Type.Boolean()) }), example: { status: 'UP', database: 'connected' } },
  'GET /metrics': { summary: 'Metrics in the Prometheus text format (with METRICS_KEY as bearer or key; else loopback clients only)', binary: ['text/plain'] },
  // records
  'GET /api/v1/models': { summary: 'Tables the role may read', query: ['$filter'], answer: listOf('models', ref('DictionaryRow')), example: { models: [{ id: 291, uid: 'c4b6b5d2-...', 'model-name': 'c_bpartner', name: 'Business Partner' }] } },
  'GET /api/v1/models/:table': { summary: 'Records of a table', answer: ref('Records'), example: recordsExample },
  'POST /api/v1/models/:table': { summary: 'Create a record (details nested as arrays under their table names)', status: 201, body: ref('Record'), answer: ref('Record'), example: { Name: 'Joe Block', Value: 'JoeB' } },
  'GET /api/v1/models/:table/yaml': { summary: "The table's OpenAPI description in YAML", binary: ['application/yaml'] },
  'GET /api/v1/models/:table/:id': { summary: 'One record by id or UUID', answer: ref('Record'), example: recordsExample.records[0] },
  'PUT /api/v1/models/:table/:id': { summary: 'Update a record', body: ref('Record'), answer: ref('Record'), example: { Description: 'A changed description' } },
  'DELETE /api/v1/models/:table/:id': { summary: 'Delete a record', ...deleted },
  'GET /api/v1/models/:table/:id/:property': { summary: 'One column of a record', answer: ref('Record'), example: { id: 102, uid: '...', DocumentNo: '80000', 'model-name': 'c_order' } },
  'POST /api/v1/batch': { summary: 'Several writes in one request', description: 'Entries {method: POST, PUT or DELETE, path, body}; the answer lists each entry\'s result (400 with the results so far when an entry fails in one transaction).', body: Type.Array(Open({ method: Type.String(), path: Type.String(), body: Type.Optional(OBJECT), headers: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'headers of the entry: If-Match (a stale entry fails with statusCode 412)' })) })), answer: Type.Array(Type.Object({ status: Type.String({ description: 'reason phrase' }), statusCode: Type.Integer(), body: Type.Optional(Type.Unknown()) })), example: [{ method: 'POST', path: 'v1/models/c_bpartner', body: { Name: 'Joe Block', Value: 'JoeB' } }] },
  // processes
  'GET /api/v1/processes': { summary: 'Processes and reports the role may run', query: ['$filter'], answer: listOf('processes', ref('SlugRow')), example: { processes: [{ id: 110, Name: 'Order Print', slug: 'rpt_c_order', 'model-name': 'ad_process' }] } },
  'GET /api/v1/processes/jobs': { summary: 'Background process runs of the user', answer: listOf('jobs', ref('Job')), example: { jobs: [] } },
  'GET /api/v1/processes/jobs/:id': { summary: 'A background process run', answer: ref('Job'), example: { id: 1000000, processing: false } },
  'POST /api/v1/processes/jobs/:slug': { summary: 'Run a process in the background (202, Location names the run)', status: 202, body: OBJECT, answer: ref('Job'), example: { 'record-id': 102 } },
  'DELETE /api/v1/processes/jobs/:id': { summary: 'Cancel a queued background run (200) or ask a running one to stop (202)', answer: ref('Job'), example: { id: 1000000, state: 'cancelled' } },
  'GET /api/v1/processes/:slug': { summary: 'A process with its parameters', answer: ref('SlugRow'), example: { id: 110, Name: 'Order Print', slug: 'rpt_c_order', parameters: [] } },
  'POST /api/v1/processes/:slug': { summary: 'Run a process or report (parameters by column name; report-type PDF, HTML, CSV, XLS)', body: OBJECT, answer: ref('ProcessInfo'), example: { 'record-id': 102, 'report-type': 'PDF' } },
  // archives, attachments, uploads, print
  'GET /api/v1/models/:table/:id/archives': { summary: 'Archived documents of a record', answer: listOf('archives', ref('DictionaryRow')), example: { archives: [{ id: 1000000, Name: 'Order 80000' }] } },
  'GET /api/v1/models/:table/:id/archives/:archiveId': { summary: 'An archived document (json=true: base64 in JSON)', binary: FILE, answer: Open({ data: Type.String({ contentEncoding: 'base64' }) }), example: { data: 'JVBERi0xLjcK...' } },
  'GET /api/v1/models/:table/:id/attachments': { summary: 'Attachment files of a record', answer: ref('Attachments'), example: { attachments: [{ name: 'contract.pdf', contentType: 'application/pdf' }] } },
  'POST /api/v1/models/:table/:id/attachments': { summary: 'Add a file to the attachment of a record', status: 201, body: attachmentBody, example: { name: 'note.txt', data: 'SGVsbG8=' } },
  'DELETE /api/v1/models/:table/:id/attachments': { summary: 'Delete the attachment of a record', answer: ref('Message'), example: { msg: 'Deleted' } },
  'GET /api/v1/models/:table/:id/attachments/zip': { summary: 'All attachment files of a record as a zip (json=true: base64 in JSON)', binary: ['application/zip'], answer: Open({ data: Type.String({ contentEncoding: 'base64' }) }), example: { data: 'UEsDBBQ...' } },
  'POST /api/v1/models/:table/:id/attachments/zip': { summary: 'Replace the attachment of a record by the files of a zip', status: 201, body: Type.Object({ data: Type.String({ contentEncoding: 'base64' }) }), example: { data: 'UEsDBBQ...' } },
  'GET /api/v1/models/:table/:id/attachments/:fileName': { summary: 'One attachment file (json=true: base64 in JSON)', binary: FILE, answer: Open({ data: Type.String({ contentEncoding: 'base64' }) }), example: { data: 'SGVsbG8=' } },
  'DELETE /api/v1/models/:table/:id/attachments/:fileName': { summary: 'Delete one attachment file', answer: ref('Message'), example: { msg: 'Deleted' } },
  'POST /api/v1/uploads': { summary: 'Start a chunked upload', status: 201, body: Open({ fileName: Type.String(), contentType: Type.Optional(Type.String()), fileSize: Type.Integer(), chunkSize: Type.Optional(Type.Integer()), sha256: Type.Optional(Type.String()) }), answer: Open({ uploadId: Type.String(), chunkSize: Type.Integer(), expiresAt: Type.String({ format: 'date-time' }), presignedURL: Type.String() }), example: { fileName: 'scan.pdf', contentType: 'application/pdf', fileSize: 5242880 } },
  'GET /api/v1/uploads': { summary: 'Uploads of the user', answer: listOf('uploads', ref('Upload')), example: { uploads: [] } },
  'GET /api/v1/uploads/:uploadId': { summary: 'State of an upload', answer: ref('Upload'), example: { uploadId: 'b1c2...', fileName: 'scan.pdf', status: 'IN_PROGRESS' } },
  'DELETE /api/v1/uploads/:uploadId': { summary: 'Cancel an upload', answer: ref('Message'), example: { message: 'Upload b1c2... canceled successfully.' } },
  'GET /api/v1/uploads/:uploadId/file': { summary: 'The uploaded file (json=true: base64 in JSON)', binary: FILE, answer: Open({ fileName: Type.Optional(Type.String()), contentType: Type.Optional(Type.String()), data: Type.String({ contentEncoding: 'base64' }) }), example: { fileName: 'scan.pdf', contentType: 'application/pdf', data: 'JVBERi0...' } },
  'PUT /api/v1/uploads/:uploadId/chunks/:chunkOrder': { summary: 'Send one chunk of an upload', body: Type.String({ format: 'binary' }), bodyType: 'application/octet-stream', answer: Open({ uploadId: Type.Optional(Type.String()), chunkOrder: Type.Optional(Type.Integer()) }), example: { uploadId: 'b1c2...', chunkOrder: 1, receivedSize: 1048576 } },
  'POST /api/v1/uploads/:uploadId/copy': { summary: 'Attach an uploaded file to a record or archive', body: Open({ tableName: Type.Optional(Type.String()), recordId: Type.Optional(Type.Integer()) }), answer: OBJECT, example: { tableName: 'c_order', recordId: 102, copyLocation: 'ATTACHMENT' } },
  'GET /api/v1/models/:table/:id/print': { summary: 'Print a record with its print format (report_type PDF, HTML, CSV, XLS)', answer: ref('ProcessInfo'), example: processInfoExample },
  'GET /api/v1/windows/:slug/:id/print': { summary: 'Print a header record of a window', answer: ref('ProcessInfo'), example: processInfoExample },
  'GET /api/v1/windows/:slug/tabs/:tab/:id/print': { summary: 'Print a record of a tab', answer: ref('ProcessInfo'), example: processInfoExample },
  'GET /api/v1/views/:view/:id/print': { summary: 'Print a record of a view', answer: ref('ProcessInfo'), example: processInfoExample },
  // workflow
  'GET /api/v1/workflow': { summary: "The caller's suspended workflow nodes", answer: workflowNodes, example: { 'row-count': 0, nodes: [] } },
  'GET /api/v1/workflow/:userid': { summary: "A user's suspended workflow nodes", answer: workflowNodes, example: { 'row-count': 0, nodes: [] } },
  'PUT /api/v1/workflow/approve/:nodeid': { summary: 'Approve an approval node', body: Open({ message: Type.Optional(Type.String()) }), answer: workflowAnswer, example: { message: 'Approved' } },
  'PUT /api/v1/workflow/reject/:nodeid': { summary: 'Reject an approval node', body: Open({ message: Type.Optional(Type.String()) }), answer: workflowAnswer, example: { message: 'Too expensive' } },
  'PUT /api/v1/workflow/forward/:nodeid': { summary: 'Forward an approval node to another user (userTo)', body: Open({ userTo: Type.Union([Type.Integer(), Type.String()]), message: Type.Optional(Type.String()) }), answer: workflowAnswer, example: { userTo: 101, message: 'Please decide' } },
  'PUT /api/v1/workflow/acknowledge/:nodeid': { summary: 'Acknowledge a notification node', body: Open({ message: Type.Optional(Type.String()) }), answer: workflowAnswer, example: { message: 'Seen' } },
  'PUT /api/v1/workflow/setuserchoice/:nodeid': { summary: 'Set the value of a user choice node (value)', body: Open({ value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]), message: Type.Optional(Type.String()) }), answer: workflowAnswer, example: { value: 'Y' } },
  // dictionary reads
  'GET /api/v1/references/:id': { summary: 'A reference (list or table) by id or UUID', answer: ref('DictionaryRow'), example: { id: 319, Name: '_YesNo', 'model-name': 'ad_reference' } },
  'GET /api/v1/reference/:id': { summary: 'A reference (list or table) by id or UUID (the original\'s singular path)', answer: ref('DictionaryRow'), example: { id: 319, Name: '_YesNo', 'model-name': 'ad_reference' } },
  'GET /api/v1/infos': { summary: 'Info windows the role may open', query: ['$filter'], answer: listOf('infowindows', ref('SlugRow')), example: { infowindows: [{ id: 1000000, Name: 'Product Info', slug: 'product-info' }] } },
  'GET /api/v1/infos/:slug': { summary: 'Rows of an info window', answer: OBJECT, example: { 'page-count': 1, 'row-count': 1, infowindows: [] } },
  'GET /api/v1/infos/:slug/columns': { summary: 'Columns of an info window', answer: listOf('columns', ref('DictionaryRow')), example: { columns: [] } },
  'GET /api/v1/infos/:slug/processes': { summary: 'Processes of an info window', answer: listOf('processes', ref('DictionaryRow')), example: { processes: [] } },
  'GET /api/v1/infos/:slug/relateds': { summary: 'Related info windows of an info window', answer: listOf('relateds', ref('DictionaryRow')), example: { relateds: [] } },
  'GET /api/v1/statuslines': { summary: 'Status lines (with_messages=true: their text)', answer: listOf('statusLines', ref('DictionaryRow')), example: { statusLines: [{ id: 1000000, Name: 'Open orders', 'model-name': 'ad_statusline' }] } },
  'GET /api/v1/statuslines/:id': { summary: 'A status line with its message', answer: Open({ message: Type.Optional(Type.String()) }), example: { message: '3 open orders' } },
  'GET /api/v1/charts/data': { summary: 'Data of several charts', query: ['$filter'], answer: listOf('charts', OBJECT), example: { charts: [] } },
  'GET /api/v1/charts/:id/data': { summary: 'Data of a chart', answer: OBJECT, example: { id: 50000, name: 'Sales', chartType: 'BC', data: [] } },
  'GET /api/v1/charts/:id': { summary: 'A chart as a PNG image (json=true: base64 in JSON)', binary: ['image/png'], answer: Open({ data: Type.Optional(Type.String({ contentEncoding: 'base64' })) }), example: { data: 'iVBORw0KGgo...' } },
  // windows, forms, menu
  'GET /api/v1/windows': { summary: 'Windows the role may open ($expand=AD_Tab,AD_Field adds tabs and fields)', answer: listOf('windows', ref('SlugRow')), example: { windows: [{ id: 143, Name: 'Sales Order', slug: 'sales-order', 'model-name': 'ad_window' }] } },
  'GET /api/v1/windows/:window/tabs': { summary: 'A window with its tabs', answer: Open({ slug: Type.Optional(Type.String()), tabs: Type.Optional(Type.Array(ref('SlugRow'))) }), example: { id: 143, Name: 'Sales Order', slug: 'sales-order', tabs: [{ id: 186, Name: 'Order', slug: 'order', TabLevel: 0 }] } },
  'GET /api/v1/windows/:window/tabs/:tab/fields': { summary: 'Fields of a tab', query: ['$filter'], answer: listOf('fields', ref('DictionaryRow')), example: { fields: [{ id: 1082, Name: 'Document No', 'model-name': 'ad_field' }] } },
  'GET /api/v1/windows/:window': { summary: 'Records of the header tab', query: ['$filter', '$sort_column', '$page_no'], answer: ref('WindowRecords'), example: windowRecordsExample },
  'POST /api/v1/windows/:window': { summary: 'Create a header record (child tab records as arrays under their slugs)', status: 201, body: windowRecord, answer: windowRecord, example: { C_BPartner_ID: 118, description: 'A new order' } },
  'GET /api/v1/windows/:window/:id': { summary: 'A header record', query: ['$expand'], answer: windowRecord, example: { id: 102, documentNo: '80000' } },
  'PUT /api/v1/windows/:window/:id': { summary: 'Update a header record', body: windowRecord, answer: windowRecord, example: { description: 'A changed description' } },
  'DELETE /api/v1/windows/:window/:id': { summary: 'Delete a header record', ...deleted },
  'GET /api/v1/windows/:window/tabs/:tab/:id': { summary: 'A record of a tab', query: ['$expand'], answer: windowRecord, example: { id: 1000000, line: 10 } },
  'PUT /api/v1/windows/:window/tabs/:tab/:id': { summary: 'Update a record of a tab', body: windowRecord, answer: windowRecord, example: { qtyEntered: 2 } },
  'DELETE /api/v1/windows/:window/tabs/:tab/:id': { summary: 'Delete a record of a tab', ...deleted },
  'GET /api/v1/windows/:window/tabs/:tab/:id/:child': { summary: 'Records of a child tab under a record', query: ['$filter', '$sort_column', '$page_no'], answer: ref('WindowRecords'), example: windowRecordsExample },
  'POST /api/v1/windows/:window/tabs/:tab/:id/:child': { summary: 'Create a child tab record under a record', status: 201, body: windowRecord, answer: windowRecord, example: { M_Product_ID: 128, qtyEntered: 1 } },
  'GET /api/v1/forms': { summary: 'Forms the role may open', answer: listOf('forms', ref('SlugRow')), example: { forms: [{ id: 101, Name: 'Payment Allocation', slug: 'payment-allocation' }] } },
  'GET /api/v1/menutree/:treeId': { summary: 'The menu tree as the role sees it', answer: Open({ Name: Type.Optional(Type.String()), entries: Type.Optional(Type.Array(OBJECT)) }), example: { Name: 'Menu', entries: [{ id: 116, Name: 'Sales Order', entries: [] }] } },
  // views
  'GET /api/v1/views': { summary: 'REST views', answer: listOf('views', Open({ name: Type.Optional(Type.String()), tableName: Type.Optional(Type.String()) })), example: { views: [{ id: 1, name: 'users', tableName: 'AD_User', columns: [] }] } },
  'GET /api/v1/views/:view': { summary: 'Records of a view', query: ['$filter', '$orderby', '$top', '$skip', '$select', '$expand', '$valrule', '$context', 'showsql', 'label', 'showlabel'], answer: ref('Records'), example: recordsExample },
  'POST /api/v1/views/:view': { summary: 'Create a record through a view', status: 201, body: ref('Record'), answer: ref('Record'), example: { name: 'Joe Block' } },
  'GET /api/v1/views/:view/yaml': { summary: "The view's OpenAPI description in YAML", binary: ['application/yaml'] },
  'GET /api/v1/views/:view/:id': { summary: 'One record of a view', query: ['$select', '$expand', 'showsql', 'showlabel'], answer: ref('Record'), example: { id: 102, name: 'GardenAdmin', 'view-name': 'users' } },
  'PUT /api/v1/views/:view/:id': { summary: 'Update a record through a view', body: ref('Record'), answer: ref('Record'), example: { description: 'A changed description' } },
  'DELETE /api/v1/views/:view/:id': { summary: 'Delete a record through a view', ...deleted },
  'GET /api/v1/views/:view/:id/:property': { summary: 'One property of a view record', answer: ref('Record'), example: { id: 102, name: 'GardenAdmin' } },
  'GET /api/v1/views/:view/:id/archives': { summary: 'Archived documents of a view record', answer: listOf('archives', ref('DictionaryRow')), example: { archives: [] } },
  'GET /api/v1/views/:view/:id/archives/:archiveId': { summary: 'An archived document of a view record (json=true: base64 in JSON)', binary: FILE, answer: Open({ data: Type.String({ contentEncoding: 'base64' }) }), example: { data: 'JVBERi0xLjcK...' } },
  'GET /api/v1/views/:view/:id/attachments': { summary: 'Attachment files of a view record', answer: ref('Attachments'), example: { attachments: [] } },
  'POST /api/v1/views/:view/:id/attachments': { summary: 'Add a file to the attachment of a view record', status: 201, body: attachmentBody, example: { name: 'note.txt', data: 'SGVsbG8=' } },
  'DELETE /api/v1/views/:view/:id/attachments': { summary: 'Delete the attachment of a view record', answer: ref('Message'), example: { msg: 'Deleted' } },
  'GET /api/v1/views/:view/:id/attachments/zip': { summary: 'All attachment files of a view record as a zip', binary: ['application/zip'], answer: Open({ data: Type.String({ contentEncoding: 'base64' }) }), example: { data: 'UEsDBBQ...' } },
  'POST /api/v1/views/:view/:id/attachments/zip': { summary: 'Replace the attachment of a view record by the files of a zip', status: 201, body: Type.Object({ data: Type.String({ contentEncoding: 'base64' }) }), example: { data: 'UEsDBBQ...' } },
  'GET /api/v1/views/:view/:id/attachments/:fileName': { summary: 'One attachment file of a view record', binary: FILE, answer: Open({ data: Type.String({ contentEncoding: 'base64' }) }), example: { data: 'SGVsbG8=' } },
  'DELETE /api/v1/views/:view/:id/attachments/:fileName': { summary: 'Delete one attachment file of a view record', answer: ref('Message'), example: { msg: 'Deleted' } },
  // operations
  'GET /api/v1/nodes': { summary: 'Nodes of the cluster', answer: listOf('nodes', Open({ id: Type.String(), hostName: Type.Optional(Type.String()), port: Type.Optional(Type.Integer()) })), example: { nodes: [{ id: 'node-1', hostName: 'erp1', port: 8080 }] } },
  'GET /api/v1/nodes/:id': { summary: 'A node with its state', answer: OBJECT, example: { id: 'node-1', hostName: 'erp1', version: '0.1.0', up: true, sessions: 3 } },
  'GET /api/v1/caches': { summary: 'Caches with their sizes, hits and misses', answer: listOf('caches', Open({ name: Type.String(), size: Type.Optional(Type.Integer()), hits: Type.Optional(Type.Integer()), misses: Type.Optional(Type.Integer()) })), example: { caches: [{ name: 'AD_Table', tableName: 'AD_Table', size: 203, expireMinutes: 0, maxSize: 0, distributed: false, nodeId: 'node-1', hits: 10, misses: 1 }] } },
  'DELETE /api/v1/caches': { summary: 'Reset caches (all, of a table, or of a record)', answer: Type.Object({ entriesReset: Type.Integer() }), example: { entriesReset: 12 } },
  'GET /api/v1/schedulers/:id': { summary: 'A scheduler', answer: scheduler, example: { id: 100, name: 'Nightly', schedulerState: 'Started' } },
  'POST /api/v1/schedulers/:id': { summary: 'Add a scheduler to the server manager and start it', status: 201, answer: scheduler, example: { id: 100, name: 'Nightly', schedulerState: 'Started' } },
  'DELETE /api/v1/schedulers/:id': { summary: 'Remove a scheduler from the server manager', answer: scheduler, example: { id: 100, name: 'Nightly', schedulerState: 'NotManaged' } },
  'GET /api/v1/servers/schedulers/:id': { summary: 'A scheduler (under servers)', answer: scheduler, example: { id: 100, name: 'Nightly', schedulerState: 'Started' } },
  'POST /api/v1/servers/schedulers/:id': { summary: 'Add a scheduler to the server manager (under servers)', status: 201, answer: scheduler, example: { id: 100, name: 'Nightly', schedulerState: 'Started' } },
  'DELETE /api/v1/servers/schedulers/:id': { summary: 'Remove a scheduler from the server manager (under servers)', answer: scheduler, example: { id: 100, name: 'Nightly', schedulerState: 'NotManaged' } },
  'GET /api/v1/servers': { summary: 'Background servers of the nodes', answer: serverJobs, example: { servers: [{ id: 'Scheduler100', name: 'Nightly', state: 'Started' }] } },
  'GET /api/v1/servers/:id': { summary: 'A background server', answer: serverJob, example: { id: 'Scheduler100', name: 'Nightly', state: 'Started' } },
  'GET /api/v1/servers/:id/logs': { summary: 'Log of a background server', answer: listOf('logs', OBJECT), example: { logs: [] } },
  'POST /api/v1/servers/:id/state': { summary: 'Start or stop a background server', answer: serverJob, example: { id: 'Scheduler100', state: 'Stopped' } },
  'POST /api/v1/servers/:id/run': { summary: 'Run a background server now', answer: serverJob, example: { id: 'Scheduler100', state: 'Started' } },
  'POST /api/v1/servers/reload': { summary: 'Reload the background servers', answer: serverJobs, example: { servers: [] } },
  'GET /api/v1/nodes/:id/logs': { summary: 'Log files of a node', answer: nodeLogs, example: { logs: [{ fileName: 'dictum.log', fileSize: 1024 }] } },
  'DELETE /api/v1/nodes/:id/logs': { summary: 'Delete the log files of a node but the current one', answer: ref('Message'), example: { msg: 'Deleted' } },
  'GET /api/v1/nodes/:id/logs/file': { summary: 'A log file of a node (by fileName)', binary: ['application/octet-stream', 'text/plain', 'text/html'], answer: Open({ data: Type.Optional(Type.String()) }), example: { fileName: 'dictum.log', data: 'e30=' } },
  'GET /api/v1/nodes/:id/logs/:fileName': { summary: 'A log file of a node', binary: ['application/octet-stream', 'text/plain', 'text/html'], answer: Open({ data: Type.Optional(Type.String()) }), example: { fileName: 'dictum.log', data: 'e30=' } },
  'POST /api/v1/nodes/:id/logs/rotate': { summary: 'Start a new log file on a node', answer: ref('Message'), example: { msg: 'Rotated' } },
  'PUT /api/v1/nodes/:id/logs/level/:logLevel': { summary: 'Set the log level of a node', answer: ref('Message'), example: { msg: 'Log level set to info' } },
  'GET /api/v1/files': { summary: 'A server file by name (System)', binary: ['application/octet-stream', 'text/plain', 'text/html'], answer: Open({ data: Type.Optional(Type.String()) }), example: { fileName: 'dictum.log', data: 'e30=' } },
  'GET /api/v1/tasks': { summary: 'Operating system tasks the role may run', answer: listOf('tasks', ref('SlugRow')), example: { tasks: [{ id: 100, Name: 'Backup', slug: 'backup' }] } },
  'GET /api/v1/tasks/:slug': { summary: 'A task', answer: ref('SlugRow'), example: { id: 100, Name: 'Backup', slug: 'backup' } },
  'POST /api/v1/tasks/:slug': { summary: 'Run a task', body: OBJECT, answer: Open({ exitValue: Type.Integer(), stdOut: Type.String(), stdErr: Type.String() }), example: {} },
  // the description itself
  'GET /api/v1/openapi.json': { summary: 'This OpenAPI document (public; with a token it describes what the role may see)', answer: OBJECT, example: { openapi: '3.1.0', info: { title: 'Dictum', version: '0.1.0' } } },
  'GET /api/v1/docs': { summary: 'The interactive documentation page', binary: ['text/html'], example: '<!DOCTYPE html><html lang="en"><head><title>Dictum API</title>...' },
  'GET /api/v1/docs/:asset': { summary: 'A file of the documentation page', binary: ['text/css', 'application/javascript', 'image/png'] },
  'GET /': { summary: 'Redirects to the documentation page', status: 302, example: '/api/v1/docs' },
  // the web console (docs/console.md): public files; it logs in through the API like any client
  'GET /console': { summary: 'The web console page', binary: ['text/html'], example: '<!DOCTYPE html><html lang="en"><head><title>Dictum console</title>...' },
  'GET /console/*': { summary: 'A file of the web console (script, style sheet), or its page for the addresses of its own views', binary: ['text/html', 'text/javascript', 'text/css'], example: '<!DOCTYPE html><html lang="en"><head><title>Dictum console</title>...' },
  // webhooks
  'POST /api/v1/webhooks/:key': { summary: 'Receive an inbound webhook (signed, see Standard Webhooks)', body: OBJECT, answer: OBJECT, example: { type: 'order.paid', data: { id: 102 } } },
  'POST /api/v1/webhooks/outbound/deliveries/:id/replay': { summary: 'Send an outbound webhook delivery again', answer: delivery, example: { id: 1000000, status: 'P' } },
  'POST /api/v1/webhooks/outbound/endpoints/:id/replay': { summary: 'Send again the deliveries of an endpoint since a time', body: Type.Object({ since: Type.String({ format: 'date-time' }) }), answer: Open({ endpointId: Type.Integer(), since: Type.String(), replayed: Type.Integer(), deliveries: Type.Array(Type.Integer()) }), example: { since: '2026-11-01T00:00:00Z' } },
  'POST /api/v1/webhooks/outbound/endpoints/:id/test': { summary: 'Send a test event to an endpoint', answer: delivery, example: { id: 1000001, status: 'S' } },
};
