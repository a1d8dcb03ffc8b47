import { ident } from '../../db/sql.js';
import type { Tx } from '../../db/types.js';
import type { Column, Table } from '../../dictionary/model.js';
import { isStored } from '../../dictionary/ddl.js';
import type { Row } from '../../events/model-events.js';
import type { OperationMemo } from '../../events/operation-memo.js';
import { StatementNames } from '../read/statements.js';
import { verifyReferences, type ReferenceCheck } from './validate.js';

/** A new record ready to be written: its row, the references still to verify, and where the saved row goes. */
export interface PendingInsert {
  table: Table;
  row: Row;
  clientId: number;
  references: ReferenceCheck[];
  /** Receives the row as stored (RETURNING *). */
  saved(row: Row): void;
}

const INSERT_NAMES = new StatementNames('ins', 300);

type AfterInsert = (table: Table, saved: Row, columns: Set<string>) => Promise<void> | undefined;

/**
 * New records held back until the operation next talks to the database: then the references of
 * all of them are verified in one statement and each run of records of one table is written by
 * one multi-row INSERT, after which their after-new events run in order. A ten-line order
 * costs two statements for its lines instead of twenty.
 */
export class PendingInserts {
  #queue: PendingInsert[] = [];

  constructor(
    private readonly tx: Tx,
    private readonly memo: OperationMemo,
    private readonly afterInsert: AfterInsert,
  ) {}

  add(entry: PendingInsert): void {
    this.#queue.push(entry);
  }

  /** Writes everything pending, in order. */
  async flush(): Promise<void> {
    while (this.#queue.length) {
      const batch = this.#queue;
      this.#queue = [];
      await verifyReferences(this.tx, batch);
      for (const run of runsOfOneTable(batch)) await this.#write(run);
    }
  }

  async #write(run: PendingInsert[]): Promise<void> {
    const table = run[0]!.table;
    const columns = table.columns.filter((c) => isStored(c) && run.some((p) => p.row[c.dbName] !== undefined));
    // Prepared: planning a multi-row INSERT each time costs about a tenth of an order's
    // throughput. Its names are a set of their own, as the texts vary with rows and columns.
    const rows = run.map((p) => p.row);
    const { text, values } = rows.length >= POPULATE_MIN_ROWS && populates(columns, rows) ? populateStatement(table, columns, rows) : insertStatement(table, columns, rows);
    const name = INSERT_NAMES.of(text);
    const { rows: saved } = await this.tx.query<Row>(text, values, name ? { name } : undefined);
    this.memo.forget(table.dbName);
    const key = table.keyColumn ?? table.uuColumn;
    const byKey = key ? new Map(saved.map((r) => [String(r[key.dbName]), r])) : null;
    const inserted = new Set(columns.map((c) => c.dbName));
    for (const [i, p] of run.entries()) {
      const row = (byKey && key ? byKey.get(String(p.row[key.dbName])) : saved[i]) ?? saved[i]!;
      p.saved(row);
      const after = this.afterInsert(table, row, inserted);
      if (after) await after;
    }
  }
}

/** Consecutive entries of the same table, in order. */
function runsOfOneTable(entries: PendingInsert[]): PendingInsert[][] {
  const runs: PendingInsert[][] = [];
  for (const e of entries) {
    const last = runs.at(-1);
    if (last && last[0]!.table === e.table) last.push(e);
    else runs.push([e]);
  }
  return runs;
}

/** INSERT of several rows; a column a row leaves unset takes the column's DEFAULT. */
export function insertStatement(table: Table, columns: Column[], rows: Row[]): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const names = columns.map((c) => c.dbName);
  // Written out row by row: a thousand lines of two dozen columns make one statement.
  const tuples = rows.map((row) => {
    let tuple = '(';
    for (let i = 0; i < names.length; i++) {
      const v = row[names[i]!];
      if (i > 0) tuple += ', ';
      if (v === undefined) tuple += 'DEFAULT';
      else tuple += `$${values.push(v)}`;
    }
    return `${tuple})`;
  });
  const text = `INSERT INTO ${ident(table.dbName)} (${names.map(ident).join(', ')}) VALUES ${tuples.join(', ')} RETURNING *`;
  return { text, values };
}

/** From this many rows on, a run whose values allow it is written from one JSON parameter (see populateStatement). */
const POPULATE_MIN_ROWS = 2;

/** Text that JSON and a text parameter would not carry alike: NUL, and UTF-16 surrogates (a lone one becomes U+FFFD as text). */
const UNLIKE_IN_JSON = /[\0\uD800-\uDFFF]/;

/**
 * Whether rows can be written by populateStatement with the values insertStatement would write:
 * every row sets every column (a missing key would be NULL, not the column's DEFAULT), no column
 * is JSON (a JSON column takes the JSON value itself, not its text), and each value is null, a
 * finite number or text that JSON carries as a text parameter would be (objects such as binary
 * data, and special numbers, keep the parameters of insertStatement).
 */
function populates(columns: Column[], rows: Row[]): boolean {
  for (const c of columns) if (c.kind === 'json') return false;
  for (const row of rows) {
    for (const c of columns) {
      const v = row[c.dbName];
      if (v === null) continue;
      if (typeof v === 'string') {
        if (UNLIKE_IN_JSON.test(v)) return false;
      } else if (typeof v !== 'number' || !Number.isFinite(v)) return false;
    }
  }
  return true;
}

/**
 * INSERT of several rows from one JSON array of them, each value read by the column's own type
 * as a text parameter would be: one parameter and a text that depends on the columns only,
 * instead of a parameter per value and a text per number of rows (a thousand lines of forty
 * columns are 40,000 parameters otherwise).
 */
export function populateStatement(table: Table, columns: Column[], rows: Row[]): { text: string; values: unknown[] } {
  const names = columns.map((c) => c.dbName);
  const list = names.map(ident).join(', ');
  const text = `INSERT INTO ${ident(table.dbName)} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${ident(table.dbName)}, $1::json) RETURNING *`;
  return { text, values: [JSON.stringify(rows, names)] };
}
