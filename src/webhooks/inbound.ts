import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { insertRow, ts } from '../auth/util.js';
import type { AuthContext } from '../auth/context.js';
import type { Tx } from '../db/types.js';
import { DisplayType } from '../dictionary/display-type.js';
import { processById, type ParamDef } from '../processes/process-definition.js';
import { parseRunBody } from '../processes/parameters.js';
import { processImplementations } from '../processes/process-routes.js';
import { runProcessIn } from '../processes/runner.js';
import type { Services } from '../services.js';
import { clientAddress, inList, parseIpList } from './ip-rules.js';
import { verifySignature } from './signature.js';
import { OBJECT, documented } from '../openapi/route-schema.js';

/**
 * Largest inbound body accepted: the route is public, so an anonymous caller may not make the
 * server read more (the payload parameter keeps 4,000 characters anyway).
 */
export const INBOUND_BODY_LIMIT = 64 * 1024;

type Row = Record<string, unknown>;

/**
 * An answer of the inbound endpoint. Failures carry the original's `error` member and the
 * service's error body (title, status, detail) together, so clients of either shape read it.
 */
function failure(status: number, error: string, detail = error): Record<string, unknown> {
  return { error, title: error, status, detail };
}

interface Call {
  endpoint: Row;
  messageId: string;
  body: string;
  remote: string;
}

async function logCall(q: Tx | Services['db'], c: Call, status: number, error: string | null, processed: boolean): Promise<void> {
  await insertRow(
    q,
    'REST_Webhook_In_Log',
    {
      rest_webhook_in_id: Number(c.endpoint.rest_webhook_in_id),
      webhookmessageid: c.messageId.slice(0, 60),
      payload: c.body,
      remoteaddr: c.remote.slice(0, 60),
      httpstatus: status,
      iserror: error ? 'Y' : 'N',
      errormessage: error?.slice(0, 2000) ?? null,
      processed: processed ? 'Y' : 'N',
      processedat: processed ? ts(Date.now()) : null,
    },
    { clientId: Number(c.endpoint.ad_client_id), orgId: Number(c.endpoint.ad_org_id), userId: Number(c.endpoint.ad_user_id ?? 0) },
  );
}

/** The endpoint's user as a caller: its first active role in the endpoint's client. */
async function runAs(s: Services, tx: Services['db'], endpoint: Row): Promise<AuthContext | null> {
  const clientId = Number(endpoint.ad_client_id);
  const userId = Number(endpoint.ad_user_id);
  const { rows } = await tx.query<{ ad_role_id: number }>(
    `SELECT ur.ad_role_id FROM ad_user_roles ur JOIN ad_role r ON r.ad_role_id = ur.ad_role_id JOIN ad_user u ON u.ad_user_id = ur.ad_user_id
      WHERE ur.ad_user_id = $1 AND r.ad_client_id = $2 AND ur.isactive = 'Y' AND r.isactive = 'Y' AND u.isactive = 'Y'
      ORDER BY ur.ad_role_id LIMIT 1`,
    [userId, clientId],
  );
  if (!rows[0]) return null;
  return s.auth.contextOf({ AD_Client_ID: clientId, AD_User_ID: userId, AD_Role_ID: Number(rows[0].ad_role_id), AD_Org_ID: Number(endpoint.ad_org_id), AD_Language: 'en_US', AD_Session_ID: 0 });
}

/** The WebhookPayload parameter: the process's own when it declares one, else a text parameter of that name. */
function payloadParam(params: readonly ParamDef[]): ParamDef {
  return (
    params.find((p) => p.columnName.toLowerCase() === 'webhookpayload') ?? {
      id: 0, columnName: 'WebhookPayload', name: 'Webhook Payload', seqNo: 0, referenceId: DisplayType.Text, referenceValueId: null,
      kind: 'string', isMandatory: false, isRange: false, defaultValue: null, defaultValue2: null,
    }
  );
}

/**
 * Runs the endpoint's process with the body, once per message id: the duplicate check, the run
 * and its log row are one transaction, serialised per message id by an advisory lock.
 */
