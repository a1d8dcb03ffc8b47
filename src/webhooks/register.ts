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
  const dispatcher = new WebhookDispatcher(s, s.queue);
  byServices.set(s, dispatcher);
  dispatcher.register();
  dispatcher.listen(s.events);
  registerOutbox({ s, subscriptions, enqueue: async (q, job) => void (await dispatcher.enqueue(q, job)) });
  processImplementations(s).register(RETRY_PROCESSOR_CLASS, async (c) => {
    const r = await dispatcher.process(c.tx);
    c.log({ msg: 'recovered', number: r.recovered });
    c.log({ msg: 'queued', number: r.queued });
    return { summary: `Recovered ${r.recovered} stalled and queued ${r.queued} pending deliveries` };
  });
  // Until a scheduler runs the processor, this instance's timer does (every 10 minutes).
  dispatcher.startTimer();
  app.addHook('onClose', async () => {
    dispatcher.stopTimer();
    await subscriptions.close();
  });
  await inboundRoutes(app, s);
  await webhookAdminRoutes(app, s, dispatcher);
}
