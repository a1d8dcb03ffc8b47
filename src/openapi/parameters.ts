import { Type, type TSchema } from '@sinclair/typebox';

/** A parameter's schema, what it means and an example value. */
interface ParameterFacts {
  schema: TSchema;
  description?: string;
  example?: unknown;
}

const text = (description: string, example?: unknown): ParameterFacts => ({ schema: Type.String(), description, ...(example !== undefined ? { example } : {}) });
const integer = (description: string, example?: number): ParameterFacts => ({ schema: Type.Integer({ minimum: 0 }), description, ...(example !== undefined ? { example } : {}) });
const flag = (description: string): ParameterFacts => ({ schema: Type.Union([Type.Boolean(), Type.String()]), description, example: true });
const idOrUuid = (description: string, example: number): ParameterFacts => ({ schema: Type.Union([Type.Integer(), Type.String()]), description, example });

/** Path parameters by name, as the routes name them. */
export const PATH_PARAMETERS: Record<string, ParameterFacts> = {
  table: text('table name (any case)', 'c_bpartner'),
  id: idOrUuid('record id or UUID', 118),
  property: text('column (or view property) name', 'Name'),
  window: text('window slug', 'sales-order'),
  slug: text('slug', 'sales-order'),
  tab: text('tab slug', 'order'),
  child: text('child tab slug', 'order-line'),
  view: text('view name', 'users'),
  archiveId: integer('archive id', 1000000),
  fileName: text('file name', 'contract.pdf'),
  uploadId: text('upload id', 'b1c2d3e4-0000-4000-8000-000000000000'),
  chunkOrder: integer('chunk number, from 1', 1),
  userid: integer('user id', 101),
  nodeid: integer('workflow node (activity) id', 1000000),
  treeId: integer('tree id', 10),
  logLevel: text('log level (SEVERE, WARNING, INFO, CONFIG, FINE, FINER, FINEST, ALL, OFF)', 'INFO'),
  key: text('inbound webhook key', 'orders'),
  asset: text('file name', 'swagger-ui.css'),
};

/** Query parameters by name, with their types: `$top` and `$skip` are integers. */
export const QUERY_PARAMETERS: Record<string, ParameterFacts> = {
  $filter: text('OData-like filter', "Name eq 'Joe Block'"),
  $orderby: text('sort order: columns with asc or desc', 'Name desc'),
  $top: integer('page size', 10),
  $skip: integer('records to skip', 0),
  $select: text('columns to answer, comma-separated', 'Name,Value'),
  $expand: text('details or references to answer with each record', 'C_OrderLine'),
  $valrule: text('validation rule (id or UUID) that filters the records', '52059'),
  $context: text('context values for the validation rule (name:value, comma-separated)', 'C_BPartner_ID:118'),
  $rowcount: flag('count the rows'),
  $report_type: text('report type: PDF, HTML, CSV, XLS, XLSX', 'PDF'),
  report_type: text('report type: PDF, HTML, CSV, XLS, XLSX', 'PDF'),
  $sort_column: text('column to sort by (a leading - sorts descending)', '-DateOrdered'),
  $page_no: integer('page number, from 1', 1),
  $parameters: text('parameter values (name=value, comma-separated)', "Value='A%'"),
  showsql: text('answer the SQL of the query too (true, or nodata for only the SQL)', 'true'),
  label: text('records with this label only', 'Important'),
  showlabel: text('answer the labels of each record (true or label names)', 'true'),
  locale: text('language of the answer', 'en_US'),
  json: flag('answer the file as base64 in JSON'),
  asJson: flag('answer the file as base64 in JSON'),
  transaction: flag('all writes in one transaction (default true)'),
  with_messages: flag('answer the text of each status line'),
  table_name: text('table name', 'C_BPartner'),
  record_id: integer('record id', 118),
  name: text('cache name', 'AD_Table'),
  client: text('client id or name', '11'),
  role: text('role id or name', '102'),
  organization: text('organization id or name', '11'),
  height: integer('height in pixels', 400),
  width: integer('width in pixels', 600),
  fileName: text('file name', 'dictum.log'),
  length: integer('bytes to answer from the end of the file', 10000),
  node_id: text('node id', 'node-1'),
  expiresInSeconds: integer('validity of the presigned URL in seconds', 3600),
  key: text('key of the health details', 'secret'),
  db: flag('check the database too'),
  since: { schema: Type.String({ format: 'date-time' }), description: 'deliveries created since then', example: '2026-11-01T00:00:00Z' },
};

/** One parameter object of the document (pure). */
export function parameterObject(name: string, where: 'path' | 'query'): Record<string, unknown> {
  const facts = (where === 'path' ? PATH_PARAMETERS : QUERY_PARAMETERS)[name];
  return {
    name,
    in: where,
    required: where === 'path',
    schema: facts?.schema ?? { type: 'string' },
    ...(facts?.description ? { description: facts.description } : {}),
    ...(facts?.example !== undefined ? { example: facts.example } : {}),
  };
}