async function processCall(s: Services, c: Call): Promise<{ status: number; body: Record<string, unknown> }> {
  // Resolved before the transaction: the embedded database's one connection is the transaction's.
  const auth = await runAs(s, s.db, c.endpoint);
  return s.db.tx(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [Number(c.endpoint.rest_webhook_in_id) | 0, c.messageId]);
    const { rows: seen } = await tx.query(`SELECT 1 FROM rest_webhook_in_log WHERE rest_webhook_in_id = $1 AND webhookmessageid = $2 AND processed = 'Y' LIMIT 1`, [
      Number(c.endpoint.rest_webhook_in_id),
      c.messageId,
    ]);
    if (seen.length) {
      await logCall(tx, c, 200, null, false);
      return { status: 200, body: { status: 'duplicate' } };
    }
    let error: string | null = null;
    if (!auth) error = 'The endpoint user has no active role in its client';
    else {
      const def = await processById(tx, Number(c.endpoint.ad_process_id));
      const request = parseRunBody(def.params.filter((p) => p.columnName.toLowerCase() !== 'webhookpayload'), {}, new Date().toISOString().slice(0, 10));
      const param = payloadParam(def.params);
      request.params.set(param.columnName, { def: param, value: c.body, to: null });
      const result = await runProcessIn(tx, { s, auth, def, request, record: null, impls: processImplementations(s) });
      if (result.isError) error = result.summary || 'The process failed';
    }
    if (error) {
      await logCall(tx, c, 500, error, false);
      return { status: 500, body: { ...failure(500, 'Processing failed', error), message: error } };
    }
    await logCall(tx, c, 200, null, true);
    return { status: 200, body: { status: 'ok' } };
  });
}

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(' ') : v;
};

/** POST /api/v1/webhooks/{key}: public, routed by Endpoint Key (spec, Inbound webhook rules). */
export async function inboundRoutes(app: FastifyInstance, s: Services): Promise<void> {
  await app.register(async (scope) => {
    // The signature covers the exact bytes sent: the body is kept as text, whatever its type.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    scope.post('/api/v1/webhooks/:key', { schema: { summary: 'Receive an inbound webhook (signed, see Standard Webhooks)', body: documented(OBJECT), answer: OBJECT, example: { type: 'order.paid', data: { id: 102 } } }, config: { public: true }, bodyLimit: INBOUND_BODY_LIMIT }, async (req: FastifyRequest, reply: FastifyReply) => {
      const { key } = req.params as { key: string };
      const body = typeof req.body === 'string' ? req.body : '';
      const { rows } = await s.db.query<Row>(`SELECT * FROM rest_webhook_in WHERE endpointkey = $1 AND isactive = 'Y'`, [key]);
      const endpoint = rows[0];
      if (!endpoint) return reply.code(404).send(failure(404, 'Unknown endpoint', `No inbound webhook endpoint with key ${key.slice(0, 60)}`));
      const clientId = Number(endpoint.ad_client_id);
      const trusted = parseIpList(await s.sysConfig.get('REST_WEBHOOK_TRUSTED_PROXIES')).list;
      const remote = clientAddress(req.socket.remoteAddress ?? '', header(req, 'x-forwarded-for'), trusted);
      const givenId = header(req, 'webhook-id');
      const call: Call = { endpoint, messageId: givenId ?? `syn_${randomUUID().replace(/-/g, '')}`, body, remote };
      const refuse = async (status: number, error: string, detail = error) => {
        await logCall(s.db, call, status, detail, false);
        return reply.code(status).send(failure(status, error, detail));
      };
      if (!(await s.sysConfig.getBool('REST_WEBHOOK_INBOUND_ENABLED', false, clientId))) return refuse(503, 'Inbound webhooks disabled', 'REST_WEBHOOK_INBOUND_ENABLED is not Y for this client');
      const allowed = parseIpList(endpoint.allowedips as string | null);
      if ((allowed.list.length || allowed.invalid.length || allowed.names.length) && !inList(remote, allowed.list)) return refuse(403, 'IP not allowed', `The address ${remote} is not in the endpoint's Allowed IPs`);
      if (endpoint.isverifysignature === 'Y') {
        if (!givenId) return refuse(400, 'Missing webhook-id header');
        const why = verifySignature(
          String(endpoint.webhooksecret ?? ''),
          { id: givenId, timestamp: header(req, 'webhook-timestamp'), signature: header(req, 'webhook-signature') },
          body,
          Math.floor(Date.now() / 1000),
        );
        if (why) return refuse(401, 'Signature verification failed', `Signature verification failed: ${why}`);
      }
      try {
        const r = await processCall(s, call);
        return reply.code(r.status).send(r.body);
      } catch (e) {
        // The run's transaction rolled back: its failure is logged apart.
        const detail = e instanceof Error && 'status' in e && Number((e as { status: number }).status) < 500 ? e.message : 'internal error';
        if (detail === 'internal error') s.log.error({ err: e, endpoint: Number(endpoint.rest_webhook_in_id) }, 'inbound webhook processing failed');
        await logCall(s.db, call, 500, detail, false);
        return reply.code(500).send({ ...failure(500, 'Processing failed', detail), message: detail });
      }
    });
  });
}
