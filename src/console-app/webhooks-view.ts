/** Outbound webhook deliveries, newest first, each with a replay (client administrators may replay). */
import { h, fill, notice, table } from './dom.js';
import type { ViewContext } from './context.js';
import { pager } from './pager.js';
import { errorText } from './error-text.js';
import { showValue } from './show-value.js';

const PAGE = 20;

export async function webhooksView(ctx: ViewContext): Promise<void> {
  const page = Math.max(1, Number(ctx.params.get('page') ?? '1') || 1);
  const status = h('div', { id: 'webhook-status' });
  const body = h('div', {});
  fill(ctx.main, h('h1', {}, 'Webhook deliveries'), status, body);
  const draw = async () => {
    const answer = await ctx.api.call('GET', `/models/rest_webhook_out_log?$orderby=${encodeURIComponent('Created desc')}&$top=${PAGE}&$skip=${(page - 1) * PAGE}`);
    const replay = (id: number) => async () => {
      fill(status);
      try {
        await ctx.api.call('POST', `/webhooks/outbound/deliveries/${id}/replay`);
        status.append(notice(`Delivery ${id} queued again`, 'ok'));
        await draw();
      } catch (err) {
        status.append(notice(errorText(err)));
      }
    };
    fill(
      body,
      table(['Delivery', 'Endpoint', 'Event', 'Status', 'HTTP', 'Attempts', 'Created', 'Error', ''], answer.records ?? [], (d: any) => [
        String(d.id),
        showValue(d.REST_Webhook_Out_ID),
        showValue(d.EventType),
        h('span', { class: 'delivery-status' }, showValue(d.DeliveryStatus)),
        showValue(d.HttpStatus),
        showValue(d.Attempts),
        showValue(d.Created),
        showValue(d.ErrorMessage),
        h('button', { type: 'button', class: 'replay', 'data-delivery': String(d.id), onclick: replay(d.id) }, 'Replay'),
      ], 'No deliveries'),
      pager(ctx, '/webhooks', page, answer['page-count'] ?? 1, answer['row-count'] ?? 0, {}),
    );
  };
  await draw();
}
