import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { FastifyInstance } from 'fastify';

/**
 * Which methods each path answers, so that a request with a method the path does not take gets
 * 405 with an Allow header instead of 404: the resource exists, the method does not.
 */
export class RouteMethods {
  #router = FindMyWay({ caseSensitive: true, ignoreTrailingSlash: true, maxParamLength: 500 });
  #methods = new Set<HTTPMethod>();

  /** Records every route the app registers from now on. */
  watch(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const m of methods as HTTPMethod[]) {
        if (m === 'HEAD') continue;
        this.#methods.add(m);
        // Fastify registers the same path again for HEAD and with a trailing slash; the router dedupes.
        try {
          this.#router.on(m, route.url, () => undefined);
        } catch {
          // already known
        }
      }
    });
  }

  /** The methods that `path` answers (empty when no route has that path). */
  allowed(path: string): string[] {
    const out: string[] = [];
    for (const m of this.#methods) if (this.#router.find(m, path)) out.push(m);
    if (out.includes('GET')) out.push('HEAD');
    return out;
  }
}
