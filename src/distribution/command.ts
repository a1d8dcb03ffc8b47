import type { Db } from '../db/types.js';
import { isStored } from '../dictionary/ddl.js';
import { loadDictionary } from '../dictionary/load.js';
import type { Dictionary } from '../dictionary/model.js';
import { readCatalog } from './catalog.js';
import { checkDistribution, type DictionaryTableFacts, type DistributionReport } from './check.js';
import { formatDistributionReport } from './report.js';

/** The dictionary's part of the check: each stored table's access level and its stored lookups to tables keyed by an id. */
export function dictionaryFacts(dict: Dictionary): DictionaryTableFacts[] {
  return dict.tables
    .filter((t) => !t.isView)
    .map((t) => ({
      dbName: t.dbName,
      accessLevel: t.accessLevel,
      lookups: t.columns
        .filter((c) => c.kind === 'foreign-key' && c.lookup && isStored(c) && /_id$/i.test(c.lookup.keyColumn))
        .map((c) => ({ column: c.dbName, target: c.lookup!.tableName.toLowerCase() })),
    }));
}

/** Reads the live catalog and the dictionary of a migrated database and checks them (checkDistribution). */
export async function distributionReport(db: Db): Promise<DistributionReport> {
  return db.tx(async (tx) => checkDistribution(await readCatalog(tx), dictionaryFacts(await loadDictionary(tx))));
}

/**
 * `schema --distributed [--json] [--strict]`: prints the report (text, or JSON with --json) and
 * answers how many blockers remain.
 */
export async function distributedCommand(db: Db, json: boolean, out: (line: string) => void): Promise<number> {
  const report = await distributionReport(db);
  if (json) out(JSON.stringify(report, null, 2));
  else for (const line of formatDistributionReport(report)) out(line);
  return Object.values(report.summary.blockers).reduce((a, b) => a + (b ?? 0), 0);
}
