/**
 * The web console: a single page under /console that logs in through the API's login flow and
 * then browses tables, edits records, runs document actions and processes, and follows jobs,
 * webhook deliveries, nodes and schedulers, all through the public REST API.
 */
import { h, fill, notice } from './dom.js';
import { CONSOLE_BASE, href, type ViewContext } from './context.js';
import { Dictionary } from './dictionary.js';
import { TokenSession } from '../browser/token-session.js';
import { loginView } from './login-view.js';
import { errorText } from './error-text.js';
import { tablesView } from './tables-view.js';
import { recordsView } from './records-view.js';
import { recordView } from './record-view.js';
import { processesView, processView } from './processes-view.js';
import { jobsView } from './jobs-view.js';
import { webhooksView } from './webhooks-view.js';
import { clusterView } from './cluster-view.js';

type Route = [RegExp, (ctx: ViewContext, ...parts: string[]) => Promise<void>];
const ROUTES: Route[] = [
  [/^\/?$/, tablesView],
  [/^\/tables\/([^/]+)$/, recordsView],
  [/^\/tables\/([^/]+)\/([^/]+)$/, recordView],
  [/^\/processes$/, processesView],
  [/^\/processes\/([^/]+)$/, processView],
  [/^\/jobs$/, jobsView],
  [/^\/webhooks$/, webhooksView],
  [/^\/cluster$/, clusterView],
];

const root = document.getElementById('console')!;
const api = new TokenSession(sessionStorage, 'dictum-console-tokens', () => show());
let dict = new Dictionary(api);

function go(path: string): void {
  history.pushState(null, '', href(path));
  show();
}

function nav(): HTMLElement {
  const link = (path: string, text: string) => h('a', { href: href(path), 'data-nav': '' }, text);
  const who = api.pair ? `${api.pair.user}${api.pair.role ? `, ${api.pair.role}` : ''}` : '';
  return h(
    'nav',
    {},
    h('strong', {}, 'Dictum'),
    link('/', 'Tables'),
    link('/processes', 'Processes'),
    link('/jobs', 'Jobs'),
    link('/webhooks', 'Webhooks'),
    link('/cluster', 'Nodes and schedulers'),
    h('span', { class: 'who', id: 'who' }, who),
    h('button', { type: 'button', id: 'logout', onclick: () => api.logout().then(() => go('/')) }, 'Log out'),
  );
}

async function show(): Promise<void> {
  const path = location.pathname.slice(CONSOLE_BASE.length) || '/';
  const main = h('main', {});
  if (!api.pair) {
    dict = new Dictionary(api);
    fill(root, main);
    await loginView({ api, dict, go, main, params: new URLSearchParams(location.search) }, () => show());
    return;
  }
  fill(root, nav(), main);
  const route = ROUTES.find(([re]) => re.test(path));
  if (!route) {
    fill(main, notice(`No page ${path}`));
    return;
  }
  const parts = path.match(route[0])!.slice(1).map(decodeURIComponent);
  try {
    await route[1]({ api, dict, go, main, params: new URLSearchParams(location.search) }, ...parts);
  } catch (e) {
    main.append(notice(errorText(e)));
  }
}

// Links inside the console change the page without reloading it.
document.addEventListener('click', (e) => {
  const a = (e.target as Element).closest?.('a');
  if (!a || a.target || e.ctrlKey || e.metaKey || e.shiftKey || !a.pathname.startsWith(CONSOLE_BASE) || a.origin !== location.origin) return;
  e.preventDefault();
  history.pushState(null, '', a.pathname + a.search);
  show();
});
window.addEventListener('popstate', () => show());
show();
