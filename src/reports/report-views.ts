import type { SqlBuilder } from '../db/sql.js';
import type { ParamScalar } from '../processes/parameters.js';
import type { ColumnType } from './report-model.js';
import { OPEN_AMOUNT_SQL } from '../documents/engine/settlement.js';

/** A column a report view offers: its SQL over the view's FROM, its label and type. */
export interface ViewColumn {
  expr: string;
  label: string;
  type: ColumnType;
}

/** How a process parameter narrows a report view. */
export type ViewFilter = (value: ParamScalar | null, to: ParamScalar | null, sql: SqlBuilder) => string | null;

/**
 * A report view (AD_ReportView by Value): the rows a report reads. `accessTable` and `accessAlias`
 * name the table whose access predicate (client, organisations) every row passes.
 */
export interface ReportViewDef {
  value: string;
  from: string;
  where: string;
  accessTable: string;
  accessAlias: string;
  columns: Record<string, ViewColumn>;
  filters: Record<string, ViewFilter>;
}

const ids = (v: ParamScalar | null): number[] | null => (Array.isArray(v) ? (v as unknown[]).map(Number) : typeof v === 'number' ? [v] : null);

/** Equality with one id, or membership in a multiple selection. */
const idFilter =
  (expr: string): ViewFilter =>
  (v, _to, sql) => {
    const list = ids(v);
    return list ? `${expr} = ANY(${sql.param(list)}::bigint[])` : null;
  };

/** A date range: from the value, up to and including the upper end. */
const dateRange =
  (expr: string): ViewFilter =>
  (v, to, sql) => {
    const parts: string[] = [];
    if (typeof v === 'string') parts.push(`${expr} >= ${sql.param(v.slice(0, 10))}::date`);
    if (typeof to === 'string') parts.push(`${expr} < (${sql.param(to.slice(0, 10))}::date + 1)`);
    return parts.length ? parts.join(' AND ') : null;
  };

const yesNo =
  (expr: string): ViewFilter =>
  (v, _to, sql) =>
    typeof v === 'boolean' ? `${expr} = ${sql.param(v ? 'Y' : 'N')}` : null;

/** Order lines with their order, partner and product, and what is still to deliver and invoice. */
const ORDER_DETAIL: ReportViewDef = {
  value: 'RV_OrderDetail',
  from: `c_orderline ol JOIN c_order o ON o.c_order_id = ol.c_order_id
    JOIN c_bpartner bp ON bp.c_bpartner_id = o.c_bpartner_id
    LEFT JOIN m_product p ON p.m_product_id = ol.m_product_id
    LEFT JOIN c_charge ch ON ch.c_charge_id = ol.c_charge_id`,
  where: `ol.isactive = 'Y' AND o.isactive = 'Y' AND o.docstatus NOT IN ('VO', 'RE')`,
  accessTable: 'C_Order',
  accessAlias: 'o',
  columns: {
    DocumentNo: { expr: 'o.documentno', label: 'Document No', type: 'text' },
    DateOrdered: { expr: `to_char(o.dateordered, 'YYYY-MM-DD')`, label: 'Date Ordered', type: 'date' },
    BPartner: { expr: 'bp.name', label: 'Business Partner', type: 'text' },
    DocStatus: { expr: 'o.docstatus', label: 'Status', type: 'text' },
    Line: { expr: 'ol.line', label: 'Line', type: 'number' },
    Product: { expr: `coalesce(p.name, ch.name, ol.description, '')`, label: 'Product', type: 'text' },
    QtyOrdered: { expr: 'ol.qtyordered::float8', label: 'Ordered', type: 'quantity' },
    QtyDelivered: { expr: 'ol.qtydelivered::float8', label: 'Delivered', type: 'quantity' },
    QtyInvoiced: { expr: 'ol.qtyinvoiced::float8', label: 'Invoiced', type: 'quantity' },
    QtyToDeliver: { expr: '(ol.qtyordered - ol.qtydelivered)::float8', label: 'To Deliver', type: 'quantity' },
    PriceActual: { expr: 'ol.priceactual::float8', label: 'Price', type: 'amount' },
    LineNetAmt: { expr: 'ol.linenetamt::float8', label: 'Line Amount', type: 'amount' },
  },
  filters: {
    C_BPartner_ID: idFilter('o.c_bpartner_id'),
    M_Product_ID: idFilter('ol.m_product_id'),
    DateOrdered: dateRange('o.dateordered'),
    IsSOTrx: yesNo('o.issotrx'),
  },
};

