import { badRequest } from '../../errors.js';
import type { Row } from '../../events/model-events.js';
import { insertRecord } from '../../records/write/persist.js';
import { createWriteContext } from '../../records/write/write-context.js';
import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { assertQuoteTotalValid, rfqOfCall } from './rfq-record.js';

/** The partners invited: the topic's subscribers who have not opted out, or the one partner given. */
async function invitedPartners(c: ProcessCall, rfq: Row): Promise<{ bp: number; location: number | null; user: number | null }[]> {
  const given = c.param('C_BPartner_ID')?.value;
  if (typeof given === 'number') {
    const { rows } = await c.tx.query<{ location: number | null }>(
      `SELECT (SELECT l.c_bpartner_location_id FROM c_bpartner_location l WHERE l.c_bpartner_id = b.c_bpartner_id AND l.isactive = 'Y' ORDER BY l.c_bpartner_location_id LIMIT 1) AS location
         FROM c_bpartner b WHERE b.c_bpartner_id = $1 AND b.ad_client_id = $2 AND b.isactive = 'Y'`,
      [given, c.auth.clientId],
    );
    if (!rows[0]) throw badRequest('Invalid parameter', `Business partner ${given} not found (parameter C_BPartner_ID)`);
    if (rows[0].location === null) throw badRequest('Invalid parameter', `Business partner ${given} has no location to send an RfQ to (parameter C_BPartner_ID)`);
    return [{ bp: given, location: Number(rows[0].location), user: null }];
  }
  const { rows } = await c.tx.query<{ bp: number; location: number; user: number | null }>(
    `SELECT c_bpartner_id AS bp, c_bpartner_location_id AS location, ad_user_id AS user FROM c_rfq_topicsubscriber
      WHERE c_rfq_topic_id = $1 AND isactive = 'Y' AND (optoutdate IS NULL OR optoutdate > now()) ORDER BY c_rfq_topicsubscriber_id`,
    [rfq.c_rfq_topic_id],
  );
  return rows.map((r) => ({ bp: Number(r.bp), location: Number(r.location), user: r.user === null ? null : Number(r.user) }));
}

/**
 * Create RfQ Response (the original's RfQCreate): a response for each subscriber of the RfQ's
 * topic (or for the business partner given), with a line per active RfQ line and a quantity per
 * active RfQ quantity of it, prices to fill in. A partner who already responded gets no second
 * response. The RfQ must be open, accept responses and have lines with quantities.
 */
export async function createRfqResponses(c: ProcessCall): Promise<ProcessOutcome> {
  const rfq = await rfqOfCall(c);
  if (rfq.processed === 'Y') throw badRequest('RfQ closed', `RfQ ${String(rfq.documentno)} is closed`);
  await assertQuoteTotalValid(c, rfq);
  if (rfq.isrfqresponseaccepted !== 'Y') throw badRequest('Responses not accepted', `RfQ ${String(rfq.documentno)} does not accept responses`);
  const { rows: quantities } = await c.tx.query<{ line: number; qty: number }>(
    `SELECT l.c_rfqline_id AS line, q.c_rfqlineqty_id AS qty FROM c_rfqline l JOIN c_rfqlineqty q ON q.c_rfqline_id = l.c_rfqline_id AND q.isactive = 'Y' AND q.isrfqqty = 'Y'
      WHERE l.c_rfq_id = $1 AND l.isactive = 'Y' ORDER BY l.line, l.c_rfqline_id, q.qty, q.c_rfqlineqty_id`,
    [rfq.c_rfq_id],
  );
  if (quantities.length === 0) throw badRequest('No RfQ lines', `RfQ ${String(rfq.documentno)} has no lines with RfQ quantities`);
  const partners = await invitedPartners(c, rfq);
  if (partners.length === 0) throw badRequest('No partners', 'The RfQ topic has no subscribers: give a business partner (parameter C_BPartner_ID)');
  const { rows: responded } = await c.tx.query<{ bp: number }>('SELECT c_bpartner_id AS bp FROM c_rfqresponse WHERE c_rfq_id = $1', [rfq.c_rfq_id]);
  const already = new Set(responded.map((r) => Number(r.bp)));
  const lines = new Map<number, number[]>();
  for (const q of quantities) lines.set(Number(q.line), [...(lines.get(Number(q.line)) ?? []), Number(q.qty)]);
  const dict = c.s.dictionary.current;
  const wc = createWriteContext(dict, c.auth, c.tx, c.s.events);
  const table = dict.byName.get('c_rfqresponse')!;
  let created = 0;
  for (const p of partners.filter((p) => !already.has(p.bp))) {
    const response = await insertRecord(wc, table, {
      AD_Org_ID: rfq.ad_org_id, C_RfQ_ID: rfq.c_rfq_id, C_BPartner_ID: p.bp, C_BPartner_Location_ID: p.location,
      ...(p.user !== null ? { AD_User_ID: p.user } : {}),
      ...(rfq.description ? { Description: rfq.description } : {}),
      C_RfQResponseLine: [...lines].map(([line, qtys]) => ({ C_RfQLine_ID: line, C_RfQResponseLineQty: qtys.map((qty) => ({ C_RfQLineQty_ID: qty })) })),
    });
    await wc.deferred.flush();
    created++;
    c.log({ msg: `Response ${String(response.row.c_rfqresponse_id)} for partner ${p.bp}`, tableId: table.id, recordId: Number(response.row.c_rfqresponse_id) });
  }
  return { summary: `RfQ responses created: ${created}` };
}
