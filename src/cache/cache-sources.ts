import type { AuthService } from '../auth/service.js';
import type { DictionaryCache } from '../dictionary/cache.js';
import { DICTIONARY_TABLES } from '../dictionary/cache.js';
import { ACCESS_TABLES } from '../events/cache-notifications.js';
import type { SysConfig } from '../sysconfig/sysconfig.js';
import type { CacheRegistry } from './cache-registry.js';

/** Puts the caches of an instance in its registry. */
export function registerCaches(caches: CacheRegistry, dictionary: DictionaryCache, sysConfig: SysConfig, auth: AuthService): void {
  caches.add({
    name: 'dictionary',
    tables: [...DICTIONARY_TABLES],
    expireMinutes: 0,
    stats: () => ({ size: dictionary.size, maxSize: Infinity, hits: dictionary.reads, misses: dictionary.reloads }),
    reset: () => void dictionary.reload(),
  });
  caches.add({ name: 'AD_SysConfig', tables: ['ad_sysconfig'], expireMinutes: 0, stats: () => sysConfig.cacheStats(), reset: () => sysConfig.clear() });
  caches.add({ name: 'role access', tables: [...ACCESS_TABLES], expireMinutes: 0, stats: () => auth.roleAccessStats(), reset: () => auth.clearRoleAccess() });
  // A verified token is kept until it expires; dropping it only costs one more signature check.
  caches.add({
    name: 'verified access tokens',
    tables: [],
    expireMinutes: 0,
    stats: () => ({ size: auth.verified.size, maxSize: auth.verified.max, hits: auth.verified.hits, misses: auth.verified.misses }),
    reset: () => auth.verified.clear(),
  });
}
