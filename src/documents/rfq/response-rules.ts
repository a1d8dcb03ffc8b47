import type { ModelEvent, Row } from '../../events/model-events.js';
import { fillEmpty, invalid } from '../row-values.js';
import { defaultLocation, parentOf, workDates } from './rfq-rules.js';

/** Why a response cannot be complete, or null: it needs the prices its RfQ type asks for. */
async function incompleteReason(e: ModelEvent, quoteType: string): Promise<string | null> {
  if (quoteType === 'T') return Number(e.row.price ?? 0) > 0 ? null : 'the RfQ asks for a total price and the response has none (column Price)';
  const { rows } = await e.tx.query<{ priced: number; open: number }>(
    `SELECT count(*) FILTER (WHERE q.price > 0) AS priced, count(*) FILTER (WHERE COALESCE(q.price, 0) <= 0) AS open
       FROM c_rfqresponseline l JOIN c_rfqresponselineqty q ON q.c_rfqresponseline_id = l.c_rfqresponseline_id AND q.isactive = 'Y'
      WHERE l.c_rfqresponse_id = $1 AND l.isactive = 'Y'`,
    [e.row.c_rfqresponse_id],
  );
  const { priced, open } = { priced: Number(rows[0]?.priced ?? 0), open: Number(rows[0]?.open ?? 0) };
  if (quoteType === 'A' && open > 0) return `the RfQ asks for a price of every quantity and ${open} have none`;
  if (priced === 0) return 'no quantity of the response has a price';
  return null;
}

/**
 * A response takes its RfQ's name and currency and the partner's first location unless given. It
 * is complete only with the prices its RfQ type asks for; a closed response cannot change.
 */
export async function responseBeforeSave(e: ModelEvent): Promise<void> {
  const row = e.row;
  if (e.type === 'before-change' && e.old?.processed === 'Y') throw invalid(`RfQ response ${String(row.name)} is closed: it cannot change`);
  const rfq = await parentOf(e, 'c_rfqresponse', row.c_rfq_id, 'C_RfQ_ID');
  if (e.type === 'before-new') {
    if (rfq.processed === 'Y') throw invalid(`RfQ ${String(rfq.documentno)} is closed: it takes no responses (column C_RfQ_ID)`);
    fillEmpty(e, 'name', rfq.name);
    fillEmpty(e, 'c_currency_id', rfq.c_currency_id);
    await defaultLocation(e);
  }
  workDates(row);
  if (row.iscomplete === 'Y') {
    const reason = await incompleteReason(e, String(rfq.quotetype));
    if (reason) throw invalid(`The response cannot be complete: ${reason} (column IsComplete)`);
  }
}

/** A response line answers a line of the response's RfQ; the lines of a closed response cannot change. */
export async function responseLineBeforeSave(e: ModelEvent): Promise<void> {
  const response = await parentOf(e, 'c_rfqresponseline', e.row.c_rfqresponse_id, 'C_RfQResponse_ID');
  if (response.processed === 'Y') throw invalid(`RfQ response ${String(response.response)} is closed: its lines cannot change`);
  await assertSameParent(e, 'SELECT c_rfq_id AS parent FROM c_rfqline WHERE c_rfqline_id = $1', e.row.c_rfqline_id, response.c_rfq_id, 'C_RfQLine_ID');
}

/** A row answering an RfQ line (or quantity) names one of the RfQ (or line) its parent answers. */
async function assertSameParent(e: ModelEvent, sql: string, id: unknown, expected: unknown, column: string): Promise<void> {
  const parent = (await e.tx.query<Row>(sql, [id])).rows[0]?.parent;
  if (parent === undefined || String(parent) !== String(expected)) throw invalid(`${String(id)} is not part of the RfQ this response answers (column ${column})`);
}

/** Prices of a closed response cannot change; a price is not negative, a discount a percentage. */
export async function responseQtyBeforeSave(e: ModelEvent): Promise<void> {
  const response = await parentOf(e, 'c_rfqresponselineqty', e.row.c_rfqresponseline_id, 'C_RfQResponseLine_ID');
  if (response.processed === 'Y') throw invalid(`RfQ response ${String(response.response)} is closed: its prices cannot change`);
  await assertSameParent(e, 'SELECT c_rfqline_id AS parent FROM c_rfqlineqty WHERE c_rfqlineqty_id = $1', e.row.c_rfqlineqty_id, response.c_rfqline_id, 'C_RfQLineQty_ID');
  if (Number(e.row.price ?? 0) < 0) throw invalid('A price cannot be negative (column Price)');
  const discount = Number(e.row.discount ?? 0);
  if (discount < 0 || discount > 100) throw invalid('The discount is a percentage from 0 to 100 (column Discount)');
}

