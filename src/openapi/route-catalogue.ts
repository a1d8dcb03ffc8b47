import type { FastifyInstance } from 'fastify';

export interface RouteEntry {
  method: string;
  url: string;
  public: boolean;
}

/** Records every route the application registers (call before the routes are added). */
export function collectRoutes(app: FastifyInstance): RouteEntry[] {
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (r) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    for (const m of methods) {
      if (m === 'HEAD' || m === 'OPTIONS') continue;
      routes.push({ method: m, url: r.url, public: Boolean((r.config as { public?: boolean } | undefined)?.public) });
    }
  });
  return routes;
}
