import type { FastifyInstance, FastifySchema } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** The routes the application registered, as the OpenAPI document describes them. */
    routeCatalogue: readonly RouteEntry[];
  }
}

export interface RouteEntry {
  method: string;
  url: string;
  public: boolean;
  /** The query parameters the route reads, when it lists them (`config.queryParameters`). */
  queryParameters?: readonly string[];
  /** What the route declares of itself where it is registered (see route-schema.ts). */
  schema?: FastifySchema;
}

/**
 * Records every route the application registers (call before the routes are added): the
 * OpenAPI document is built from these, with what each route declares in its `schema`.
 */
export function collectRoutes(app: FastifyInstance): RouteEntry[] {
  const routes: RouteEntry[] = [];
  app.decorate('routeCatalogue', routes);
  app.addHook('onRoute', (r) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    for (const m of methods) {
      if (m === 'HEAD' || m === 'OPTIONS') continue;
      const config = r.config as { public?: boolean; queryParameters?: readonly string[] } | undefined;
      routes.push({
        method: m,
        url: r.url,
        public: Boolean(config?.public),
        ...(config?.queryParameters ? { queryParameters: config.queryParameters } : {}),
        ...(r.schema ? { schema: r.schema } : {}),
      });
    }
  });
  return routes;
}
