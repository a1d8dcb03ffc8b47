import { badRequest } from '../../errors.js';
import type { Row } from '../../events/model-events.js';
import { insertRecord } from '../../records/write/persist.js';
import { createWriteContext } from '../../records/write/write-context.js';
import { runDocumentAction } from '../engine/engine.js';
import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { assertWritableRow } from '../../access/access.js';

/** The completed RMA a process runs on (its record), with its document type's return and credit memo types. */
async function completedRma(c: ProcessCall): Promise<Row> {
  const rma = c.s.dictionary.current.byName.get('m_rma')!;
  if (!c.record || c.record.table !== rma) throw badRequest('Invalid parameter', 'The process runs on an RMA (M_RMA record)');
  const { rows } = await c.tx.query<Row>(
    `SELECT h.*, dt.c_doctypeshipment_id, dt.c_doctypeinvoice_id, io.c_order_id AS ship_order_id, io.m_warehouse_id AS ship_warehouse_id, io.c_bpartner_location_id AS ship_location_id
       FROM m_rma h JOIN c_doctype dt ON dt.c_doctype_id = h.c_doctype_id LEFT JOIN m_inout io ON io.m_inout_id = h.inout_id
      WHERE h.m_rma_id = $1 AND h.ad_client_id = $2 FOR UPDATE OF h`,
    [c.record.id, c.auth.clientId],
  );
  const row = rows[0];
  if (!row) throw badRequest('Invalid parameter', `RMA ${c.record.id} not found`);
  assertWritableRow(c.auth, rma, Number(row.ad_client_id), Number(row.ad_org_id), 'update');
  if (row.docstatus !== 'CO') throw badRequest('Invalid parameter', `RMA ${String(row.documentno)} is not completed (status ${String(row.docstatus)})`);
  return row;
}

/** Header values every document generated from an RMA takes from it. */
const fromRma = (rma: Row): Record<string, unknown> => ({
  AD_Org_ID: rma.ad_org_id,
  M_RMA_ID: rma.m_rma_id,
  C_BPartner_ID: rma.c_bpartner_id,
  ...(rma.ship_order_id ? { C_Order_ID: rma.ship_order_id } : {}),
  Description: `RMA ${String(rma.documentno)}`,
});

/** Creates a document with its lines through the record engine, then runs the process's document action on it. */
async function createDocument(c: ProcessCall, tableName: string, body: Record<string, unknown>): Promise<Row> {
  const wc = createWriteContext(c.s.dictionary.current, c.auth, c.tx, c.s.events);
  const table = wc.dict.byName.get(tableName)!;
  const created = await insertRecord(wc, table, body);
  await wc.deferred.flush();
  const id = Number(created.row[table.keyColumn!.dbName]);
  const action = c.param('DocAction')?.value;
  const code = typeof action === 'string' && action !== '' ? action : 'CO';
  const done = code === 'DR' || code === '--' ? created.row : (await runDocumentAction(wc, table, id, code)).row;
  c.log({ msg: `${table.name} ${String(done.documentno ?? id)}`, tableId: table.id, recordId: id });
  return done;
}

/**
 * Generate Shipments/Receipts from RMA (the original's InOutGenerateRMA): one return document of
 * the RMA's return type (MM Customer Return: C+, MM Vendor Return: V-) for what its lines still
 * return (quantity minus what returns not voided or reversed hold), each line on its shipment
 * line's order line and locator, so the order's delivered quantity goes back; completed by default.
 */