/** Completed invoices of partners with what is still open after allocations (the documents' open amount). */
const BPARTNER_OPEN: ReportViewDef = {
  value: 'RV_BPartnerOpen',
  from: `c_invoice i JOIN c_bpartner bp ON bp.c_bpartner_id = i.c_bpartner_id
    CROSS JOIN LATERAL (SELECT i.grandtotal - (${OPEN_AMOUNT_SQL('i')}) AS paid) a`,
  where: `i.isactive = 'Y' AND i.docstatus IN ('CO', 'CL') AND i.grandtotal - a.paid <> 0`,
  accessTable: 'C_Invoice',
  accessAlias: 'i',
  columns: {
    BPartner: { expr: 'bp.name', label: 'Business Partner', type: 'text' },
    DocumentNo: { expr: 'i.documentno', label: 'Document No', type: 'text' },
    DateInvoiced: { expr: `to_char(i.dateinvoiced, 'YYYY-MM-DD')`, label: 'Date Invoiced', type: 'date' },
    GrandTotal: { expr: 'i.grandtotal::float8', label: 'Grand Total', type: 'amount' },
    PaidAmt: { expr: 'a.paid::float8', label: 'Paid', type: 'amount' },
    OpenAmt: { expr: '(i.grandtotal - a.paid)::float8', label: 'Open Amount', type: 'amount' },
  },
  filters: {
    C_BPartner_ID: idFilter('i.c_bpartner_id'),
    DateInvoiced: dateRange('i.dateinvoiced'),
    IsSOTrx: yesNo('i.issotrx'),
  },
};

/**
 * Storage per product, locator and attribute instance, as the original's RV_Storage reads its
 * M_Storage view: the on-hand rows, and the reserved (sales) and ordered (purchase) quantities
 * of each warehouse at its reserve locator (else its default locator). Available is on hand
 * less reserved.
 */
const STORAGE: ReportViewDef = {
  value: 'RV_Storage',
  from: `(SELECT s.ad_client_id, s.ad_org_id, s.m_product_id, s.m_locator_id, s.m_attributesetinstance_id,
            sum(s.qtyonhand) AS qtyonhand, sum(s.qtyreserved) AS qtyreserved, sum(s.qtyordered) AS qtyordered
       FROM (SELECT oh.ad_client_id, oh.ad_org_id, oh.m_product_id, oh.m_locator_id, oh.m_attributesetinstance_id,
                    oh.qtyonhand, 0 AS qtyreserved, 0 AS qtyordered
               FROM m_storageonhand oh WHERE oh.isactive = 'Y'
             UNION ALL
             SELECT r.ad_client_id, r.ad_org_id, r.m_product_id,
                    coalesce(wh.m_reservelocator_id, (SELECT dl.m_locator_id FROM m_locator dl WHERE dl.m_warehouse_id = wh.m_warehouse_id AND dl.isactive = 'Y'
                                                        ORDER BY dl.isdefault DESC, dl.priorityno, dl.m_locator_id LIMIT 1)),
                    r.m_attributesetinstance_id, 0,
                    CASE WHEN r.issotrx = 'Y' THEN r.qty ELSE 0 END, CASE WHEN r.issotrx = 'Y' THEN 0 ELSE r.qty END
               FROM m_storagereservation r JOIN m_warehouse wh ON wh.m_warehouse_id = r.m_warehouse_id
              WHERE r.isactive = 'Y' AND r.qty <> 0) s
      GROUP BY s.ad_client_id, s.ad_org_id, s.m_product_id, s.m_locator_id, s.m_attributesetinstance_id) st
    JOIN m_locator l ON l.m_locator_id = st.m_locator_id
    JOIN m_warehouse w ON w.m_warehouse_id = l.m_warehouse_id
    JOIN m_product p ON p.m_product_id = st.m_product_id
    LEFT JOIN m_product_category pc ON pc.m_product_category_id = p.m_product_category_id
    LEFT JOIN c_uom u ON u.c_uom_id = p.c_uom_id`,
  where: 'TRUE',
  accessTable: 'M_StorageOnHand',
  accessAlias: 'st',
  columns: {
    Warehouse: { expr: 'w.name', label: 'Warehouse', type: 'text' },
    Locator: { expr: 'l.value', label: 'Locator', type: 'text' },
    Value: { expr: 'p.value', label: 'Search Key', type: 'text' },
    Product: { expr: 'p.name', label: 'Product', type: 'text' },
    Category: { expr: `coalesce(pc.name, '')`, label: 'Product Category', type: 'text' },
    UOM: { expr: `coalesce(u.name, '')`, label: 'UOM', type: 'text' },
    QtyOnHand: { expr: 'st.qtyonhand::float8', label: 'On Hand Quantity', type: 'quantity' },
    QtyReserved: { expr: 'st.qtyreserved::float8', label: 'Reserved Quantity', type: 'quantity' },
    QtyOrdered: { expr: 'st.qtyordered::float8', label: 'Ordered Quantity', type: 'quantity' },
    QtyAvailable: { expr: '(st.qtyonhand - st.qtyreserved)::float8', label: 'Available Quantity', type: 'quantity' },
  },
  filters: {
    M_Product_Category_ID: idFilter('p.m_product_category_id'),
    M_Warehouse_ID: idFilter('l.m_warehouse_id'),
    M_Locator_ID: idFilter('st.m_locator_id'),
    M_Product_ID: idFilter('st.m_product_id'),
  },
};

