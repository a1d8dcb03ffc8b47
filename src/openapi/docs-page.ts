/**
 * The documentation page: Swagger UI over /api/v1/openapi.json with a login form above it. The
 * document is public, so the page shows it at once; logging in (user and password, then client,
 * role, organization and warehouse as the login flow offers them) keeps the token pair in the
 * tab's session storage, sends the token with every request the page makes, refreshes it with
 * the refresh token shortly before it expires, and reloads the document as the role sees it.
 * Asset addresses are absolute, so the page works under /api/v1/docs and /api/v1/docs/ alike.
 */
const BASE = '/api/v1';

const STYLE = `
#dictum-login{font-family:sans-serif;padding:12px 20px;background:#f5f7fa;border-bottom:1px solid #d8dde6;display:flex;flex-wrap:wrap;gap:10px;align-items:center}
#dictum-login label{display:flex;flex-direction:column;font-size:12px;color:#3b4151}
#dictum-login input,#dictum-login select{font-size:14px;padding:4px 6px;min-width:150px}
#dictum-login button{font-size:14px;padding:6px 14px;cursor:pointer}
#dictum-login .who{font-size:14px;color:#3b4151}
#dictum-login .error{color:#b00020;font-size:14px}
#dictum-login [hidden]{display:none}`;

const SCRIPT = `
(() => {
  const base = ${JSON.stringify(BASE)};
  const store = window.sessionStorage;
  const $ = (id) => document.getElementById(id);
  let pair = JSON.parse(store.getItem('dictum-tokens') || 'null');
  let step = null; // first-step token while client, role, organization and warehouse are chosen
  let refreshing = null;
  let ui = null;

  const claims = (token) => { try { return JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))); } catch { return {}; } };
  const expiry = (token) => (claims(token).exp || 0) * 1000;
  // Refresh 30 s before expiry, or after two thirds of a shorter life (no refresh loop).
  const margin = (token) => { const c = claims(token); return Math.min(30000, Math.max(0, ((c.exp || 0) - (c.iat || 0)) * 1000) / 3); };
  const showError = (text) => { $('dictum-error').textContent = text || ''; };
  async function call(method, path, body, token) {
    const headers = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = 'Bearer ' + token;
    const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const answer = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(answer.detail || answer.title || ('HTTP ' + res.status));
    return answer;
  }
  function keep(p) {
    pair = p;
    if (p) store.setItem('dictum-tokens', JSON.stringify(p)); else store.removeItem('dictum-tokens');
    schedule();
  }

  // Refresh shortly before the access token expires; a refresh token works once, so one at a time.
  let timer = null;
  function schedule() {
    clearTimeout(timer);
    if (!pair) return;
    const wait = Math.max(0, expiry(pair.token) - Date.now() - margin(pair.token));
    timer = setTimeout(() => { freshToken().catch(() => undefined); }, Math.min(wait, 2147483647));
  }
  async function freshToken() {
    if (!pair) return null;
    if (expiry(pair.token) - Date.now() > margin(pair.token)) return pair.token;
    if (!pair.refresh_token) { keep(null); render(); return null; }
    refreshing ??= call('POST', '/auth/refresh', { refresh_token: pair.refresh_token })
      .then((p) => { keep({ ...pair, token: p.token, refresh_token: p.refresh_token }); return p.token; })
      .catch(() => { keep(null); render(); return null; })
      .finally(() => { refreshing = null; });
    return refreshing;
  }

  function options(select, items, label) {
    select.innerHTML = '';
    for (const it of items) { const o = document.createElement('option'); o.value = it.id; o.textContent = it.name + ' (' + it.id + ')'; select.append(o); }
    select.closest('label').hidden = items.length === 0;
    select.setAttribute('aria-label', label);
  }
  async function chooseClient() {
    const client = $('dictum-client').value;
    const { roles } = await call('GET', '/auth/roles?client=' + encodeURIComponent(client), undefined, step.token);
    options($('dictum-role'), roles, 'role');
    await chooseRole();
  }
  async function chooseRole() {
    const q = 'client=' + encodeURIComponent($('dictum-client').value) + '&role=' + encodeURIComponent($('dictum-role').value);
    const { organizations } = await call('GET', '/auth/organizations?' + q, undefined, step.token);
    options($('dictum-org'), organizations, 'organization');
    await chooseOrg();
  }
  async function chooseOrg() {
    const q = 'client=' + encodeURIComponent($('dictum-client').value) + '&role=' + encodeURIComponent($('dictum-role').value) + '&organization=' + encodeURIComponent($('dictum-org').value);
    const { warehouses } = await call('GET', '/auth/warehouses?' + q, undefined, step.token).catch(() => ({ warehouses: [] }));
    options($('dictum-warehouse'), warehouses, 'warehouse');
  }

  function render() {
    const form = $('dictum-login');
    form.querySelectorAll('[data-stage]').forEach((el) => { el.hidden = true; });
    const stage = pair ? 'in' : step ? 'choose' : 'credentials';
    form.querySelectorAll('[data-stage~="' + stage + '"]').forEach((el) => { el.hidden = false; });
    if (stage === 'choose') for (const id of ['dictum-role', 'dictum-org', 'dictum-warehouse']) if ($(id).options.length === 0) $(id).closest('label').hidden = true;
    $('dictum-who').textContent = pair ? 'Logged in as ' + pair.user + (pair.role ? ', ' + pair.role : '') : '';
  }

  function openDocument() {
    ui = SwaggerUIBundle({
      url: base + '/openapi.json',
      dom_id: '#swagger-ui',
      deepLinking: true,
      docExpansion: 'none',
      requestInterceptor: async (req) => {
        const token = await freshToken();
        if (token && !req.headers.Authorization) req.headers.Authorization = 'Bearer ' + token;
        return req;
      },
    });
  }

  $('dictum-login').addEventListener('submit', async (e) => {
    e.preventDefault();
    showError('');
    try {
      if (!step) {
        const user = $('dictum-user').value.trim();
        const answer = await call('POST', '/auth/tokens', { userName: user, password: $('dictum-password').value });
        $('dictum-password').value = '';
        if (answer.refresh_token) { keep({ token: answer.token, refresh_token: answer.refresh_token, user }); render(); openDocument(); return; }
        step = { token: answer.token, user };
        options($('dictum-client'), answer.clients || [], 'client');
        render();
        await chooseClient();
        render();
        return;
      }
      const selected = (id) => { const el = $(id); return el.closest('label').hidden || !el.value ? undefined : Number(el.value); };
      const body = { clientId: selected('dictum-client'), roleId: selected('dictum-role'), organizationId: selected('dictum-org') ?? 0 };
      const warehouseId = selected('dictum-warehouse');
      if (warehouseId !== undefined) body.warehouseId = warehouseId;
      const answer = await call('PUT', '/auth/tokens', body, step.token);
      const role = $('dictum-role').selectedOptions[0]?.textContent || '';
      keep({ token: answer.token, refresh_token: answer.refresh_token, user: step.user, role });
      step = null;
      render();
      openDocument();
    } catch (err) {
      showError(err.message);
    }
  });
  const onChange = (id, next) => $(id).addEventListener('change', () => { showError(''); next().then(render, (err) => showError(err.message)); });
  onChange('dictum-client', chooseClient);
  onChange('dictum-role', chooseRole);
  onChange('dictum-org', chooseOrg);
  $('dictum-cancel').addEventListener('click', () => { step = null; showError(''); render(); });
  $('dictum-logout').addEventListener('click', async () => {
    const token = pair && pair.token;
    keep(null);
    render();
    if (token) await call('POST', '/auth/logout', { token }, token).catch(() => undefined);
    openDocument();
  });

  render();
  schedule();
  openDocument();
})();`;

