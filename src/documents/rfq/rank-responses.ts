import { badRequest } from '../../errors.js';
import type { Row } from '../../events/model-events.js';
import type { ProcessCall, ProcessOutcome } from '../../processes/runner.js';
import { assertQuoteTotalValid, completeResponses, netAmount, rfqOfCall } from './rfq-record.js';

/** The rank of a quantity without a valid price, as the original marks it. */
export const UNRANKED = 999;

/** Ranks by amount: equal amounts share a rank, the next amount ranks by its position (1, 1, 3). */
export function rankByAmount<T>(items: readonly T[], amount: (item: T) => number): Map<T, number> {
  const sorted = [...items].sort((a, b) => amount(a) - amount(b));
  const ranks = new Map<T, number>();
  sorted.forEach((item, n) => {
    const previous = sorted[n - 1];
    ranks.set(item, previous !== undefined && amount(previous) === amount(item) ? ranks.get(previous)! : n + 1);
  });
  return ranks;
}

/** Quote total only: the responses with a price rank by it, one after the other, the first wins; those without rank 999. */
async function rankTotals(c: ProcessCall, responses: Row[]): Promise<void> {
  let rank = 0;
  for (const r of [...responses].sort((a, b) => Number(a.price) - Number(b.price))) {
    const ranking = Number(r.price) > 0 ? ++rank : UNRANKED;
    await c.tx.query(`UPDATE c_rfqresponse SET ranking = $2, isselectedwinner = $3, updated = now(), updatedby = $4 WHERE c_rfqresponse_id = $1`, [
      r.c_rfqresponse_id, ranking, ranking === 1 ? 'Y' : 'N', c.auth.userId,
    ]);
  }
}

const QTYS_SQL = `SELECT q.c_rfqresponselineqty_id AS id, q.c_rfqlineqty_id AS rfq_qty, q.price, q.discount, l.c_rfqresponseline_id AS line, l.c_rfqresponse_id AS response,
    lq.ispurchaseqty, q.isactive AS qty_active, l.isactive AS line_active
  FROM c_rfqresponselineqty q JOIN c_rfqresponseline l ON l.c_rfqresponseline_id = q.c_rfqresponseline_id
  JOIN c_rfqlineqty lq ON lq.c_rfqlineqty_id = q.c_rfqlineqty_id AND lq.isactive = 'Y' AND lq.isrfqqty = 'Y'
  JOIN c_rfqline rl ON rl.c_rfqline_id = lq.c_rfqline_id AND rl.isactive = 'Y'
 WHERE l.c_rfqresponse_id = ANY($1::bigint[])`;

/**
 * By line: each RfQ quantity ranks the responses' net amounts (price less discount; none ranks
 * 999) and keeps the best amount; a response line wins where it ranks first on a purchase
 * quantity; a response ranks by the sum of its quantities' ranks, and unless the RfQ quotes
 * selected lines the lowest sum wins the whole RfQ.
 */
async function rankLines(c: ProcessCall, rfq: Row, responses: Row[]): Promise<void> {
  const { rows } = await c.tx.query<Row>(QTYS_SQL, [responses.map((r) => r.c_rfqresponse_id)]);
  const byRfqQty = new Map<string, Row[]>();
  for (const q of rows) byRfqQty.set(String(q.rfq_qty), [...(byRfqQty.get(String(q.rfq_qty)) ?? []), q]);
  const rankOf = new Map<Row, number>();
  for (const [rfqQty, qtys] of byRfqQty) {
    const valid = qtys.filter((q) => q.qty_active === 'Y' && q.line_active === 'Y' && Number(q.price) > 0);
    const ranks = rankByAmount(valid, (q) => netAmount(q.price, q.discount));
    for (const q of qtys) rankOf.set(q, ranks.get(q) ?? UNRANKED);
    const best = valid.length ? Math.min(...valid.map((q) => netAmount(q.price, q.discount))) : null;
    await c.tx.query('UPDATE c_rfqlineqty SET bestresponseamt = $2 WHERE c_rfqlineqty_id = $1', [rfqQty, best]);
  }
  const lineWins = new Set<string>();
  const responseRank = new Map<string, number>();
  for (const [q, rank] of rankOf) {
    await c.tx.query('UPDATE c_rfqresponselineqty SET ranking = $2 WHERE c_rfqresponselineqty_id = $1', [q.id, rank]);
    if (q.qty_active !== 'Y' || q.line_active !== 'Y') continue;
    responseRank.set(String(q.response), (responseRank.get(String(q.response)) ?? 0) + rank);
    if (rank === 1 && q.ispurchaseqty === 'Y') lineWins.add(String(q.line));
  }
  const ids = responses.map((r) => r.c_rfqresponse_id);
  await c.tx.query(`UPDATE c_rfqresponseline SET isselectedwinner = CASE WHEN c_rfqresponseline_id::text = ANY($2::text[]) THEN 'Y' ELSE 'N' END WHERE c_rfqresponse_id = ANY($1::bigint[])`, [
    ids, [...lineWins],
  ]);
  let winner: Row | null = null;
  for (const r of responses) {
    const rank = responseRank.get(String(r.c_rfqresponse_id)) ?? 0;
    if (rfq.quotetype !== 'S' && rank > 0 && (winner === null || rank < (responseRank.get(String(winner.c_rfqresponse_id)) ?? 0))) winner = r;
  }
  for (const r of responses) {
    await c.tx.query(`UPDATE c_rfqresponse SET ranking = $2, isselectedwinner = $3, updated = now(), updatedby = $4 WHERE c_rfqresponse_id = $1`, [
      r.c_rfqresponse_id, responseRank.get(String(r.c_rfqresponse_id)) ?? 0, r === winner ? 'Y' : 'N', c.auth.userId,
    ]);
  }
}

/**
 * Rank RfQ Responses (the original's RfQResponseRank): ranks the complete responses of an open
 * RfQ by total price (quote total only) or line by line; a single complete response wins alone.
 */
export async function rankRfqResponses(c: ProcessCall): Promise<ProcessOutcome> {
  const rfq = await rfqOfCall(c);
  if (rfq.processed === 'Y') throw badRequest('RfQ closed', `RfQ ${String(rfq.documentno)} is closed: its responses are not ranked again`);
  await assertQuoteTotalValid(c, rfq);
  const responses = await completeResponses(c, Number(rfq.c_rfq_id));
  if (responses.length === 0) throw badRequest('No responses', `RfQ ${String(rfq.documentno)} has no complete responses to rank`);
  if (responses.length === 1) {
    await c.tx.query(`UPDATE c_rfqresponse SET isselectedwinner = 'Y', ranking = 1 WHERE c_rfqresponse_id = $1`, [responses[0]!.c_rfqresponse_id]);
    return { summary: 'Only one complete RfQ response: it is the winner' };
  }
  if (rfq.quotetype === 'T') await rankTotals(c, responses);
  else await rankLines(c, rfq, responses);
  return { summary: `RfQ responses ranked: ${responses.length}` };
}
