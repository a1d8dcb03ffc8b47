import type { AuthContext } from '../../auth/context.js';
import type { Queryable } from '../../db/types.js';
import type { Table } from '../../dictionary/model.js';
import { badRequest } from '../../errors.js';
import type { ReportType } from '../../processes/parameters.js';
import { formContext, renderDocumentForm, type PrintedDocument } from '../../print/document-print.js';
import { DOCUMENT_STATUS_LIST, listName } from '../../print/print-text.js';
import type { CellValue, ColumnType } from '../../reports/report-model.js';

/** The print processes of moves and counts (the original's Rpt M_Movement and Rpt M_Inventory). */
export const MOVE_PRINT_PROCESS_ID = 290;
export const INVENTORY_PRINT_PROCESS_ID = 291;

interface Header {
  documentno: string;
  docstatus: string | null;
  movementdate: string | null;
  description: string | null;
  ad_org_id: string;
  doctype: string | null;
  subtype: string | null;
  warehouse: string | null;
}

type Column = { label: string; type: ColumnType };

/** What differs between the two forms: the header's table, its warehouse column, and the lines' columns and cells. */
interface StockForm {
  header: string;
  key: string;
  warehouse: string;
  lines: (subtype: string | null) => { columns: Column[]; sql: string };
}

const PRODUCT = `coalesce(p.name, '')`;

const MOVE: StockForm = {
  header: 'm_movement',
  key: 'm_movement_id',
  warehouse: 'm_warehouse_id',
  lines: () => ({
    columns: [
      { label: 'Line', type: 'number' },
      { label: 'Product', type: 'text' },
      { label: 'From Locator', type: 'text' },
      { label: 'To Locator', type: 'text' },
      { label: 'Quantity', type: 'quantity' },
      { label: 'Unit', type: 'text' },
    ],
    sql: `SELECT l.line::int AS c0, ${PRODUCT} AS c1, lf.value AS c2, lt.value AS c3, l.movementqty::float8 AS c4, u.name AS c5
            FROM m_movementline l LEFT JOIN m_product p ON p.m_product_id = l.m_product_id LEFT JOIN c_uom u ON u.c_uom_id = p.c_uom_id
            LEFT JOIN m_locator lf ON lf.m_locator_id = l.m_locator_id LEFT JOIN m_locator lt ON lt.m_locator_id = l.m_locatorto_id
           WHERE l.m_movement_id = $1 AND l.isactive = 'Y' ORDER BY l.line, l.m_movementline_id`,
  }),
};

const INVENTORY: StockForm = {
  header: 'm_inventory',
  key: 'm_inventory_id',
  warehouse: 'm_warehouse_id',
  lines: (subtype) =>
    subtype === 'IU'
      ? {
          columns: [
            { label: 'Line', type: 'number' },
            { label: 'Product', type: 'text' },
            { label: 'Locator', type: 'text' },
            { label: 'Used', type: 'quantity' },
            { label: 'Charge', type: 'text' },
          ],
          sql: `SELECT l.line::int AS c0, ${PRODUCT} AS c1, lc.value AS c2, l.qtyinternaluse::float8 AS c3, ch.name AS c4
                  FROM m_inventoryline l LEFT JOIN m_product p ON p.m_product_id = l.m_product_id
                  LEFT JOIN m_locator lc ON lc.m_locator_id = l.m_locator_id LEFT JOIN c_charge ch ON ch.c_charge_id = l.c_charge_id
                 WHERE l.m_inventory_id = $1 AND l.isactive = 'Y' ORDER BY l.line, l.m_inventoryline_id`,
        }
      : {
          columns: [
            { label: 'Line', type: 'number' },
            { label: 'Product', type: 'text' },
            { label: 'Locator', type: 'text' },
            { label: 'Book', type: 'quantity' },
            { label: 'Counted', type: 'quantity' },
            { label: 'Difference', type: 'quantity' },
          ],
          sql: `SELECT l.line::int AS c0, ${PRODUCT} AS c1, lc.value AS c2, l.qtybook::float8 AS c3, l.qtycount::float8 AS c4, (l.qtycount - l.qtybook)::float8 AS c5
                  FROM m_inventoryline l LEFT JOIN m_product p ON p.m_product_id = l.m_product_id
                  LEFT JOIN m_locator lc ON lc.m_locator_id = l.m_locator_id
                 WHERE l.m_inventory_id = $1 AND l.isactive = 'Y' ORDER BY l.line, l.m_inventoryline_id`,
        },
};

const FORMS: Record<string, StockForm> = { m_movement: MOVE, m_inventory: INVENTORY };

/**
 * The printed form of an inventory move or a physical inventory (count or internal use): the
 * organisation's letterhead, the number, date, document type, warehouse and status, the
 * description, and a line per document line (locators and quantity of a move; book, count and
 * difference of a count; quantity used and charge of an internal use).
 */
export async function printStockDocument(q: Queryable, auth: AuthContext, table: Table, id: number, type: ReportType | null): Promise<PrintedDocument> {
  const form = FORMS[table.dbName];
  if (!form) throw badRequest('Invalid table', `${table.name} records have no printed form`);
  const { rows } = await q.query<Header>(
    `SELECT h.documentno, h.docstatus, to_char(h.movementdate, 'YYYY-MM-DD') AS movementdate, h.description, h.ad_org_id,
            dt.name AS doctype, dt.docsubtypeinv AS subtype, w.name AS warehouse
       FROM ${form.header} h LEFT JOIN c_doctype dt ON dt.c_doctype_id = h.c_doctype_id LEFT JOIN m_warehouse w ON w.m_warehouse_id = h.${form.warehouse}
      WHERE h.${form.key} = $1`,
    [id],
  );
  const h = rows[0];
  if (!h) throw badRequest('Invalid record', `No ${table.name} ${id}`);
  const { columns, sql } = form.lines(h.subtype);
  const lines = await q.query<Record<string, CellValue>>(sql, [id]);
  const ctx = await formContext(q, auth, Number(h.ad_org_id), null);
  const kind = h.doctype ?? table.name;
  const title = `${kind} ${h.documentno}`;
  const details: [string, string][] = [
    ['Document No', h.documentno],
    ['Movement Date', h.movementdate ?? ''],
    ['Document Type', kind],
    ...(h.warehouse ? [['Warehouse', h.warehouse] as [string, string]] : []),
    ['Status', await listName(q, DOCUMENT_STATUS_LIST, h.docstatus, auth.language)],
  ];
  const file = await renderDocumentForm(
    {
      title,
      letterhead: ctx.letterhead,
      recipient: [],
      details,
      notes: h.description ? [h.description] : [],
      columns,
      cells: lines.rows.map((r) => columns.map((_, i) => r[`c${i}`] ?? null)),
      footer: [`Lines: ${lines.rows.length}`],
      numbers: ctx.numbers,
    },
    type,
  );
  return { file, title, name: `${kind.replace(/[^A-Za-z0-9]+/g, '_')}_${h.documentno}.${file.extension}`, printFormatName: table.dbName === 'm_movement' ? 'Movement_Header' : 'Inventory_Header', bpartnerId: null };
}
