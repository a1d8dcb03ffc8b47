/**
 * The web console under /console: the files the build wrote into dist/console/, public (the
 * console logs in through the API like any client and has no rights of its own), the page for
 * every path that is not a file so that the console's own addresses can be opened directly.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { notFound } from '../errors.js';
import { projectRoot } from '../paths.js';
import { ASSET_CACHE, consoleFile, PAGE_CACHE } from './console-files.js';

export const CONSOLE_DIR = path.join(projectRoot, 'dist', 'console');
/** The query parameters of the console's own addresses (read by the page, not by the service). */
const PAGE_PARAMETERS = ['filter', 'orderby', 'page', 'search', 'set'] as const;

interface Build {
  page: string;
  assets: Set<string>;
  builtAt: number;
}

/** The built files: the page and the names of the assets (null before the first build). */
function readBuild(dir: string): Build | null {
  try {
    const builtAt = fs.statSync(path.join(dir, 'index.html')).mtimeMs;
    const page = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
    return { page, assets: new Set(fs.readdirSync(path.join(dir, 'assets'))), builtAt };
  } catch {
    return null;
  }
}

/** The build last read, read again when a build has rewritten the page since (the assets' names change with it). */
function builtFiles(dir: string): () => Build | null {
  let build: Build | null = null;
  return () => {
    let builtAt = -1;
    try {
      builtAt = fs.statSync(path.join(dir, 'index.html')).mtimeMs;
    } catch {
      return (build = null);
    }
    if (!build || build.builtAt !== builtAt) build = readBuild(dir);
    return build;
  };
}

export async function consoleRoutes(app: FastifyInstance, dir = CONSOLE_DIR): Promise<void> {
  const current = builtFiles(dir);
  const config = { public: true, queryParameters: PAGE_PARAMETERS };

  const answer = async (rest: string, reply: FastifyReply) => {
    const b = current();
    if (!b) throw notFound('Not Found', 'The console is not built: run npm run build');
    const file = consoleFile(rest, b.assets);
    if (file.kind === 'missing') throw notFound('Not Found', `No console file ${rest}`);
    if (file.kind === 'page') return reply.type('text/html; charset=utf-8').header('cache-control', PAGE_CACHE).send(b.page);
    return reply.type(file.type).header('cache-control', ASSET_CACHE).send(fs.createReadStream(path.join(dir, 'assets', file.name)));
  };
  app.get('/console', { schema: { summary: 'The web console page', binary: ['text/html'], example: '<!DOCTYPE html><html lang="en"><head><title>Dictum console</title>...' }, config }, async (_req, reply) => answer('', reply));
  app.get<{ Params: { '*': string } }>('/console/*', { schema: { summary: 'A file of the web console (script, style sheet), or its page for the addresses of its own views', binary: ['text/html', 'text/javascript', 'text/css'], example: '<!DOCTYPE html><html lang="en"><head><title>Dictum console</title>...' }, config }, async (req, reply) => answer(req.params['*'], reply));
}
