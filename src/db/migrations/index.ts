import type { Tx } from '../types.js';
import { ident } from '../sql.js';
import { bootstrap } from '../../seed/bootstrap.js';
import { AUTH_INDEXES } from '../../auth/indexes.js';
import { addSeedTables } from '../../seed/add-tables.js';
import { identifierIndexName, identifierIndexReplacement } from '../../dictionary/ddl.js';
import { loadDictionary } from '../../dictionary/load.js';
import type { Dictionary } from '../../dictionary/model.js';
import { synchroniseSchema } from '../../dictionary/sync.js';

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
  {
    version: 3,
    name: 'indexes described by the dictionary (AD_TableIndex, AD_IndexColumn)',
    async up(tx) {
      await addSeedTables(tx, ['AD_TableIndex', 'AD_IndexColumn']);
      // The dictionary as this database holds it now, with the seeded indexes, gives the schema to reach.
      await synchroniseSchema(tx, await loadDictionary(tx));
    },
  },
  {
    version: 4,
    name: 'identifier indexes without the client column',
    async up(tx) {
      const dict = await loadDictionary(tx);
      await synchroniseSchema(tx, dict);
      // The built-in index they replace; it only slowed writes down from now on.
      for (const table of dict.tables) if (!table.isView) await tx.query(`DROP INDEX IF EXISTS ${ident(`${table.dbName}_client_ident_idx`.slice(0, 63))}`);
    },
  },
  {
    version: 5,
    name: 'included index columns (AD_IndexColumn.IsIncluded); dictionary indexes led by the identifier replace the built-in one',
    async up(tx) {
      // The column IsIncluded and the seed's index rows that use it (c_bpartner_name).
      await addSeedTables(tx, ['AD_TableIndex', 'AD_IndexColumn']);
      const dict = await loadDictionary(tx);
      await synchroniseSchema(tx, dict);
      await dropReplacedIdentifierIndexes(tx, dict);
    },
  },
  {
    version: 50,
    name: 'REST views (REST_View, REST_ViewColumn, REST_ViewRelated), bank account documents and their tab; the Order Tax tab is advanced',
    async up(tx) {
      await addSeedTables(tx, ['C_BankAccountDoc', 'REST_View', 'REST_ViewColumn', 'REST_ViewRelated', 'AD_Tab']);
      await tx.query(`UPDATE ad_tab SET isadvancedtab = 'Y' WHERE ad_tab_id = 188`);
    },
  },
];

/**
 * Drops each built-in identifier index that a dictionary index led by the same column replaces,
 * once that index exists: a unique one that the rows do not allow is not created, and the
 * built-in index then keeps serving identifier-ordered pages.
 */
async function dropReplacedIdentifierIndexes(tx: Tx, dict: Dictionary): Promise<void> {
  for (const table of dict.tables) {
    if (table.isView) continue;
    const replacement = identifierIndexReplacement(table);
    const builtIn = identifierIndexName(table);
    if (!replacement || replacement.name === builtIn) continue;
    const { rows } = await tx.query('SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1 AND indexname = $2', [table.dbName, replacement.name]);
    if (rows.length) await tx.query(`DROP INDEX IF EXISTS ${ident(builtIn)}`);
  }
}
