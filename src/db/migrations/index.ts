import type { Tx } from '../types.js';
import { bootstrap } from '../../seed/bootstrap.js';

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
];
