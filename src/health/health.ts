import { timingSafeEqual, createHash } from 'node:crypto';
import type { Services } from '../services.js';
import { databaseReachable } from './readiness.js';

export interface HealthAnswer {
  status: number;
  body: { status: 'UP' | 'DOWN'; database?: 'connected' | 'disconnected' };
}

/** Compares secrets in constant time (hashing first makes the lengths equal). */
export function secretEquals(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/** Health answers, cached per variant for the configured duration. */
export class HealthService {
  #cache = new Map<string, { at: number; answer: HealthAnswer }>();

  constructor(private readonly s: Services) {}

  /** The key is required only when SysConfig REST_HEALTH_MONITORING_KEY exists (System level). */
  async keyAccepted(key: string | undefined): Promise<boolean> {
    let expected: string | null;
    try {
      expected = await this.s.sysConfig.get('REST_HEALTH_MONITORING_KEY');
    } catch {
      // Without a database the key cannot be read; the health answer itself reports DOWN.
      return true;
    }
    if (expected === null || expected === '') return true;
    return secretEquals(key ?? '', expected);
  }

  async check(withDb: boolean): Promise<HealthAnswer> {
    const variant = withDb ? 'db' : 'plain';
    const ttl = this.s.config.healthCacheSeconds * 1000;
    const hit = this.#cache.get(variant);
    if (hit && Date.now() - hit.at < ttl) return hit.answer;
    let answer: HealthAnswer = { status: 200, body: { status: 'UP' } };
    if (withDb) {
      const ok = await databaseReachable(this.s.db, 5000);
      answer = ok ? { status: 200, body: { status: 'UP', database: 'connected' } } : { status: 503, body: { status: 'DOWN', database: 'disconnected' } };
    }
    this.#cache.set(variant, { at: Date.now(), answer });
    return answer;
  }
}
