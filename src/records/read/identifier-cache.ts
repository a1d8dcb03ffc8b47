import type { CacheSource } from '../../cache/cache-registry.js';
import { NotifiedCache } from '../../cache/notified-cache.js';
import { ident } from '../../db/sql.js';
import { baseTransaction, type Queryable } from '../../db/types.js';
import type { Column, Dictionary, Table } from '../../dictionary/model.js';
import { displayOf, everyTableHas, identifierTables, keptIdentifierTarget } from './identifier-targets.js';
import type { SelectItem } from './packed-row.js';
import { AliasSource, identifierOfRow } from './select-list.js';
import { runNamed } from './statements.js';

/** A table with at most this many rows has its identifiers kept in memory. */
const SMALL_TABLE_ROWS = 1000;
/** Entries kept per table: a small table that grew keeps its most used ones. */
const MAX_ENTRIES = 5 * SMALL_TABLE_ROWS;

/**
 * The kept identifiers of one table (or the values of one display column of it), for one
 * dictionary version. A key not held is read from the database with the same expression the
 * statements use, and kept when that read may be.
 */
export class KeptIdentifiers {
  readonly entries = new NotifiedCache<number, string | null>(MAX_ENTRIES);
  readonly #text: string;

  constructor(
    private readonly owner: Generation,
    table: Table,
    /** The tables whose writes change these identifiers. */
    readonly tables: readonly string[],
    expr: string,
    alias: string,
  ) {
    const key = `${alias}.${ident(table.keyColumn!.dbName)}`;
    this.#text = `SELECT ${key} AS k, ${expr} AS i FROM ${ident(table.dbName)} ${alias} WHERE ${key} = ANY($1::bigint[])`;
  }

  /** Whether a read through `q` may use and fill the kept entries (see IdentifierCache.changedBy). */
  usableBy(q: Queryable): boolean {
    return this.owner.live && !this.owner.cache.wrote(q, this.tables);
  }

  /** The identifiers of `keys` as `q` sees them; kept when `keep`. Keys with no record are absent. */
  async read(q: Queryable, keys: number[], keep: boolean): Promise<Map<number, string | null>> {
    const started = this.entries.readStarted();
    const { rows } = await runNamed<{ k: string | number; i: string | null }>(q, this.#text, [keys]);
    const found = new Map<number, string | null>();
    for (const r of rows) found.set(Number(r.k), r.i);
    if (keep) for (const [k, v] of found) this.entries.set(k, v, started);
    return found;
  }
}

/** What one dictionary version keeps: the tables found small, and the identifiers of those and of the columns every table has. */
interface Generation {
  cache: IdentifierCache;
  /** False once a newer dictionary is adopted: reads that still use this one read the database. */
  live: boolean;
  /** Tables counted as small (every lookup into them is kept); null until counted. */
  small: Set<string> | null;
  /** By table and display column (see keptKey). */
  kept: Map<string, KeptIdentifiers>;
  /** Counts the tables once, when a read first asks (see keptIdentifiersOf); settles when counted. */
  count: () => Promise<void>;
}

const generations = new WeakMap<Dictionary, Generation>();

/**
 * Identifiers of the records of small tables (clients, organisations, groups, currencies,
 * payment terms, price lists, ...) and of the users every record names as its writers, kept per
 * instance so that a read's statement need not look each one up per row. A table is small when
 * it held at most SMALL_TABLE_ROWS rows when its dictionary's tables were counted (at the first
 * read that needed them). Writes empty the kept identifiers on every instance through the cache
 * reset channel (see identifier-notifications.ts); a transaction that wrote a table reads that
 * table's identifiers from the database, as it sees them.
 */
export class IdentifierCache {
  #live: Generation | null = null;
  /** Per transaction, the tables it wrote. */
  readonly #written = new WeakMap<object, Set<string>>();

  constructor(private readonly db: Queryable) {}