export const REPORT_VIEWS: ReadonlyMap<string, ReportViewDef> = new Map([ORDER_DETAIL, BPARTNER_OPEN, STORAGE].map((v) => [v.value.toLowerCase(), v]));

/** A layout of a report view (an AD_PrintFormat by Value): columns in order, grouping, sums, order. */
export interface PrintLayout {
  view: string;
  columns: string[];
  groupBy?: string;
  sums: string[];
  orderBy: string[];
}

export const REPORT_LAYOUTS: ReadonlyMap<string, PrintLayout> = new Map(
  Object.entries({
    RV_OrderDetail: {
      view: 'RV_OrderDetail',
      columns: ['DocumentNo', 'DateOrdered', 'BPartner', 'Line', 'Product', 'QtyOrdered', 'QtyDelivered', 'QtyToDeliver', 'PriceActual', 'LineNetAmt'],
      sums: ['LineNetAmt'],
      orderBy: ['DateOrdered', 'DocumentNo', 'Line'],
    },
    RV_OrderDetail_ByPartner: {
      view: 'RV_OrderDetail',
      columns: ['BPartner', 'DocumentNo', 'DateOrdered', 'Product', 'QtyOrdered', 'QtyToDeliver', 'LineNetAmt'],
      groupBy: 'BPartner',
      sums: ['QtyOrdered', 'QtyToDeliver', 'LineNetAmt'],
      orderBy: ['BPartner', 'DateOrdered', 'DocumentNo', 'Line'],
    },
    RV_BPartnerOpen: {
      view: 'RV_BPartnerOpen',
      columns: ['BPartner', 'DocumentNo', 'DateInvoiced', 'GrandTotal', 'PaidAmt', 'OpenAmt'],
      groupBy: 'BPartner',
      sums: ['GrandTotal', 'PaidAmt', 'OpenAmt'],
      orderBy: ['BPartner', 'DateInvoiced', 'DocumentNo'],
    },
    RV_Storage: {
      view: 'RV_Storage',
      columns: ['Warehouse', 'Locator', 'Value', 'Product', 'Category', 'UOM', 'QtyOnHand', 'QtyReserved', 'QtyOrdered', 'QtyAvailable'],
      groupBy: 'Warehouse',
      sums: ['QtyOnHand', 'QtyReserved', 'QtyOrdered', 'QtyAvailable'],
      orderBy: ['Warehouse', 'Locator', 'Value'],
    },
  }).map(([k, v]) => [k.toLowerCase(), v as PrintLayout]),
);
