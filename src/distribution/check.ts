import { DISTRIBUTION_COLUMN, INTERNAL_TABLES, dictionaryTableDistribution, type Distribution } from '../dictionary/distribution.js';
import type { CatalogTable } from './catalog.js';

/** What keeps a table from being placed as classified on Citus. */
export type BlockerKind =
  | 'no-distribution-column'
  | 'primary-key'
  | 'unique-index'
  | 'foreign-key'
  | 'foreign-key-to-distributed'
  | 'lookup-join'
  | 'unclassified';

export interface Blocker {
  kind: BlockerKind;
  detail: string;
}

export interface TableVerdict {
  schema: string;
  table: string;
  distribution: Distribution;
  why: string;
  blockers: Blocker[];
}

/** What the check needs of a dictionary table: its access level and its stored lookups (column -> target table). */
export interface DictionaryTableFacts {
  dbName: string;
  accessLevel: string;
  lookups: { column: string; target: string }[];
}

export interface DistributionReport {
  tables: TableVerdict[];
  summary: {
    tables: number;
    distributed: number;
    reference: number;
    local: number;
    /** Tables without blockers. */
    ready: number;
    blockers: Partial<Record<BlockerKind, number>>;
  };
}

/** What each blocker kind means and what would remove it (the report's legend). */
export const BLOCKER_HELP: Record<BlockerKind, string> = {
  'no-distribution-column': 'the table has no ad_client_id column to be distributed by',
  'primary-key': 'the primary key does not include ad_client_id; Citus requires the distribution column in every primary key',
  'unique-index': 'a unique index without ad_client_id; Citus cannot enforce it across shards (add ad_client_id, or drop it and check in code)',
  'foreign-key': 'a foreign key between distributed tables that does not carry ad_client_id on both sides',
  'foreign-key-to-distributed': 'a foreign key from a reference or local table to a distributed one, which Citus does not allow',
  'lookup-join': 'a dictionary lookup to another distributed table, joined on the id alone; a co-located join also needs equal ad_client_id (else citus.enable_repartition_joins)',
  'unclassified': 'a table the check has no rule for; decide its placement',
};

const ACCESS_LEVEL_NAMES: Record<string, string> = {
  '1': 'Organization',
  '2': 'Client only',
  '3': 'Client+Organization',
  '4': 'System only',
  '6': 'System+Client',
  '7': 'All',
};

const hasClient = (columns: readonly string[]): boolean => columns.includes(DISTRIBUTION_COLUMN);

/** The placement of one physical table, and why. */
function place(t: CatalogTable, internalSchema: string, dict: Map<string, DictionaryTableFacts>): { distribution: Distribution; why: string; unclassified?: boolean } {
  if (t.schema === internalSchema) {
    const known = INTERNAL_TABLES[t.name];
    if (known) return known;
    return { distribution: 'local', why: 'an internal table without a placement rule', unclassified: true };
  }
  const d = dict.get(t.name);
  if (!d) return { distribution: 'local', why: 'not in the dictionary', unclassified: true };
  const distribution = dictionaryTableDistribution(d);
  const level = `access level ${d.accessLevel} (${ACCESS_LEVEL_NAMES[d.accessLevel] ?? 'unknown'})`;
  if (distribution === 'reference') return { distribution, why: `${level}: System rows every client reads` };
  if (d.accessLevel === '6' || d.accessLevel === '7') return { distribution, why: `${level}, but each client's own rows, growing with use` };
  return { distribution, why: `${level}: each client's own rows` };
}

const list = (columns: readonly string[]): string => columns.join(', ');

/**
 * Classifies every table of the catalog as distributed by ad_client_id, reference or local, and
 * lists what keeps it from being placed so on Citus. Pure: the catalog and the dictionary in, the
 * report out.
 */
export function checkDistribution(catalog: readonly CatalogTable[], dictionary: readonly DictionaryTableFacts[], internalSchema = 'dictum'): DistributionReport {
  const dict = new Map(dictionary.map((d) => [d.dbName, d]));
  const placed = new Map<string, Distribution>();
  const verdicts: TableVerdict[] = catalog.map((t) => {
    const p = place(t, internalSchema, dict);
    placed.set(`${t.schema}.${t.name}`, p.distribution);
    return { schema: t.schema, table: t.name, distribution: p.distribution, why: p.why, blockers: p.unclassified ? [{ kind: 'unclassified' as const, detail: p.why }] : [] };
  });
  const placeOf = (schema: string, table: string): Distribution | undefined => placed.get(`${schema}.${table}`);
  const publicSchema = catalog.find((t) => t.schema !== internalSchema)?.schema;
  catalog.forEach((t, i) => {
    const v = verdicts[i]!;
    if (v.distribution === 'distributed') {
      if (!hasClient(t.columns)) {
        v.blockers.push({ kind: 'no-distribution-column', detail: 'no ad_client_id column' });
        return;
      }
      for (const index of t.uniqueIndexes) {
        if (hasClient(index.columns)) continue;
        if (index.primary) v.blockers.push({ kind: 'primary-key', detail: `${index.name} (${list(index.columns)})` });
        else v.blockers.push({ kind: 'unique-index', detail: `${index.name} (${list(index.columns)})${index.partial ? ' partial' : ''}` });
      }
      for (const fk of t.foreignKeys) {
        if (placeOf(fk.refSchema, fk.refTable) !== 'distributed') continue;
        const at = fk.columns.indexOf(DISTRIBUTION_COLUMN);
        if (at < 0 || fk.refColumns[at] !== DISTRIBUTION_COLUMN) v.blockers.push({ kind: 'foreign-key', detail: `${fk.name} (${list(fk.columns)}) -> ${fk.refTable} (${list(fk.refColumns)})` });
      }
      for (const l of dict.get(t.name)?.lookups ?? []) {
        if (publicSchema && placeOf(publicSchema, l.target) === 'distributed') v.blockers.push({ kind: 'lookup-join', detail: `${l.column} -> ${l.target}` });
      }
    } else {
      for (const fk of t.foreignKeys) {
        if (placeOf(fk.refSchema, fk.refTable) === 'distributed') v.blockers.push({ kind: 'foreign-key-to-distributed', detail: `${fk.name} (${list(fk.columns)}) -> ${fk.refTable}` });
      }
    }
  });
  const summary: DistributionReport['summary'] = { tables: verdicts.length, distributed: 0, reference: 0, local: 0, ready: 0, blockers: {} };
  for (const v of verdicts) {
    summary[v.distribution]++;
    if (!v.blockers.length) summary.ready++;
    for (const b of v.blockers) summary.blockers[b.kind] = (summary.blockers[b.kind] ?? 0) + 1;
  }
  return { tables: verdicts, summary };
}
