import type { FastifyInstance } from 'fastify';
import { processImplementations } from '../processes/process-routes.js';
import type { Services } from '../services.js';
import { WebhookDispatcher } from './dispatcher.js';
import { inboundRoutes } from './inbound.js';
import { registerOutbox } from './outbox.js';
import { SubscriptionCache } from './subscriptions.js';
import { registerWebhookConfigRules } from './webhook-config.js';
import { webhookAdminRoutes } from './webhook-admin.js';

/** AD_Process.Classname of the Webhook Retry Processor (seed, process 200201). */
export const RETRY_PROCESSOR_CLASS = 'com.trekglobal.idempiere.rest.api.process.WebhookRetryProcessor';

const byServices = new WeakMap<Services, WebhookDispatcher>();

/** The dispatcher of a running service (tests drive it directly). */
export const webhookDispatcher = (s: Services): WebhookDispatcher | undefined => byServices.get(s);

/** Outbound and inbound webhooks: configuration rules, outbox, dispatcher, retry processor and routes. */
export async function webhookRoutes(app: FastifyInstance, s: Services): Promise<void> {
  registerWebhookConfigRules(s.events);
  const subscriptions = new SubscriptionCache(s.db);
  await subscriptions.listen(s.db, s.events);
  const dispatcher = new WebhookDispatcher(s);
  byServices.set(s, dispatcher);
  dispatcher.listen(s.events);
  registerOutbox({ s, subscriptions, notify: (q) => dispatcher.notify(q) });
  processImplementations(s).register(RETRY_PROCESSOR_CLASS, async (c) => {
    const r = await dispatcher.process(c.tx);
    c.log({ msg: 'recovered', number: r.recovered });
    c.log({ msg: 'queued', number: r.queued });
    return { summary: `Recovered ${r.recovered} stalled and queued ${r.queued} pending deliveries` };
  });
  // The dispatcher server sends once the instance serves, and runs the processor on its timer (every
  // 10 minutes) until a scheduler does; at shutdown the deliveries in flight get the spec's 10 s grace.
  s.servers?.add(dispatcher.server);
  app.addHook('onReady', () => dispatcher.server.start());
  app.addHook('onClose', async () => {
    await dispatcher.close(s.config.queueGraceMs);
    await subscriptions.close();
  });
  await inboundRoutes(app, s);
  await webhookAdminRoutes(app, s, dispatcher);
}
