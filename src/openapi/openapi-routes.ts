import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { assertTableAccess, tableAccessAllowed } from '../access/access.js';
import { notFound } from '../errors.js';
import { projectRoot } from '../paths.js';
import { tableFromPath } from '../records/http/table-from-path.js';
import type { ReadContext } from '../records/read/read-context.js';
import type { Services } from '../services.js';
import { loadViews, viewByName, visibleViews } from '../views/view-model.js';
import { apiDocument, recordDocument } from './document.js';
import type { RouteEntry } from './route-catalogue.js';

/**
 * A document as YAML. The library is loaded on the first such request: a service that never
 * serves YAML does not hold its code (about 1 MB of heap, kept for the process's life).
 */
async function yamlText(doc: unknown): Promise<string> {
  const { stringify } = await import('yaml');
  return stringify(doc, { aliasDuplicateObjects: false });
}

const VERSION = (JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;
// The package's folder, found without loading its index: that runs the 1.5 MB browser bundle (about
// 0.2 s of a start) only to serve files from the folder.
const uiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = { 'swagger-ui.css': 'text/css; charset=utf-8', 'swagger-ui-bundle.js': 'application/javascript; charset=utf-8', 'favicon-32x32.png': 'image/png' };

/**
 * The documentation page: Swagger UI over /api/v1/openapi.json. The document describes what the
 * reader's role may see, so the page asks for a token first and sends it with every request.
 */
const DOCS_PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Dictum API</title>
<link rel="stylesheet" href="docs/swagger-ui.css"><link rel="icon" href="docs/favicon-32x32.png"></head>
<body>
<form id="login" style="font-family:sans-serif;padding:1em;display:none">
<label>Bearer token (from POST /api/v1/auth/tokens): <input id="token" size="60"></label> <button>Open</button></form>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script>
const form = document.getElementById('login');
function open(token) {
  SwaggerUIBundle({
    url: 'openapi.json', dom_id: '#swagger-ui', persistAuthorization: true,
    requestInterceptor: (r) => { if (!r.headers.Authorization) r.headers.Authorization = 'Bearer ' + token; return r; },
  });
}
const saved = sessionStorage.getItem('dictum-token');
if (saved) open(saved); else form.style.display = 'block';
form.addEventListener('submit', (e) => { e.preventDefault(); const t = document.getElementById('token').value.trim(); sessionStorage.setItem('dictum-token', t); form.style.display = 'none'; open(t); });
</script></body></html>`;

/** /api/v1/openapi.json, /api/v1/docs, and the YAML descriptions of one table or view. */
export async function openApiRoutes(app: FastifyInstance, s: Services, routes: RouteEntry[]): Promise<void> {
  const rcOf = (req: FastifyRequest): ReadContext => ({ dict: s.dictionary.current, auth: req.auth, q: s.db });

  app.get('/api/v1/openapi.json', async (req) => {
    const rc = rcOf(req);
    const tables = rc.dict.tables.filter((t) => t.isActive && tableAccessAllowed(req.auth.userLevel, t.accessLevel)).sort((a, b) => a.name.localeCompare(b.name));
    return apiDocument(rc.dict, routes, { tables, views: visibleViews(rc, await loadViews(rc)) }, VERSION);
  });

  app.get<{ Params: { table: string } }>('/api/v1/models/:table/yaml', async (req, reply) => {
    const table = tableFromPath(s, req.params.table);
    assertTableAccess(req.auth, table);
    const doc = recordDocument(s.dictionary.current, routes, 'models', table.modelName, { tables: [table], views: [] }, VERSION);
    return reply.type('application/yaml; charset=utf-8').send(await yamlText(doc));
  });

  app.get<{ Params: { view: string } }>('/api/v1/views/:view/yaml', async (req, reply) => {
    const rc = rcOf(req);
    const all = await loadViews(rc);
    const view = viewByName(visibleViews(rc, all), req.params.view);
    const referenced = all.filter((v) => v === view || view.columns.some((c) => c.referenceViewId === v.id));
    const doc = recordDocument(rc.dict, routes, 'views', view.name, { tables: [], views: referenced }, VERSION);
    return reply.type('application/yaml; charset=utf-8').send(await yamlText(doc));
  });

  app.get('/api/v1/docs', { config: { public: true } }, async (_req, reply) => reply.type('text/html; charset=utf-8').send(DOCS_PAGE));
  app.get<{ Params: { asset: string } }>('/api/v1/docs/:asset', { config: { public: true } }, async (req, reply) => {
    const type = ASSETS[req.params.asset];
    if (!type) throw notFound('Not Found', `No documentation asset ${req.params.asset}`);
    return reply.type(type).header('cache-control', 'public, max-age=86400').send(fs.createReadStream(path.join(uiDir, req.params.asset)));
  });
}
