/**
 * The login form of the documentation page (/api/v1/docs): Swagger UI shows the public document
 * at once; logging in (user and password, then client, role, organization and warehouse) keeps
 * the token pair for the tab, sends the token with every request the page makes, and reloads
 * the document as the role sees it. The session itself is the console's (token-session.ts).
 */
import { type Choice, TokenSession } from './token-session.js';

declare const SwaggerUIBundle: (options: Record<string, unknown>) => unknown;

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const session = new TokenSession(sessionStorage, 'dictum-tokens', () => render());
let choosing = false;

const showError = (text: string) => {
  $('dictum-error').textContent = text;
};
const selectValue = (id: string) => $<HTMLSelectElement>(id).value;

function options(id: string, items: Choice[], label: string): void {
  const select = $<HTMLSelectElement>(id);
  select.innerHTML = '';
  for (const it of items) {
    const o = document.createElement('option');
    o.value = String(it.id);
    o.textContent = `${it.name} (${it.id})`;
    select.append(o);
  }
  select.closest('label')!.hidden = items.length === 0;
  select.setAttribute('aria-label', label);
}

async function chooseClient(): Promise<void> {
  options('dictum-role', await session.roles(Number(selectValue('dictum-client'))), 'role');
  await chooseRole();
}
async function chooseRole(): Promise<void> {
  options('dictum-org', await session.organizations(Number(selectValue('dictum-client')), Number(selectValue('dictum-role'))), 'organization');
  await chooseOrg();
}
async function chooseOrg(): Promise<void> {
  options('dictum-warehouse', await session.warehouses(Number(selectValue('dictum-client')), Number(selectValue('dictum-role')), Number(selectValue('dictum-org'))), 'warehouse');
}

function render(): void {
  const form = $('dictum-login');
  form.querySelectorAll<HTMLElement>('[data-stage]').forEach((el) => {
    el.hidden = true;
  });
  const pair = session.pair;
  const stage = pair ? 'in' : choosing ? 'choose' : 'credentials';
  form.querySelectorAll<HTMLElement>(`[data-stage~="${stage}"]`).forEach((el) => {
    el.hidden = false;
  });
  if (stage === 'choose') for (const id of ['dictum-role', 'dictum-org', 'dictum-warehouse']) if ($<HTMLSelectElement>(id).options.length === 0) $(id).closest('label')!.hidden = true;
  $('dictum-who').textContent = pair ? `Logged in as ${pair.user}${pair.role ? `, ${pair.role}` : ''}` : '';
}

function openDocument(): void {
  SwaggerUIBundle({
    // The 3.0 rendition: Swagger UI shows it several times faster than the same document as 3.1.
    url: '/api/v1/openapi.json?openapi=3.0',
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'none',
    requestInterceptor: async (req: { headers: Record<string, string> }) => {
      const token = await session.freshToken();
      if (token && !req.headers.Authorization) req.headers.Authorization = `Bearer ${token}`;
      return req;
    },
  });
}

$('dictum-login').addEventListener('submit', async (e) => {
  e.preventDefault();
  showError('');
  try {
    if (!choosing) {
      const clients = await session.start($<HTMLInputElement>('dictum-user').value.trim(), $<HTMLInputElement>('dictum-password').value);
      $<HTMLInputElement>('dictum-password').value = '';
      if (clients === null) {
        render();
        openDocument();
        return;
      }
      choosing = true;
      options('dictum-client', clients, 'client');
      render();
      await chooseClient();
      render();
      return;
    }
    const selected = (id: string) => ($(id).closest('label')!.hidden || !selectValue(id) ? undefined : Number(selectValue(id)));
    const warehouseId = selected('dictum-warehouse');
    const role = $<HTMLSelectElement>('dictum-role').selectedOptions[0]?.textContent ?? '';
    await session.finish({ clientId: selected('dictum-client')!, roleId: selected('dictum-role')!, organizationId: selected('dictum-org') ?? 0, ...(warehouseId !== undefined ? { warehouseId } : {}) }, role);
    choosing = false;
    render();
    openDocument();
  } catch (err) {
    showError((err as Error).message);
  }
});
const onChange = (id: string, next: () => Promise<void>) =>
  $(id).addEventListener('change', () => {
    showError('');
    next().then(render, (err: Error) => showError(err.message));
  });
onChange('dictum-client', chooseClient);
onChange('dictum-role', chooseRole);
onChange('dictum-org', chooseOrg);
$('dictum-cancel').addEventListener('click', () => {
  choosing = false;
  session.cancel();
  showError('');
  render();
});
$('dictum-logout').addEventListener('click', async () => {
  await session.logout();
  render();
  openDocument();
});

render();
openDocument();
