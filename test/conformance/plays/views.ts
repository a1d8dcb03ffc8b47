import { ex, type Play } from '../play.js';

export const views: Play[] = [
  { op: 'GET /views', expect: 200 },
  { op: 'GET /views', query: { $filter: ex('example', () => "name eq 'users'") }, expect: 200 },
  { op: 'GET /views/{viewName}/yaml', path: { viewName: ex('example') }, expect: 200 },
  { op: 'GET /views/{viewName}', path: { viewName: 'businessPartners' }, query: { $top: 5, showsql: ex('showSQLAndData'), showlabel: ex('showLabel') }, expect: 200 },
  { op: 'GET /views/{viewName}', path: { viewName: 'businessPartners' }, query: { showsql: ex('showSQLNoData'), showlabel: ex('showLabelColumn') }, expect: 200 },
  { op: 'GET /views/{viewName}', path: { viewName: 'businessPartners' }, query: { showlabel: ex('showLabelColumnList'), $top: 2 }, expect: 200 },
  { op: 'POST /views/{viewName}', path: { viewName: 'businessPartners' }, body: { name: 'Conformance View Partner' }, expect: 201, then: (c, a) => (c.viewPartnerId = a.body.id) },
  { op: 'GET /views/{viewName}/{id}', path: { viewName: 'businessPartners', id: (c) => c.viewPartnerId }, query: { showsql: ex('showSQLAndData'), showlabel: ex('showLabel') }, expect: 200 },
  { op: 'GET /views/{viewName}/{id}', path: { viewName: 'businessPartners', id: (c) => c.viewPartnerId }, query: { showsql: ex('showSQLNoData'), showlabel: ex('showLabelColumn') }, expect: 200 },
  { op: 'GET /views/{viewName}/{id}', path: { viewName: 'businessPartners', id: (c) => c.viewPartnerId }, query: { showlabel: ex('showLabelColumnList') }, expect: 200 },
  { op: 'PUT /views/{viewName}/{id}', path: { viewName: 'businessPartners', id: (c) => c.viewPartnerId }, body: { name: 'Conformance View Partner 2' }, expect: 200 },
  { op: 'GET /views/{viewName}/{id}/{viewColumnName}', path: { viewName: 'businessPartners', id: (c) => c.viewPartnerId, viewColumnName: 'name' }, expect: 200 },
  { op: 'POST /views/{viewName}/{id}/attachments', path: { viewName: 'businessPartners', id: (c) => c.viewPartnerId }, body: { name: 'view-note.txt', data: Buffer.from('a note').toString('base64') }, expect: 201 },
  { op: 'GET /views/{viewName}/{id}/attachments', path: { viewName: 'businessPartners', id: (c) => c.viewPartnerId }, expect: 200 },
  { op: 'GET /views/{viewName}/{id}/attachments/{fileName}', path: { viewName: 'businessPartners', id: (c) => c.viewPartnerId, fileName: 'view-note.txt' }, expect: 200 },
  { op: 'GET /views/{viewName}/{id}/attachments/zip', path: { viewName: 'businessPartners', id: (c) => c.viewPartnerId }, expect: 200 },
  { op: 'DELETE /views/{viewName}/{id}/attachments', path: { viewName: 'businessPartners', id: (c) => c.viewPartnerId }, expect: 200 },
  { op: 'DELETE /views/{viewName}/{id}', path: { viewName: 'businessPartners', id: (c) => c.viewPartnerId }, expect: 200 },
];
