import type { Correction } from '../apply-corrections.js';

const AUTH = 'v1/auth/impl/AuthServiceImpl.java';

export const authCorrections: Correction[] = [
  {
    kind: 'schema',
    target: { component: 'AuthenticationResponse' },
    // The document merges two answers into one object: the first step's list of clients and the full login.
    schema: {
      anyOf: [
        {
          type: 'object',
          properties: {
            clients: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } },
            token: { type: 'string' },
          },
        },
        {
          type: 'object',
          properties: {
            userId: { type: 'integer' },
            language: { type: 'string' },
            menuTreeId: { type: 'integer' },
            token: { type: 'string' },
            refresh_token: { type: 'string' },
          },
        },
      ],
    },
    reason:
      'a login without parameters answers {clients, token} (the full keys only for a user of one client and one role); ' +
      'a login with parameters, and PUT /auth/tokens, answer the full keys without clients',
    source: `${AUTH}#L132-L133 and #L605-L611 (clients, token); #L386-L482 (processLoginParameters: userId #L640, language #L629, menuTreeId #L624, token and refresh_token #L607-L610)`,
  },
];
