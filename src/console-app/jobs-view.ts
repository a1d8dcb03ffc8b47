/** Background jobs of the client (waiting, running, recently ended), refreshed while the page is open. */
import { h, fill, table } from './dom.js';
import type { ViewContext } from './context.js';

const REFRESH_MS = 2000;

export async function jobsView(ctx: ViewContext): Promise<void> {
  const body = h('div', { id: 'jobs' });
  fill(ctx.main, h('h1', {}, 'Background jobs'), h('button', { type: 'button', id: 'jobs-refresh', onclick: () => draw() }, 'Refresh'), body);
  const draw = async () => {
    const answer = await ctx.api.call('GET', '/processes/jobs');
    fill(
      body,
      table(['Job', 'Process', 'State', 'Progress', 'Queued', 'Ended', 'Summary'], answer.jobs ?? [], (j: any) => [
        String(j.id),
        j.process,
        h('span', { class: `state ${j.state}` }, j.state),
        j.progress === null || j.progress === undefined ? '' : `${Math.round(j.progress * 100)} %`,
        j.queuedAt ?? '',
        j.endedAt ?? '',
        j.summary ?? '',
      ], 'No jobs'),
    );
  };
  await draw();
  // Redraws until the page shows something else.
  const timer = setInterval(() => {
    if (!body.isConnected) clearInterval(timer);
    else draw().catch(() => clearInterval(timer));
  }, REFRESH_MS);
}
