/**
 * The documentation page: Swagger UI over /api/v1/openapi.json (as OpenAPI 3.0.3, see openapi-30.ts) with a login form above it. The
 * document is public, so the page shows it at once; logging in (user and password, then client,
 * role, organization and warehouse as the login flow offers them) keeps the token pair in the
 * tab's session storage, sends the token with every request the page makes, refreshes it with
 * the refresh token shortly before it expires, and reloads the document as the role sees it.
 * The form's script is src/browser/docs-login.ts, built beside the web console's (it shares the
 * console's session module) and served as /api/v1/docs/login.js.
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
<script src="${BASE}/docs/login.js"></script></body></html>`;
