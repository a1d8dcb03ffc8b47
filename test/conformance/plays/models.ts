import { ex, type Play } from '../play.js';

const PNG_1x1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

export const models: Play[] = [
  { op: 'GET /models', expect: 200 },
  { op: 'GET /models', title: 'filtered', query: { $filter: "startswith(TableName,'C_Order')" }, expect: 200 },
  { op: 'GET /models/{tableName}/yaml', path: { tableName: ex('example') }, expect: 200 },
  { op: 'GET /models/{tableName}', path: { tableName: ex('C_Tax') }, query: { $filter: ex('inOperator_C_Tax') }, expect: 200 },
  { op: 'GET /models/{tableName}', path: { tableName: ex('C_Tax') }, query: { $filter: ex('equalOperator_C_Tax'), $select: ex('name') }, expect: 200 },
  { op: 'GET /models/{tableName}', path: { tableName: ex('C_Tax') }, query: { $filter: ex('C_Tax_C_TaxCategory_ID_107'), showsql: ex('showSQLAndData'), locale: ex('english_US') }, expect: 200 },
  { op: 'GET /models/{tableName}', path: { tableName: ex('C_Tax') }, query: { showsql: ex('showSQLNoData'), locale: ex('spanish_Columnbia') }, expect: 200 },
  { op: 'GET /models/{tableName}', path: { tableName: ex('C_BPartner') }, query: { $top: 5, $skip: 2, $orderby: 'Name desc', showlabel: ex('showLabel') }, expect: 200 },
  { op: 'GET /models/{tableName}', path: { tableName: ex('C_BPartner') }, query: { showlabel: ex('showLabelColumn'), label: "Name eq 'VIP'" }, expect: 200 },
  { op: 'GET /models/{tableName}', path: { tableName: ex('C_BPartner') }, query: { showlabel: ex('showLabelColumnList') }, expect: 200 },
  { op: 'GET /models/{tableName}', path: { tableName: ex('C_UOM') }, query: { $valrule: ex('valRule_C_UOM'), $context: ex('valRule_C_UOM_210') }, expect: 200 },
  { op: 'GET /models/{tableName}', path: { tableName: ex('C_Order') }, query: { $expand: ex('C_OrderTax_C_OrderLine'), $select: ex('C_Order_DocumentNo_Description'), $top: 3 }, expect: 200 },
  { op: 'GET /models/{tableName}', title: 'an unknown table', path: { tableName: 'no_such_table' }, expect: 404 },
  { op: 'POST /models/{tableName}', path: { tableName: ex('C_Tax') }, body: ex('C_Tax'), expect: 201, then: (c, a) => (c.taxId = a.body.id) },
  { op: 'POST /models/{tableName}', path: { tableName: ex('C_BPartner') }, body: ex('C_BPartner_User_ContactInterest'), expect: 201, then: (c, a) => (c.partnerId = a.body.id) },
  {
    op: 'POST /models/{tableName}',
    title: 'a sales order to attach files to',
    path: { tableName: ex('C_Order') },
    body: { C_DocTypeTarget_ID: 132, C_BPartner_ID: 117, M_Warehouse_ID: 103, C_OrderLine: [{ M_Product_ID: 128, QtyEntered: 2 }] },
    expect: 201,
    then: (c, a) => (c.orderId = a.body.id),
  },
  { op: 'POST /models/{tableName}', title: 'a UOM', path: { tableName: ex('C_UOM') }, body: { Name: 'Conformance Pack', X12DE355: 'CPK', UOMSymbol: 'cpk', StdPrecision: 0, CostingPrecision: 0 }, expect: 201 },
  { op: 'GET /models/{tableName}/{id}', path: { tableName: ex('AD_User'), id: ex('AD_User_100') }, query: { $expand: ex('AD_User_100_C_Order.SalesRep') }, expect: 200 },
  { op: 'GET /models/{tableName}/{id}', path: { tableName: ex('AD_User'), id: ex('AD_User_102') }, query: { $select: ex('name') }, expect: 200 },
  { op: 'GET /models/{tableName}/{id}', path: { tableName: ex('C_Invoice'), id: ex('C_Invoice_104') }, query: { $expand: ex('C_Invoice_104_FactAcct_InvoiceLine'), showsql: ex('showSQLAndData') }, expect: 200 },
  { op: 'GET /models/{tableName}/{id}', path: { tableName: ex('C_BPartner'), id: ex('C_BPartner_119') }, query: { $expand: ex('C_BPartner_119_AD_User_R_ContactInterest'), showlabel: ex('showLabel') }, expect: 200 },
  { op: 'GET /models/{tableName}/{id}', path: { tableName: ex('C_BPartner_Location'), id: ex('C_BPartner_Location_117') }, query: { showlabel: ex('showLabelColumn') }, expect: 200 },
  { op: 'GET /models/{tableName}/{id}', path: { tableName: ex('C_Tax'), id: ex('C_Tax_106') }, query: { $expand: ex('C_Tax_106_C_Tax_Acct'), showlabel: ex('showLabelColumnList') }, expect: 200, then: (c, a) => (c.taxAcctUid = a.body.c_tax_acct?.[0]?.uid) },
  { op: 'GET /models/{tableName}/{id}', path: { tableName: ex('C_Tax'), id: ex('C_Tax_1000000', (_v, c) => c.taxId) }, query: { showsql: ex('showSQLNoData') }, expect: 200 },
  { op: 'GET /models/{tableName}/{id}', path: { tableName: ex('M_Product'), id: ex('M_Product_122') }, query: { $expand: ex('M_Product_122_ProductCategoryID_ProductPrice') }, expect: 200 },
  { op: 'GET /models/{tableName}/{id}', path: { tableName: ex('C_Tax_Acct'), id: ex('C_Tax_Acct_UUID', (_v, c) => c.taxAcctUid) }, expect: 200 },
  { op: 'GET /models/{tableName}/{id}', path: { tableName: ex('C_Cash'), id: ex('C_Cash_101') }, expect: 200 },
  { op: 'GET /models/{tableName}/{id}', title: 'a missing record', path: { tableName: 'c_bpartner', id: 987654 }, expect: 404 },
  { op: 'GET /models/{tableName}/{id}/{columnName}', path: { tableName: ex('AD_Client'), id: ex('AD_Client_11'), columnName: ex('AD_Client_AD_Language') }, expect: 200 },
  { op: 'PUT /models/{tableName}/{id}', path: { tableName: ex('C_Tax'), id: ex('C_Tax_1000000', (_v, c) => c.taxId) }, body: ex('C_Tax_1000000', (v, c) => ({ ...v, id: c.taxId })), expect: 200 },
  { op: 'PUT /models/{tableName}/{id}', path: { tableName: ex('C_BPartner_Location'), id: ex('C_BPartner_Location_117') }, body: ex('C_BPartner_Location_117_Location'), expect: 200 },
  { op: 'PUT /models/{tableName}/{id}', path: { tableName: ex('AD_User'), id: ex('AD_User_102') }, body: ex('AD_User_102_Image'), expect: 200 },
  { op: 'PUT /models/{tableName}/{id}', title: 'a product', path: { tableName: ex('M_Product'), id: ex('M_Product_122') }, body: { Description: 'conformance' }, expect: 200 },
  { op: 'PUT /models/{tableName}/{id}', title: 'a partner', path: { tableName: ex('C_BPartner'), id: ex('C_BPartner_119') }, body: { Description: 'conformance' }, expect: 200 },
  { op: 'PUT /models/{tableName}/{id}', title: 'a missing record', path: { tableName: 'c_bpartner', id: 987654 }, body: { Description: 'x' }, expect: 404 },
];

