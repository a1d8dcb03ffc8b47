import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { assertTableAccess, tableAccessAllowed } from '../access/access.js';
import { notFound } from '../errors.js';
import { projectRoot } from '../paths.js';
import { tableFromPath } from '../records/http/table-from-path.js';
import type { ReadContext } from '../records/read/read-context.js';
import type { AuthContext } from '../auth/context.js';
import type { Dictionary, Table } from '../dictionary/model.js';
import type { Services } from '../services.js';
import { loadViews, viewByName, visibleViews } from '../views/view-model.js';
import { apiDocument, recordDocument } from './document.js';
import { DOCS_PAGE } from './docs-page.js';
import type { RouteEntry } from './route-catalogue.js';
import { OBJECT } from './route-schema.js';
import { asOpenApi30 } from './openapi-30.js';
import { Type } from '@sinclair/typebox';

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
/** The login form's script, built by `npm run build` (scripts/bundle-browser.mjs). */
const DOCS_LOGIN_SCRIPT = path.join(projectRoot, 'dist', 'browser', 'docs-login.js');
/** The page's files: Swagger UI's (kept a day) and the login form's script, built with the service (asked for again every time). */
const ASSETS: Record<string, { type: string; file: string; cache: string }> = {
  'swagger-ui.css': { type: 'text/css; charset=utf-8', file: path.join(uiDir, 'swagger-ui.css'), cache: 'public, max-age=86400' },
  'swagger-ui-bundle.js': { type: 'application/javascript; charset=utf-8', file: path.join(uiDir, 'swagger-ui-bundle.js'), cache: 'public, max-age=86400' },
  'favicon-32x32.png': { type: 'image/png', file: path.join(uiDir, 'favicon-32x32.png'), cache: 'public, max-age=86400' },
  'login.js': { type: 'application/javascript; charset=utf-8', file: DOCS_LOGIN_SCRIPT, cache: 'no-cache' },
};

/** /api/v1/openapi.json, /api/v1/docs, and the YAML descriptions of one table or view. */
export async function openApiRoutes(app: FastifyInstance, s: Services, routes: RouteEntry[]): Promise<void> {
  const rcOf = (req: FastifyRequest): ReadContext => ({ dict: s.dictionary.current, auth: req.auth, q: s.db });

  // Public: it describes, it holds no data. Without a token it describes every active table (and
  // no REST view: those belong to a client); with a valid token, what the role may see.
  // The public text is built once per dictionary: it is large (every table's operations) and
  // anyone may ask for it.
  const publicText = { '3.1': new WeakMap<Dictionary, string>(), '3.0': new WeakMap<Dictionary, string>() };
  const DocumentQuery = Type.Object({
    openapi: Type.Optional(Type.Union([Type.Literal('3.1'), Type.Literal('3.0')], { description: 'The OpenAPI version of the document: 3.1 (the default), or 3.0 (the same description in OpenAPI 3.0.3, which the documentation page shows)' })),
  });
  app.get<{ Querystring: { openapi?: '3.1' | '3.0' } }>(
    '/api/v1/openapi.json',
    { schema: { summary: 'This OpenAPI document (public; with a token it describes what the role may see)', querystring: DocumentQuery, answer: OBJECT, example: { openapi: '3.1.0', info: { title: 'Dictum', version: '0.1.0' } } }, config: { public: true, tokenOptional: true } },
    async (req, reply) => {
      const dict = s.dictionary.current;
      const auth = req.auth as AuthContext | undefined;
      const version = req.query.openapi ?? '3.1';
      const rendered = (doc: Record<string, unknown>) => (version === '3.0' ? asOpenApi30(doc) : doc);
      const tables = (only: (t: Table) => boolean) => dict.tables.filter((t) => t.isActive && only(t)).sort((a, b) => a.name.localeCompare(b.name));
      if (auth) return rendered(apiDocument(dict, routes, { tables: tables((t) => tableAccessAllowed(auth.userLevel, t.accessLevel)), views: visibleViews(rcOf(req), await loadViews(rcOf(req))) }, VERSION) as Record<string, unknown>);
      let text = publicText[version].get(dict);
      if (text === undefined) publicText[version].set(dict, (text = JSON.stringify(rendered(apiDocument(dict, routes, { tables: tables(() => true), views: [] }, VERSION) as Record<string, unknown>))));
      return reply.type('application/json; charset=utf-8').send(text);
    },
  );

  app.get<{ Params: { table: string } }>('/api/v1/models/:table/yaml', { schema: { summary: "The table's OpenAPI description in YAML", binary: ['application/yaml'] } }, async (req, reply) => {
    const table = tableFromPath(s, req.params.table);
    assertTableAccess(req.auth, table);
    const doc = recordDocument(s.dictionary.current, routes, 'models', table.modelName, { tables: [table], views: [] }, VERSION);
    return reply.type('application/yaml; charset=utf-8').send(await yamlText(doc));
  });

  app.get<{ Params: { view: string } }>('/api/v1/views/:view/yaml', { schema: { summary: "The view's OpenAPI description in YAML", binary: ['application/yaml'] } }, async (req, reply) => {
    const rc = rcOf(req);
    const all = await loadViews(rc);
    const view = viewByName(visibleViews(rc, all), req.params.view);
    const referenced = all.filter((v) => v === view || view.columns.some((c) => c.referenceViewId === v.id));
    const doc = recordDocument(rc.dict, routes, 'views', view.name, { tables: [], views: referenced }, VERSION);
    return reply.type('application/yaml; charset=utf-8').send(await yamlText(doc));
  });

  app.get('/', { schema: { summary: 'Redirects to the documentation page', status: 302, example: '/api/v1/docs' }, config: { public: true } }, async (_req, reply) => reply.redirect('/api/v1/docs', 302));
  app.get('/api/v1/docs', { schema: { summary: 'The interactive documentation page', binary: ['text/html'], example: '<!DOCTYPE html><html lang="en"><head><title>Dictum API</title>...' }, config: { public: true } }, async (_req, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(DOCS_PAGE));
  app.get<{ Params: { asset: string } }>('/api/v1/docs/:asset', { schema: { summary: 'A file of the documentation page', binary: ['text/css', 'application/javascript', 'image/png'] }, config: { public: true } }, async (req, reply) => {
    const asset = Object.hasOwn(ASSETS, req.params.asset) ? ASSETS[req.params.asset] : undefined;
    if (!asset || !fs.existsSync(asset.file)) throw notFound('Not Found', `No documentation asset ${req.params.asset}`);
    return reply.type(asset.type).header('cache-control', asset.cache).send(fs.createReadStream(asset.file));
  });
}