export async function generateReturnsFromRma(c: ProcessCall): Promise<ProcessOutcome> {
  const rma = await completedRma(c);
  const { rows } = await c.tx.query<Row>(
    `SELECT r.m_rmaline_id, il.c_orderline_id, il.m_product_id, il.c_charge_id, il.m_locator_id, il.m_attributesetinstance_id,
            r.qty - COALESCE((SELECT sum(x.movementqty) FROM m_inoutline x JOIN m_inout io ON io.m_inout_id = x.m_inout_id
                               WHERE x.m_rmaline_id = r.m_rmaline_id AND io.docstatus NOT IN ('VO', 'RE')), 0) AS open
       FROM m_rmaline r JOIN m_inoutline il ON il.m_inoutline_id = r.m_inoutline_id
      WHERE r.m_rma_id = $1 AND r.isactive = 'Y' ORDER BY r.line, r.m_rmaline_id`,
    [rma.m_rma_id],
  );
  const open = rows.filter((r) => Number(r.open) > 0);
  if (!open.length) return { summary: 'Nothing left to return' };
  const doc = await createDocument(c, 'm_inout', {
    ...fromRma(rma),
    C_DocType_ID: rma.c_doctypeshipment_id,
    ...(rma.ship_location_id ? { C_BPartner_Location_ID: rma.ship_location_id } : {}),
    M_Warehouse_ID: rma.ship_warehouse_id,
    M_InOutLine: open.map((l) => ({
      M_RMALine_ID: l.m_rmaline_id,
      ...(l.c_orderline_id ? { C_OrderLine_ID: l.c_orderline_id } : {}),
      ...(l.m_product_id ? { M_Product_ID: l.m_product_id } : { C_Charge_ID: l.c_charge_id }),
      ...(l.m_locator_id ? { M_Locator_ID: l.m_locator_id } : {}),
      ...(l.m_attributesetinstance_id ? { M_AttributeSetInstance_ID: l.m_attributesetinstance_id } : {}),
      MovementQty: Number(l.open),
    })),
  });
  return { summary: `Return ${String(doc.documentno)} generated` };
}

/**
 * Generate Credit Memos from RMA (the original's InvoiceGenerateRMA): one credit memo of the RMA's
 * invoice type (AR or AP Credit Memo) for the completed return lines of the RMA not invoiced yet,
 * priced as their order lines (else at the RMA line's amount), so the order's invoiced quantity
 * goes back; the return lines are then invoiced. Completed by default.
 */
export async function generateCreditMemosFromRma(c: ProcessCall): Promise<ProcessOutcome> {
  const rma = await completedRma(c);
  const { rows } = await c.tx.query<Row>(
    `SELECT il.m_inoutline_id, il.m_rmaline_id, il.c_orderline_id, il.m_product_id, il.c_charge_id, il.movementqty, r.amt, r.c_tax_id
       FROM m_inoutline il JOIN m_inout io ON io.m_inout_id = il.m_inout_id JOIN m_rmaline r ON r.m_rmaline_id = il.m_rmaline_id
      WHERE r.m_rma_id = $1 AND io.docstatus IN ('CO', 'CL') AND il.isinvoiced = 'N' AND il.movementqty <> 0
        AND NOT EXISTS (SELECT 1 FROM c_invoiceline x JOIN c_invoice i ON i.c_invoice_id = x.c_invoice_id WHERE x.m_inoutline_id = il.m_inoutline_id AND i.docstatus NOT IN ('VO', 'RE'))
      ORDER BY io.movementdate, il.line FOR UPDATE OF il`,
    [rma.m_rma_id],
  );
  if (!rows.length) return { summary: 'No completed returns to credit' };
  const doc = await createDocument(c, 'c_invoice', {
    ...fromRma(rma),
    C_DocTypeTarget_ID: rma.c_doctypeinvoice_id,
    C_InvoiceLine: rows.map((l) => ({
      M_InOutLine_ID: l.m_inoutline_id,
      M_RMALine_ID: l.m_rmaline_id,
      ...(l.c_orderline_id ? { C_OrderLine_ID: l.c_orderline_id } : { PriceEntered: l.amt, PriceActual: l.amt, ...(l.c_tax_id ? { C_Tax_ID: l.c_tax_id } : {}) }),
      ...(l.m_product_id ? { M_Product_ID: l.m_product_id } : { C_Charge_ID: l.c_charge_id }),
      QtyInvoiced: Number(l.movementqty),
    })),
  });
  await c.tx.query(`UPDATE m_inoutline SET isinvoiced = 'Y' WHERE m_inoutline_id = ANY($1::bigint[])`, [rows.map((l) => Number(l.m_inoutline_id))]);
  return { summary: `Credit memo ${String(doc.documentno)} generated` };
}