  /**
   * Takes a newly loaded dictionary: what was kept goes (an identifier's columns may have
   * changed). The tables are counted in the background when a read first needs them, not at the
   * load: at a start that statement would touch dozens of cold tables before the first request.
   * Until they are counted, statements read every identifier themselves.
   */
  adopt(dict: Dictionary): void {
    if (this.#live) this.#live.live = false;
    let counting: Promise<void> | null = null;
    const g: Generation = {
      cache: this,
      live: true,
      small: null,
      kept: new Map(),
      count: () => (counting ??= this.#count(dict, g).catch(() => undefined)),
    };
    generations.set(dict, g);
    this.#live = g;
  }

  async #count(dict: Dictionary, g: Generation): Promise<void> {
    const candidates = new Map<string, Table>();
    const shown = new Map<string, { table: Table; display: string }>();
    const common = new Set<string>();
    for (const t of dict.tables) for (const c of t.columns) {
      const target = keptIdentifierTarget(dict, c);
      if (!target) continue;
      candidates.set(target.dbName, target);
      shown.set(keptKey(target, c), { table: target, display: displayOf(c) });
      if (everyTableHas(dict, c)) common.add(target.dbName);
    }
    const tables = [...candidates.values()];
    if (!tables.length) return;
    // One statement; each count stops one row past the limit, so a large table costs no more than a small one.
    const counts = tables.map((t) => `(SELECT count(*) FROM (SELECT 1 FROM ${ident(t.dbName)} LIMIT ${SMALL_TABLE_ROWS + 1}) s)`);
    const { rows } = await this.db.query<{ n: (string | number)[] }>(`SELECT ARRAY[${counts.join(', ')}]::int[] AS n`);
    const n = rows[0]!.n;
    const small = new Set<string>();
    tables.forEach((t, i) => {
      if (Number(n[i]) <= SMALL_TABLE_ROWS) small.add(t.dbName);
    });
    for (const [key, { table, display }] of shown) {
      if (!small.has(table.dbName) && !common.has(table.dbName)) continue;
      const aliases = new AliasSource();
      const alias = aliases.next();
      const expr = identifierOfRow(dict, table, alias, display || null, aliases);
      if (expr) g.kept.set(key, new KeptIdentifiers(g, table, identifierTables(dict, table), expr, alias));
    }
    g.small = small;
  }

  /** Marks `tx` as having written `table`: its reads of identifiers that show that table skip the kept ones. */
  changedBy(tx: object, table: string): void {
    const key = baseTransaction(tx);
    let set = this.#written.get(key);
    if (!set) this.#written.set(key, (set = new Set()));
    set.add(table);
  }

  /** Whether the transaction `q` belongs to (each write operation wraps it anew) wrote one of `tables`. */
  wrote(q: Queryable, tables: readonly string[]): boolean {
    const set = this.#written.get(baseTransaction(q));
    return !!set && tables.some((t) => set.has(t));
  }

  clear(): void {
    if (this.#live) for (const k of this.#live.kept.values()) k.entries.clear();
  }

  /** The cache as GET /caches shows it and a reset of one of its tables empties it. */
  source(): CacheSource {
    const kept = () => [...(this.#live?.kept.values() ?? [])];
    return {
      name: 'reference identifiers',
      get tables() {
        return [...new Set(kept().flatMap((k) => k.tables))];
      },
      expireMinutes: 0,
      stats: () =>
        kept()
          .map((k) => k.entries.stats())
          .reduce((a, b) => ({ size: a.size + b.size, maxSize: a.maxSize + b.maxSize, hits: a.hits + b.hits, misses: a.misses + b.misses }), { size: 0, maxSize: 0, hits: 0, misses: 0 }),
      reset: () => this.clear(),
    };
  }
}

/**
 * The kept identifiers a lookup column shows, or null when its statement must read them: the
 * column's target is not small and not every table has the column, or the tables are not counted yet.
 */
export function keptIdentifiersOf(dict: Dictionary, column: Column): KeptIdentifiers | null {
  const g = generations.get(dict);
  if (!g) return null;
  if (!g.small) {
    void g.count();
    return null;
  }
  const target = keptIdentifierTarget(dict, column);
  if (!target || !(g.small.has(target.dbName) || everyTableHas(dict, column))) return null;
  return g.kept.get(keptKey(target, column)) ?? null;
}

/** Lookups showing the same column of the same table share their kept values. */
function keptKey(target: Table, column: Column): string {
  return `${target.dbName}|${displayOf(column)}`;
}

/** Has the tables of a dictionary counted now rather than at the first read that needs them; settles when they are. */
export async function countKeptIdentifierTables(dict: Dictionary): Promise<void> {
  await generations.get(dict)?.count();
}

/** Whether the kept identifiers of a dictionary are settled (tables counted): reads' statements differ before and after. */
export function keptIdentifiersSettled(dict: Dictionary): boolean {
  return !!generations.get(dict)?.small;
}

const keptAt = new WeakMap<readonly SelectItem[], number[]>();

/** Positions of the items whose values come from kept identifiers. */
function keptPositions(items: readonly SelectItem[]): number[] {
  let at = keptAt.get(items);
  if (!at) {
    at = [];
    items.forEach((it, i) => {
      if (it.kept) at!.push(i);
    });
    keptAt.set(items, at);
  }
  return at;
}

/**
 * Puts the kept identifiers into rows whose statement left them out (their items read NULL):
 * from memory where held, else one read per table of the keys missing.
 */
export async function fillKeptIdentifiers(q: Queryable, items: readonly SelectItem[], rows: unknown[][]): Promise<void> {
  const at = keptPositions(items);
  if (!at.length || !rows.length) return;
  const missing = new Map<KeptIdentifiers, Set<number>>();
  for (const i of at) {
    const { source, keyAt } = items[i]!.kept!;
    const usable = source.usableBy(q);
    for (const row of rows) {
      const key = row[keyAt];
      if (key === null || key === undefined) continue;
      const v = usable ? source.entries.get(key as number) : undefined;
      if (v !== undefined) row[i] = v;
      else {
        let keys = missing.get(source);
        if (!keys) missing.set(source, (keys = new Set()));
        keys.add(key as number);
      }
    }
  }
  for (const [source, keys] of missing) {
    const found = await source.read(q, [...keys], source.usableBy(q));
    for (const i of at) {
      const { source: s, keyAt } = items[i]!.kept!;
      if (s !== source) continue;
      for (const row of rows) {
        const key = row[keyAt] as number | null;
        if (key !== null && key !== undefined && keys.has(key)) row[i] = found.get(key) ?? null;
      }
    }
  }
}
