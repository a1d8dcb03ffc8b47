import { badRequest } from '../../errors.js';
import type { Row } from '../../events/model-events.js';
import { insertRecord } from '../../records/write/persist.js';
import { createWriteContext } from '../../records/write/write-context.js';
import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { completeResponses, netAmount, rfqOfCall } from './rfq-record.js';

/** The purchase quantities of a response's lines (all, or the winning ones) with their prices. */
const PURCHASE_SQL = (winningOnly: boolean) => `SELECT rl.m_product_id, lq.c_uom_id, lq.qty, q.price, q.discount, l.description
  FROM c_rfqresponseline l JOIN c_rfqresponselineqty q ON q.c_rfqresponseline_id = l.c_rfqresponseline_id
  JOIN c_rfqlineqty lq ON lq.c_rfqlineqty_id = q.c_rfqlineqty_id AND lq.isactive = 'Y' AND lq.ispurchaseqty = 'Y'
  JOIN c_rfqline rl ON rl.c_rfqline_id = l.c_rfqline_id
 WHERE l.c_rfqresponse_id = $1 AND l.isactive = 'Y' ${winningOnly ? "AND l.isselectedwinner = 'Y'" : ''}
 ORDER BY rl.line, rl.c_rfqline_id, lq.qty`;

/** A draft purchase order to the response's vendor with the given lines; the response then names it. */
async function orderFor(c: ProcessCall, rfq: Row, response: Row, lines: Row[]): Promise<Row> {
  const dict = c.s.dictionary.current;
  const wc = createWriteContext(dict, c.auth, c.tx, c.s.events);
  const docType = c.param('C_DocType_ID')?.value;
  const promised = response.dateworkcomplete ?? rfq.dateworkcomplete;
  const created = await insertRecord(wc, dict.byName.get('c_order')!, {
    AD_Org_ID: rfq.ad_org_id, IsSOTrx: false, C_BPartner_ID: response.c_bpartner_id, C_BPartner_Location_ID: response.c_bpartner_location_id,
    SalesRep_ID: rfq.salesrep_id, Description: `RfQ ${String(rfq.documentno)}: ${String(rfq.name)}`,
    ...(typeof docType === 'number' ? { C_DocTypeTarget_ID: docType } : {}),
    ...(promised ? { DatePromised: promised } : {}),
    // A quantity without a price (quote total only asks for none) is priced as any order line.
    C_OrderLine: lines.map((l) => ({
      M_Product_ID: l.m_product_id, C_UOM_ID: l.c_uom_id, QtyEntered: l.qty, ...(netAmount(l.price, l.discount) > 0 ? { PriceEntered: netAmount(l.price, l.discount) } : {}),
      ...(l.description ? { Description: l.description } : {}),
    })),
  });
  await wc.deferred.flush();
  await c.tx.query('UPDATE c_rfqresponse SET c_order_id = $2, updated = now(), updatedby = $3 WHERE c_rfqresponse_id = $1', [response.c_rfqresponse_id, created.row.c_order_id, c.auth.userId]);
  c.log({ msg: `Purchase order ${String(created.row.documentno)} to ${String(response.name)}`, tableId: dict.byName.get('c_order')!.id, recordId: Number(created.row.c_order_id) });
  return created.row;
}

/**
 * Create Purchase Order (the original's RfQCreatePO): a response selected as winner of the whole
 * RfQ gets one draft purchase order of all its lines' purchase quantities; otherwise each response
 * with winning lines gets one of those lines. Lines are at the response's net price (less its
 * discount); one without a price is priced as any purchase order line. A response that already has its order gets no second one.
 */
export async function createPoFromRfq(c: ProcessCall): Promise<ProcessOutcome> {
  const rfq = await rfqOfCall(c);
  const responses = await completeResponses(c, Number(rfq.c_rfq_id));
  if (responses.length === 0) throw badRequest('No responses', `RfQ ${String(rfq.documentno)} has no complete responses`);
  const winner = responses.find((r) => r.isselectedwinner === 'Y');
  const candidates = winner ? [winner] : responses;
  let created = 0;
  for (const response of candidates) {
    if (response.c_order_id !== null) continue;
    const { rows } = await c.tx.query<Row>(PURCHASE_SQL(!winner), [response.c_rfqresponse_id]);
    if (rows.length === 0) continue;
    if (rows.some((l) => l.m_product_id === null)) throw badRequest('No product', `A winning line of response ${String(response.name)} has no product to order`);
    await orderFor(c, rfq, response, rows);
    created++;
  }
  return { summary: created ? `Purchase orders created: ${created}` : 'No purchase order to create: the winners have their orders or no purchase quantities' };
}