export const attachments: Play[] = [
  { op: 'POST /models/{tableName}/{id}/attachments', path: { tableName: ex('C_Order'), id: ex('C_Order_1000000', (_v, c) => c.orderId) }, body: { name: 'note.txt', data: Buffer.from('a note').toString('base64') }, expect: 201 },
  { op: 'POST /models/{tableName}/{id}/attachments', title: 'an image', path: { tableName: 'c_order', id: (c) => c.orderId }, body: { name: 'dot.png', data: PNG_1x1.toString('base64') }, expect: 201 },
  { op: 'GET /models/{tableName}/{id}/attachments', path: { tableName: ex('C_Order'), id: ex('C_Order_1000000', (_v, c) => c.orderId) }, expect: 200 },
  { op: 'GET /models/{tableName}/{id}/attachments/{fileName}', path: { tableName: 'c_order', id: (c) => c.orderId, fileName: 'note.txt' }, expect: 200 },
  { op: 'GET /models/{tableName}/{id}/attachments/zip', path: { tableName: ex('C_Order'), id: ex('C_Order_1000000', (_v, c) => c.orderId) }, expect: 200 },
  { op: 'DELETE /models/{tableName}/{id}/attachments', path: { tableName: ex('C_Order'), id: ex('C_Order_1000000', (_v, c) => c.orderId) }, expect: 200 },
  { op: 'GET /models/{tableName}/{id}/attachments', title: 'none left', path: { tableName: 'c_order', id: (c) => c.orderId }, expect: 200 },
];

export const batch: Play[] = [
  {
    op: 'POST /batch',
    body: [
      { method: 'POST', path: 'v1/models/C_BPartner', body: { Name: 'Conformance Batch Partner' } },
      { method: 'PUT', path: 'v1/models/C_BPartner/$0.id', body: { Description: 'updated in the batch' } },
      { method: 'DELETE', path: 'v1/models/C_BPartner/$0.id' },
    ],
    expect: 200,
  },
  { op: 'POST /batch', title: 'entry by entry', query: { transaction: 'false' }, body: [{ method: 'POST', path: 'v1/models/C_BPartner', body: { Name: 'Conformance Batch Partner 2' } }], expect: 200 },
];

export const deletes: Play[] = [
  { op: 'DELETE /models/{tableName}/{id}', path: { tableName: ex('C_Tax'), id: ex('C_Tax_1000000', (_v, c) => c.taxId) }, expect: 200 },
  { op: 'DELETE /models/{tableName}/{id}', title: 'a missing record', path: { tableName: ex('C_Tax'), id: 987654 }, expect: 404 },
  { op: 'DELETE /windows/{windowSlug}/{id}', path: { windowSlug: ex('bankCashWindow'), id: (c) => c.bankId }, expect: 200 },
  { op: 'POST /auth/logout', as: 'none', body: (c: any) => ({ token: c.tokens.admin }), expect: 200 },
];