export const DOCS_PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Dictum API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${BASE}/docs/swagger-ui.css"><link rel="icon" href="${BASE}/docs/favicon-32x32.png">
<style>${STYLE}</style></head>
<body>
<form id="dictum-login" autocomplete="on">
  <strong>Dictum API</strong>
  <label data-stage="credentials">User <input id="dictum-user" name="username" autocomplete="username" required></label>
  <label data-stage="credentials">Password <input id="dictum-password" name="password" type="password" autocomplete="current-password"></label>
  <label data-stage="choose">Client <select id="dictum-client"></select></label>
  <label data-stage="choose">Role <select id="dictum-role"></select></label>
  <label data-stage="choose">Organization <select id="dictum-org"></select></label>
  <label data-stage="choose">Warehouse <select id="dictum-warehouse"></select></label>
  <button id="dictum-submit" type="submit" data-stage="credentials choose">Log in</button>
  <button id="dictum-cancel" type="button" data-stage="choose">Cancel</button>
  <span id="dictum-who" class="who" data-stage="in"></span>
  <button id="dictum-logout" type="button" data-stage="in">Log out</button>
  <span id="dictum-error" class="error" role="alert"></span>
</form>
<div id="swagger-ui"></div>
<script src="${BASE}/docs/swagger-ui-bundle.js"></script>
<script>${SCRIPT}</script></body></html>`;
