import type { Correction } from './apply-corrections.js';

/**
 * Where Dictum answers otherwise than the original on purpose, for a security rule: each is listed,
 * with its reason, in docs/compatibility.md (the section named in `source`). Applied to the
 * documents like a correction; nothing else is waived.
 */
export const DELIBERATE_DEVIATIONS: readonly Correction[] = [
  {
    kind: 'optional',
    target: { component: 'JWKS', path: ['properties', 'keys', 'items'] },
    properties: ['k'],
    reason:
      'tokens are signed with ES256 and the key set publishes public keys (kty EC, crv, x, y); the original signs with HS512 and, ' +
      'when it publishes its key set, publishes the shared secret itself as k',
    source: 'docs/compatibility.md, Authentication (tokens are signed with ES256)',
  },
];
