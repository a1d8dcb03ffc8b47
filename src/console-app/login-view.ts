/** The stepwise login: user and password, then client, role, organization and warehouse. */
import { h, fill, notice } from './dom.js';
import type { ViewContext } from './context.js';
import type { Choice } from '../browser/token-session.js';

export async function loginView(ctx: ViewContext, done: () => void): Promise<void> {
  const { api, main } = ctx;
  const error = h('p', { class: 'notice error', role: 'alert', id: 'login-error' });
  const user = h('input', { id: 'login-user', name: 'username', autocomplete: 'username', required: true });
  const password = h('input', { id: 'login-password', name: 'password', type: 'password', autocomplete: 'current-password' });
  const selects = {
    client: h('select', { id: 'login-client' }),
    role: h('select', { id: 'login-role' }),
    org: h('select', { id: 'login-org' }),
    warehouse: h('select', { id: 'login-warehouse' }),
  };
  const credentials = h('fieldset', {}, h('legend', {}, 'Log in'), labelled('User', user), labelled('Password', password), h('button', { type: 'submit', id: 'login-submit' }, 'Next'));
  const choices = h(
    'fieldset',
    { hidden: true },
    h('legend', {}, 'Client, role and organization'),
    labelled('Client', selects.client),
    labelled('Role', selects.role),
    labelled('Organization', selects.org),
    labelled('Warehouse', selects.warehouse),
    h('button', { type: 'submit', id: 'login-finish' }, 'Log in'),
    h('button', { type: 'button', id: 'login-cancel', onclick: () => { api.cancel(); choices.hidden = true; credentials.hidden = false; } }, 'Cancel'),
  );
  const num = (s: HTMLSelectElement) => Number(s.value);
  const fillChoices = (s: HTMLSelectElement, items: Choice[]) => {
    fill(s, ...items.map((it) => h('option', { value: String(it.id) }, `${it.name} (${it.id})`)));
    s.closest('label')!.hidden = items.length === 0;
  };
  const chooseClient = async () => { fillChoices(selects.role, await api.roles(num(selects.client))); await chooseRole(); };
  const chooseRole = async () => { fillChoices(selects.org, await api.organizations(num(selects.client), num(selects.role))); await chooseOrg(); };
  const chooseOrg = async () => fillChoices(selects.warehouse, await api.warehouses(num(selects.client), num(selects.role), num(selects.org)));
  const guarded = (step: () => Promise<void>) => () => { error.textContent = ''; step().catch((e: Error) => { error.textContent = e.message; }); };
  selects.client.addEventListener('change', guarded(chooseClient));
  selects.role.addEventListener('change', guarded(chooseRole));
  selects.org.addEventListener('change', guarded(chooseOrg));

  const form = h('form', { id: 'login', class: 'login' }, h('h1', {}, 'Dictum console'), credentials, choices, error);
  form.addEventListener(
    'submit',
    guarded(async () => {
      if (!choices.hidden) {
        const warehouse = selects.warehouse.closest('label')!.hidden ? undefined : num(selects.warehouse);
        const role = selects.role.selectedOptions[0]?.textContent ?? '';
        await api.finish({ clientId: num(selects.client), roleId: num(selects.role), organizationId: selects.org.value ? num(selects.org) : 0, ...(warehouse ? { warehouseId: warehouse } : {}) }, role);
        done();
        return;
      }
      const clients = await api.start(user.value.trim(), password.value);
      password.value = '';
      if (clients === null) return done();
      fillChoices(selects.client, clients);
      credentials.hidden = true;
      choices.hidden = false;
      await chooseClient();
    }),
  );
  // The submit handler is async; the form must not reload the page.
  form.addEventListener('submit', (e) => e.preventDefault());
  fill(main, form);
  if (ctx.params.has('expired')) main.append(notice('The session ended; log in again.'));
}

function labelled(text: string, control: HTMLElement): HTMLLabelElement {
  return h('label', {}, text, control);
}
