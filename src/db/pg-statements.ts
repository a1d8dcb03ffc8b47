// How statements go to PostgreSQL through node-postgres's Query, where the driver's defaults cost
// round trips or CPU: BEGIN and COMMIT joined to a statement in one write, and the row shape a named
// statement's description gives kept by its name. Both rely on the driver's internals (pg is pinned);
// test/http/foundation/begin-with-first.test.ts and commit-with.test.ts check them on the server.
import pg from 'pg';

type PgConnection = {
  execute(o: { portal?: string; rows?: number }): void;
  parse(o: { text: string; name?: string; types?: unknown }): void;
  bind(o: object): void;
  sync(): void;
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
};

interface FieldDescription {
  name: string;
  dataTypeID: number;
  format: string;
}

/** The driver's per-result state a RowDescription sets up (pg's Result). */
interface ResultShape {
  fields: FieldDescription[];
  _parsers: unknown[] | undefined;
  _prebuiltEmptyResultObject: Record<string, null> | null;
}

/**
 * What the driver builds from a named statement's RowDescription (a parser per column and an
 * empty row object with every column's name), kept by the statement's name: the locked read of a
 * record answers a hundred-odd columns, and building them again for every statement was a
 * noticeable part of a write's CPU. Used only when the description is the same as the kept one
 * (a statement prepared again after its table changed describes other columns).
 */
const rowShapes = new Map<string, ResultShape>();

function sameFields(a: readonly FieldDescription[], b: readonly FieldDescription[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.name !== y.name || x.dataTypeID !== y.dataTypeID || x.format !== y.format) return false;
  }
  return true;
}

type QueryInternals = { name?: string; _result: ResultShape; _checkForMultirow(): void; _accumulateRows: boolean; callback?: unknown; listeners(e: string): unknown[] };

/** A query whose named statement's row shape is taken from `rowShapes` when it is the same as before. */
class ShapedQuery extends pg.Query {
  handleRowDescription(msg: { fields: FieldDescription[] }): void {
    const self = this as unknown as QueryInternals;
    const kept = self.name ? rowShapes.get(self.name) : undefined;
    if (kept && sameFields(kept.fields, msg.fields)) {
      self._checkForMultirow();
      const r = self._result;
      r.fields = msg.fields;
      r._parsers = kept._parsers;
      r._prebuiltEmptyResultObject = kept._prebuiltEmptyResultObject;
      self._accumulateRows = Boolean(self.callback) || !self.listeners('row').length;
      return;
    }
    (pg.Query.prototype as unknown as { handleRowDescription(m: unknown): void }).handleRowDescription.call(this, msg);
    if (self.name && msg.fields.length) {
      const r = self._result;
      rowShapes.set(self.name, { fields: msg.fields, _parsers: r._parsers, _prebuiltEmptyResultObject: r._prebuiltEmptyResultObject });
    }
  }
}

/** BEGIN or COMMIT as an unnamed statement of the extended protocol, run before the next Sync. */
function controlStatement(connection: PgConnection, text: 'BEGIN' | 'COMMIT'): void {
  connection.parse({ text });
  connection.bind({ portal: '', statement: '', values: [] });
  connection.execute({ portal: '', rows: 0 });
}

/**
 * A statement sent in one round trip with the BEGIN before it and/or the COMMIT after it: one
 * Sync ends all of them. The server runs them in order and skips what follows an error up to
 * the Sync, so a failed statement leaves the transaction failed (the caller rolls it back) and
 * commits nothing. A named statement not yet prepared on the connection is parsed before the
 * BEGIN: the driver takes the first ParseComplete for the statement's own.
 */
class JoinedStatement extends ShapedQuery {
  constructor(
    text: string,
    values: unknown[],
    name: string | undefined,
    private readonly begin: boolean,
    private readonly commit: boolean,
  ) {
    super(text, values);
    (this as { name?: string }).name = name;
  }

  prepare(connection: PgConnection): void {
    const self = this as unknown as { name?: string; text: string; hasBeenParsed(c: PgConnection): boolean; prepare(c: PgConnection): void };
    if (this.begin) {
      if (self.name && !self.hasBeenParsed(connection)) {
        connection.parse({ text: self.text, name: self.name });
        connection.submittedNamedStatements[self.name] = self.text;
      }
      controlStatement(connection, 'BEGIN');
    }
    (pg.Query.prototype as unknown as { prepare(c: PgConnection): void }).prepare.call(this, connection);
  }

  _getRows(connection: PgConnection): void {
    connection.execute({ portal: '', rows: 0 });
    if (this.commit) controlStatement(connection, 'COMMIT');
    connection.sync();
  }
}

/**
 * Runs `text` (named or not) with BEGIN before it and/or COMMIT after it in one round trip;
 * answers the statement's result.
 */
export function joinedQuery(client: pg.PoolClient, text: string, values: unknown[], name: string | undefined, begin: boolean, commit: boolean): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    const query = new JoinedStatement(text, values, name, begin, commit) as pg.Query & { callback?: (err: Error | null, res: pg.QueryResult | pg.QueryResult[]) => void };
    const at = begin ? 1 : 0;
    // A result for each of BEGIN, the statement and COMMIT sent. Anything else means the driver
    // did not send them (its internals changed): fail, so that the caller rolls the transaction back.
    query.callback = (err, res) => {
      if (err) return reject(err);
      const results = Array.isArray(res) ? res : [res];
      const expected = at + 1 + (commit ? 1 : 0);
      if (results.length === expected && (!begin || results[0]!.command === 'BEGIN') && (!commit || results[at + 1]!.command === 'COMMIT')) return resolve(results[at]!);
      reject(new Error('the statement came back without its BEGIN or COMMIT'));
    };
    client.query(query);
  });
}

/**
 * A named statement on one connection. The driver copies a query's config object property by
 * property on every query; a query made from text and values, named afterwards, is not copied.
 */
export function namedQuery(client: pg.PoolClient, text: string, values: unknown[], name: string): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    const query = new ShapedQuery(text, values) as pg.Query & { name?: string; callback?: (err: Error | null, res: pg.QueryResult) => void };
    query.name = name;
    query.callback = (err, res) => (err ? reject(err) : resolve(res));
    client.query(query);
  });
}
