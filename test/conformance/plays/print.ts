import { ex, type Play } from '../play.js';

export const prints: Play[] = [
  { op: 'GET /models/{tableName}/{id}/print', path: { tableName: ex('C_Order'), id: ex('C_Order_102') }, expect: 200 },
  { op: 'GET /models/{tableName}/{id}/print', path: { tableName: ex('C_Order'), id: ex('C_Order_102') }, query: { $report_type: ex('pdf_reportType') }, expect: 200 },
  { op: 'GET /models/{tableName}/{id}/print', path: { tableName: ex('C_Order'), id: ex('C_Order_102') }, query: { $report_type: ex('html_reportType') }, expect: 200 },
  { op: 'GET /models/{tableName}/{id}/print', path: { tableName: ex('C_Order'), id: ex('C_Order_102') }, query: { $report_type: ex('csv_reportType') }, expect: 200 },
  { op: 'GET /models/{tableName}/{id}/print', path: { tableName: ex('C_Order'), id: ex('C_Order_102') }, query: { $report_type: ex('xlsx_reportType') }, expect: 200 },
  { op: 'GET /windows/{windowSlug}/{id}/print', path: { windowSlug: ex('salesOrderWindow'), id: ex('salesOrderWindow_102') }, expect: 200 },
  { op: 'GET /views/{viewName}/{id}/print', path: { viewName: 'salesOrders', id: 102 }, expect: 200 },
];
