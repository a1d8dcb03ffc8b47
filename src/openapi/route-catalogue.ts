import type { FastifyInstance } from 'fastify';

export interface RouteEntry {
  method: string;
  url: string;
  public: boolean;
  /** The query parameters the route reads, when it lists them (`config.queryParameters`). */
  queryParameters?: readonly string[];
}

/** Records every route the application registers (call before the routes are added). */
export function collectRoutes(app: FastifyInstance): RouteEntry[] {
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (r) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    for (const m of methods) {
      if (m === 'HEAD' || m === 'OPTIONS') continue;
      const config = r.config as { public?: boolean; queryParameters?: readonly string[] } | undefined;
      routes.push({ method: m, url: r.url, public: Boolean(config?.public), ...(config?.queryParameters ? { queryParameters: config.queryParameters } : {}) });
    }
  });
  return routes;
}
