import type { ModelEvent, Row } from '../../events/model-events.js';
import { fillEmpty, idOf, invalid, isEmptyValue, nowTimestamp, todayDate } from '../row-values.js';

/** The RfQ (or response) a row belongs to, through its parents. */
const RFQ_OF: Record<string, string> = {
  c_rfqline: 'SELECT r.processed, r.documentno FROM c_rfq r WHERE r.c_rfq_id = $1',
  c_rfqlineqty: `SELECT r.processed, r.documentno, l.m_product_id FROM c_rfqline l JOIN c_rfq r ON r.c_rfq_id = l.c_rfq_id WHERE l.c_rfqline_id = $1`,
  c_rfqresponse: 'SELECT r.processed, r.documentno, r.name, r.c_currency_id, r.quotetype FROM c_rfq r WHERE r.c_rfq_id = $1',
  c_rfqresponseline: 'SELECT s.processed, s.name AS response, s.c_rfq_id FROM c_rfqresponse s WHERE s.c_rfqresponse_id = $1',
  c_rfqresponselineqty: `SELECT s.processed, s.name AS response, l.c_rfqline_id FROM c_rfqresponseline l JOIN c_rfqresponse s ON s.c_rfqresponse_id = l.c_rfqresponse_id WHERE l.c_rfqresponseline_id = $1`,
};

export async function parentOf(e: ModelEvent, query: keyof typeof RFQ_OF, id: unknown, column: string): Promise<Row> {
  const row = (await e.tx.query<Row>(RFQ_OF[query]!, [id])).rows[0];
  if (!row) throw invalid(`${String(id)} is not found (column ${column})`);
  return row;
}

/**
 * A new RfQ takes the client's accounting currency and today as response date; the RfQ type sets
 * the flags that follow from it (quote total only, all quantities). A closed RfQ cannot change.
 */
export async function rfqBeforeSave(e: ModelEvent): Promise<void> {
  const row = e.row;
  if (e.type === 'before-change' && e.old?.processed === 'Y') throw invalid(`RfQ ${String(row.documentno)} is closed: it cannot change`);
  if (e.type === 'before-new') {
    if (idOf(row.c_currency_id) === null) {
      const { rows } = await e.tx.query<{ id: number }>(
        `SELECT s.c_currency_id AS id FROM ad_clientinfo i JOIN c_acctschema s ON s.c_acctschema_id = i.c_acctschema1_id WHERE i.ad_client_id = $1`,
        [row.ad_client_id ?? e.auth.clientId],
      );
      fillEmpty(e, 'c_currency_id', rows[0]?.id);
    }
    fillEmpty(e, 'dateresponse', nowTimestamp());
  }
  workDates(row);
  row.isquotetotalamt = row.quotetype === 'T' ? 'Y' : 'N';
  row.isquoteallqty = row.quotetype === 'A' ? 'Y' : 'N';
}

const DAY_MS = 86_400_000;
const dayOf = (v: unknown): number => Date.parse(`${(v instanceof Date ? v.toISOString() : String(v)).slice(0, 10)}T00:00:00Z`);

/** Work start and delivery days give the work-complete date; else start and complete give the days. */
export function workDates(row: Row): void {
  if (isEmptyValue(row.dateworkstart)) return;
  const days = Number(row.deliverydays ?? 0);
  if (days !== 0) row.dateworkcomplete = `${new Date(dayOf(row.dateworkstart) + days * DAY_MS).toISOString().slice(0, 10)} 00:00:00`;
  else if (!isEmptyValue(row.dateworkcomplete)) row.deliverydays = Math.round((dayOf(row.dateworkcomplete) - dayOf(row.dateworkstart)) / DAY_MS);
}

/** An RfQ line gets the next line number; the lines of a closed RfQ cannot change. */
export async function rfqLineBeforeSave(e: ModelEvent): Promise<void> {
  const rfq = await parentOf(e, 'c_rfqline', e.row.c_rfq_id, 'C_RfQ_ID');
  if (rfq.processed === 'Y') throw invalid(`RfQ ${String(rfq.documentno)} is closed: its lines cannot change (column C_RfQ_ID)`);
  workDates(e.row);
  if (e.type === 'before-new' && isEmptyValue(e.row.line)) {
    const { rows } = await e.tx.query<{ n: number }>('SELECT COALESCE(max(line), 0) AS n FROM c_rfqline WHERE c_rfq_id = $1', [e.row.c_rfq_id]);
    e.row.line = (Math.floor(Number(rows[0]!.n) / 10) + 1) * 10;
  }
}

/** A quantity of an RfQ line is positive, in the product's unit unless given; not on a closed RfQ. */
export async function rfqLineQtyBeforeSave(e: ModelEvent): Promise<void> {
  const line = await parentOf(e, 'c_rfqlineqty', e.row.c_rfqline_id, 'C_RfQLine_ID');
  if (line.processed === 'Y') throw invalid(`RfQ ${String(line.documentno)} is closed: its quantities cannot change (column C_RfQLine_ID)`);
  if (idOf(e.row.c_uom_id) === null && line.m_product_id !== null) {
    const { rows } = await e.tx.query<{ id: number }>('SELECT c_uom_id AS id FROM m_product WHERE m_product_id = $1', [line.m_product_id]);
    fillEmpty(e, 'c_uom_id', rows[0]?.id);
  }
  if (Number(e.row.qty) <= 0) throw invalid('The quantity of an RfQ line must be positive (column Qty)');
}

/** A partner's first active location, where the row names none. */
export async function defaultLocation(e: ModelEvent): Promise<void> {
  if (idOf(e.row.c_bpartner_location_id) !== null || idOf(e.row.c_bpartner_id) === null) return;
  const { rows } = await e.tx.query<{ id: number }>(
    `SELECT c_bpartner_location_id AS id FROM c_bpartner_location WHERE c_bpartner_id = $1 AND isactive = 'Y' ORDER BY c_bpartner_location_id LIMIT 1`,
    [idOf(e.row.c_bpartner_id)],
  );
  fillEmpty(e, 'c_bpartner_location_id', rows[0]?.id);
}

/** A new subscriber is subscribed today at the partner's first location unless given. */
export async function subscriberBeforeNew(e: ModelEvent): Promise<void> {
  await defaultLocation(e);
  fillEmpty(e, 'subscribedate', todayDate());
}
