import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readPredicate } from '../access/access.js';
import { insertRow, ts, tsMillis } from '../auth/util.js';
import { ident, SqlBuilder } from '../db/sql.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { readRecords } from '../processes/process-definition.js';
import type { Services } from '../services.js';
import type { WebhookDispatcher } from './dispatcher.js';
import { deliveryBody } from './outbox.js';
import { newMessageId } from './signature.js';
import { Type } from '@sinclair/typebox';
import { Open } from '../openapi/answer-schemas.js';
import { documented } from '../openapi/route-schema.js';
import { failingAs } from '../http/schema-validation.js';

const delivery = Open({ id: Type.Optional(Type.Integer()), status: Type.Optional(Type.String()) }, 'An outbound webhook delivery');

/** The id of a delivery or endpoint in the path: an integer, else a 400 naming it. */
const idParams = (what: string) =>
  failingAs(Type.Object({ id: Type.String({ pattern: '^\\d{1,15}$' }) }), 'Invalid id', (p) => `${what} id must be an integer: ${String((p as { id?: unknown }).id).slice(0, 40)}`);
const deliveryId = idParams('Delivery');
const endpointId = idParams('Endpoint');
const idOf = (req: FastifyRequest): number => Number((req.params as { id: string }).id);

/** The caller must administer its client, and see the row through the table's read access. */
async function visibleRow(s: Services, req: FastifyRequest, tableName: string, id: number): Promise<Record<string, unknown>> {
  if (!req.auth.isClientAdministrator) throw forbidden('Access denied', 'Only a client administrator may replay or test webhooks');
  const table = s.dictionary.current.byName.get(tableName)!;
  const sql = new SqlBuilder();
  const cond = `${ident(table.keyColumn!.dbName)} = ${sql.param(id)} AND ${readPredicate(req.auth, table, table.dbName, sql)}`;
  const { rows } = await s.db.query(`SELECT * FROM ${ident(table.dbName)} WHERE ${cond}`, sql.values);
  if (!rows[0]) throw notFound('Record not found', `No ${table.name} record with id ${id}`);
  return rows[0];
}

async function deliveryRecords(s: Services, ids: number[]) {
  const dict = s.dictionary.current;
  const table = dict.byName.get('rest_webhook_out_log')!;
  const { records } = await readRecords(s.db, dict, table, (a, sql) => `${ident(a)}."rest_webhook_out_log_id" = ANY(${sql.param(ids)}::bigint[])`, '"rest_webhook_out_log_id"');
  return records;
}

/**
 * Replay and test of outbound webhooks, under /api/v1/webhooks/outbound/ (two or more path
 * segments after webhooks/, so never taken for an inbound endpoint key). A replay sends the
 * same message (same webhook-id and body) again from a fresh attempt count.
 */
export async function webhookAdminRoutes(app: FastifyInstance, s: Services, dispatcher: WebhookDispatcher): Promise<void> {
  const replay = async (where: string, params: unknown[]): Promise<number[]> =>
    s.db.tx(async (tx) => {
      const { rows } = await tx.query<{ id: number }>(
        `UPDATE rest_webhook_out_log SET deliverystatus = 'P', attempts = 0, nextretryat = NULL, lockedat = NULL, httpstatus = NULL, responsebody = NULL, errormessage = NULL, updated = $1
          WHERE ${where} AND payload IS NOT NULL RETURNING rest_webhook_out_log_id AS id`,
        [ts(Date.now()), ...params],
      );
      const ids = rows.map((r) => Number(r.id));
      if (ids.length) await dispatcher.notify(tx);
      return ids;
    });

  app.post('/api/v1/webhooks/outbound/deliveries/:id/replay', { schema: { summary: 'Send an outbound webhook delivery again', params: deliveryId, answer: delivery, example: { id: 1000000, status: 'P' } } }, async (req) => {
    const id = idOf(req);
    const row = await visibleRow(s, req, 'rest_webhook_out_log', id);
    if (row.payload === null) throw badRequest('Not replayable', 'The delivery was dropped before sending (its payload was too large)');
    if (row.deliverystatus === 'I') throw badRequest('Not replayable', 'The delivery is being sent');
    await replay(`rest_webhook_out_log_id = $2 AND deliverystatus <> 'I'`, [id]);
    return (await deliveryRecords(s, [id]))[0];
  });

  app.post('/api/v1/webhooks/outbound/endpoints/:id/replay', { schema: { summary: 'Send again the deliveries of an endpoint since a time', params: endpointId, body: documented(Type.Object({ since: Type.String({ format: 'date-time' }) })), answer: Open({ endpointId: Type.Integer(), since: Type.String(), replayed: Type.Integer(), deliveries: Type.Array(Type.Integer()) }), example: { since: '2026-11-01T00:00:00Z' } } }, async (req) => {
    const id = idOf(req);
    await visibleRow(s, req, 'rest_webhook_out', id);
    const since = (req.body as { since?: unknown } | null)?.since ?? (req.query as { since?: unknown }).since;
    const ms = typeof since === 'string' && /^\d{4}-\d{2}-\d{2}/.test(since) ? tsMillis(since) : null;
    if (ms === null) throw badRequest('Invalid parameter', 'since must be an ISO date or date-time');
    const ids = await replay(`rest_webhook_out_id = $2 AND created >= $3 AND deliverystatus <> 'I'`, [id, ts(ms)]);
    return { endpointId: id, since: new Date(ms).toISOString(), replayed: ids.length, deliveries: ids };
  });

  app.post('/api/v1/webhooks/outbound/endpoints/:id/test', { schema: { summary: 'Send a test event to an endpoint', params: endpointId, answer: delivery, example: { id: 1000001, status: 'S' } } }, async (req, reply) => {
    const id = idOf(req);
    const endpoint = await visibleRow(s, req, 'rest_webhook_out', id);
    const at = new Date();
    const data = { message: 'Test event', endpoint: String(endpoint.name ?? ''), sentBy: req.auth.userId };
    const logId = await s.db.tx(async (tx) => {
      const logId = await insertRow(
        tx,
        'REST_Webhook_Out_Log',
        {
          rest_webhook_out_id: id,
          webhookmessageid: newMessageId(),
          eventtype: 'webhook.test',
          payload: deliveryBody({ isStandard: endpoint.isstandardwebhook === 'Y' }, 'webhook.test', at, data),
          deliverystatus: 'P',
          attempts: 0,
        },
        { clientId: Number(endpoint.ad_client_id), orgId: Number(endpoint.ad_org_id), userId: req.auth.userId },
      );
      await dispatcher.notify(tx);
      return logId;
    });
    reply.code(201);
    return (await deliveryRecords(s, [logId]))[0];
  });
}
