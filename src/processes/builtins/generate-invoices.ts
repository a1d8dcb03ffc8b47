import { readPredicate } from '../../access/access.js';
import { ident, SqlBuilder } from '../../db/sql.js';
import { badRequest } from '../../errors.js';
import { insertRecord } from '../../records/write/persist.js';
import { createWriteContext } from '../../records/write/write-context.js';
import type { ProcessCall, ProcessOutcome } from '../runner.js';

interface ShipmentLine {
  m_inout_id: number;
  m_inoutline_id: number;
  ad_org_id: number;
  c_bpartner_id: number;
  c_bpartner_location_id: number;
  c_order_id: number | null;
  documentno: string;
  poreference: string | null;
  m_product_id: number | null;
  c_charge_id: number | null;
  c_orderline_id: number | null;
  c_uom_id: number | null;
  movementqty: number | string;
  qtyentered: number | string;
  movementtype: string;
  description: string | null;
}

/**
 * Generate Invoices from Shipments: one customer invoice per completed (or closed) customer
 * shipment whose lines are not invoiced yet, written through the generic insertRecord (so the
 * invoice rules price, tax and total it as any invoice created over the API), then marks the
 * shipment lines invoiced. A customer return (movement C+) is credited, as the original's
 * generator does for returns: an AR Credit Memo with the returned (positive) quantities.
 * Parameters: C_BPartner_ID, MovementDate (range), DateInvoiced; run on an M_InOut record it
 * invoices that shipment only.
 */
export async function generateInvoices(c: ProcessCall): Promise<ProcessOutcome> {
  const dict = c.s.dictionary.current;
  const inout = dict.byName.get('m_inout')!;
  const invoice = dict.byName.get('c_invoice')!;
  if (c.record && c.record.table !== inout) throw badRequest('Invalid parameter', 'The process runs on shipments (M_InOut)');
  const sql = new SqlBuilder();
  const where = [`io."ad_client_id" = ${sql.param(c.auth.clientId)}`, `io."issotrx" = 'Y'`, `io."docstatus" IN ('CO', 'CL')`, readPredicate(c.auth, inout, 'io', sql)];
  if (c.record) where.push(`io."m_inout_id" = ${sql.param(c.record.id)}`);
  const bp = c.param('C_BPartner_ID')?.value;
  if (typeof bp === 'number') where.push(`io."c_bpartner_id" = ${sql.param(bp)}`);
  const moved = c.param('MovementDate');
  if (typeof moved?.value === 'string') where.push(`io."movementdate" >= ${sql.param(moved.value)}`);
  if (typeof moved?.to === 'string') where.push(`io."movementdate" <= ${sql.param(moved.to)}`);
  const { rows } = await c.tx.query<ShipmentLine>(
    `SELECT io.m_inout_id, l.m_inoutline_id, io.ad_org_id, io.c_bpartner_id, io.c_bpartner_location_id, io.c_order_id, io.documentno, io.poreference,
            l.m_product_id, l.c_charge_id, l.c_orderline_id, l.c_uom_id, l.movementqty, l.qtyentered, io.movementtype, l.description
       FROM m_inout io JOIN m_inoutline l ON l.m_inout_id = io.m_inout_id AND l.isactive = 'Y' AND l.isinvoiced = 'N' AND l.isdescription = 'N'
      WHERE ${where.join(' AND ')}
        AND NOT EXISTS (SELECT 1 FROM c_invoiceline il WHERE il.m_inoutline_id = l.m_inoutline_id AND il.isactive = 'Y')
      ORDER BY io.movementdate, io.m_inout_id, l.line, l.m_inoutline_id
      FOR UPDATE OF l`,
    sql.values,
  );
  const docTypes = new Map<string, number>();
  for (const base of new Set(rows.map((r) => (r.movementtype === 'C+' ? 'ARC' : 'ARI')))) docTypes.set(base, await invoiceDocType(c, base));
  const dateInvoiced = c.param('DateInvoiced')?.value;
  const byShipment = new Map<number, ShipmentLine[]>();
  for (const r of rows) byShipment.set(Number(r.m_inout_id), [...(byShipment.get(Number(r.m_inout_id)) ?? []), r]);
  const wc = createWriteContext(dict, c.auth, c.tx, c.s.events);
  let count = 0;
  for (const [, lines] of byShipment) {
    const h = lines[0]!;
    const body: Record<string, unknown> = {
      AD_Org_ID: Number(h.ad_org_id),
      C_BPartner_ID: Number(h.c_bpartner_id),
      C_BPartner_Location_ID: Number(h.c_bpartner_location_id),
      C_DocTypeTarget_ID: docTypes.get(h.movementtype === 'C+' ? 'ARC' : 'ARI'),
      Description: `Shipment ${h.documentno}`,
      C_InvoiceLine: lines.map((l) => ({
        ...(l.m_product_id ? { M_Product_ID: Number(l.m_product_id) } : { C_Charge_ID: Number(l.c_charge_id) }),
        // Quantities as shipped (or returned): the line's unit and its quantity, and the product's.
        ...(l.c_uom_id ? { C_UOM_ID: Number(l.c_uom_id) } : {}),
        QtyEntered: Number(l.qtyentered),
        QtyInvoiced: Number(l.movementqty),
        M_InOutLine_ID: Number(l.m_inoutline_id),
        ...(l.c_orderline_id ? { C_OrderLine_ID: Number(l.c_orderline_id) } : {}),
        ...(l.description ? { Description: l.description } : {}),
      })),
    };
    if (h.c_order_id) body.C_Order_ID = Number(h.c_order_id);
    if (h.poreference) body.POReference = h.poreference;
    if (typeof dateInvoiced === 'string') body.DateInvoiced = dateInvoiced;
    const created = await insertRecord(wc, invoice, body);
    await wc.deferred.flush();
    const lineIds = lines.map((l) => Number(l.m_inoutline_id));
    // Bookkeeping of the shipment, as the original's generator does: its lines are invoiced now.
    await wc.tx.query(`UPDATE m_inoutline SET isinvoiced = 'Y' WHERE m_inoutline_id = ANY($1::bigint[])`, [lineIds]);
    const invoiceId = Number(created.row[invoice.keyColumn!.dbName]);
    c.log({ msg: `Invoice ${String(created.row.documentno ?? invoiceId)} from shipment ${h.documentno}`, tableId: invoice.id, recordId: invoiceId });
    count++;
  }
  return { summary: count ? `Invoices generated: ${count}` : 'No shipments to invoice' };
}

/** The client's (default) invoice document type of a base type: ARI for shipments, ARC for customer returns. */
async function invoiceDocType(c: ProcessCall, base: 'ARI' | 'ARC'): Promise<number> {
  const { rows } = await c.tx.query<{ c_doctype_id: number }>(
    `SELECT c_doctype_id FROM c_doctype WHERE ad_client_id = $1 AND docbasetype = $2 AND isactive = 'Y' ORDER BY isdefault DESC, c_doctype_id LIMIT 1`,
    [c.auth.clientId, base],
  );
  if (!rows[0]) throw badRequest('Invalid parameter', `The client has no ${base === 'ARC' ? 'customer credit memo' : 'customer invoice'} document type`);
  return Number(rows[0].c_doctype_id);
}
