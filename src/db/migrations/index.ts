import type { Tx } from '../types.js';
import { bootstrap } from '../../seed/bootstrap.js';
import { AUTH_INDEXES } from '../../auth/indexes.js';

export interface Migration {
  version: number;
  name: string;
  up(tx: Tx): Promise<void>;
}

/** Versioned migrations, applied in order, each exactly once per database. */
export const migrations: Migration[] = [
  {
    version: 1,
    name: 'dictionary, schema and demo company',
    async up(tx) {
      await bootstrap(tx);
    },
  },
  {
    version: 2,
    name: 'indexes of authentication lookups',
    async up(tx) {
      for (const statement of AUTH_INDEXES) await tx.query(statement);
    },
  },
];
