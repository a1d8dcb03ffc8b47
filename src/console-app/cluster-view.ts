/** Nodes of the cluster, background servers and schedulers, each as far as the role may see them. */
import { h, fill, notice, table } from './dom.js';
import type { ViewContext } from './context.js';
import { errorText } from './error-text.js';
import { showValue } from './show-value.js';

export async function clusterView(ctx: ViewContext): Promise<void> {
  const { api, main } = ctx;
  const nodes = h('section', { id: 'nodes' }, h('h2', {}, 'Nodes'));
  const servers = h('section', { id: 'servers' }, h('h2', {}, 'Servers'));
  const schedulers = h('section', { id: 'schedulers' }, h('h2', {}, 'Schedulers'));
  fill(main, h('h1', {}, 'Nodes and schedulers'), nodes, servers, schedulers);
  const guarded = async (section: HTMLElement, draw: () => Promise<HTMLElement>) => {
    try {
      section.append(await draw());
    } catch (err) {
      section.append(notice(errorText(err)));
    }
  };
  await Promise.all([
    guarded(nodes, async () => {
      const answer = await api.call('GET', '/nodes');
      const list = Array.isArray(answer.nodes) ? answer.nodes : [answer];
      return table(['Node', 'Host', 'Port', 'Name'], list, (n: any) => [String(n.id), n.hostName ?? '', String(n.port ?? ''), n.name ?? '']);
    }),
    guarded(servers, async () => {
      const answer = await api.call('GET', '/servers');
      return table(['Server', 'Name', 'Node', 'Started'], answer.servers ?? [], (s: any) => [s.id, s.name, s.nodeId ?? '', s.started ? 'Yes' : 'No'], 'No servers');
    }),
    guarded(schedulers, async () => {
      const answer = await api.call('GET', '/models/ad_scheduler?$orderby=Name');
      const rows = await Promise.all((answer.records ?? []).map(async (r: any) => ({ ...r, state: await api.call('GET', `/schedulers/${r.id}`).then((s) => s['scheduler-state'] ?? '', () => '') })));
      return table(['Scheduler', 'Process', 'Schedule', 'State'], rows, (r: any) => [r.Name, showValue(r.AD_Process_ID), showValue(r.AD_Schedule_ID), r.state], 'No schedulers');
    }),
  ]);
}
