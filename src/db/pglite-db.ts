import { PGlite, type Transaction } from '@electric-sql/pglite';
import { textParsers, OID, toBuffer } from './type-parsers.js';
import type { Db, QueryResult, Tx, QueryOptions, Queryable } from './types.js';
import { directParams, LARGE_BYTEA, runDirect } from './pglite-bytes.js';
import { takePgliteArtifacts } from './pglite-artifacts.js';

const parsers: Record<number, (v: string, typeId?: number) => unknown> = {
  ...textParsers,
};

/**
 * bytea parameters as the bytes themselves: PGlite's protocol writer sends a Uint8Array in binary
 * format, one copy of the chunk. PGlite's own serializer maps every byte to a small string and joins
 * them (about a hundred megabytes of garbage for a 1 MB upload chunk), and even hex in one native
 * step is a 2 MiB string that the writer encodes again and the database decodes.
 */
export const serializers: Record<number, (v: unknown) => string | Uint8Array> = {
  [OID.bytea]: (v) => (v instanceof Uint8Array ? v : String(v)),
};

function wrapResult<R>(res: { rows: unknown[]; affectedRows?: number; fields?: { name: string; dataTypeID: number }[] }): QueryResult<R> {
  const byteaFields = (res.fields ?? []).filter((f) => f.dataTypeID === OID.bytea).map((f) => f.name);
  if (byteaFields.length > 0) {
    for (const row of res.rows as Record<string, unknown>[]) {
      for (const f of byteaFields) row[f] = toBuffer(row[f]);
    }
  }
  return { rows: res.rows as R[], rowCount: res.affectedRows ?? res.rows.length };
}

let savepointCounter = 0;

/** A write whose parameters include a large bytea value and that answers no rows goes the direct way (see pglite-bytes). */
const ANSWERS_NO_ROWS = /^\s*(INSERT|UPDATE)\b(?![\s\S]*\bRETURNING\b)/i;

/** A statement on `on` (the database, or a transaction of it). */
async function query<R>(pg: PGlite, on: PGlite | Transaction, text: string, params: readonly unknown[]): Promise<QueryResult<R>> {
  if (params.some((p) => p instanceof Uint8Array && p.length >= LARGE_BYTEA) && ANSWERS_NO_ROWS.test(text)) {
    const direct = directParams(params);
    if (direct) return { rows: [], rowCount: (await runDirect(pg, on, text, direct)).rowCount };
  }
  return wrapResult<R>(await on.query(text, params as unknown[]));
}

async function readBytea(pg: PGlite, on: PGlite | Transaction, text: string, params: readonly unknown[]): Promise<Buffer | null> {
  const direct = directParams(params);
  if (!direct) throw new Error('readBytea takes text, numbers, dates and bytes as parameters');
  return (await runDirect(pg, on, text, direct)).value;
}

function wrapTx(pg: PGlite, tx: Transaction): Tx {
  const self: Tx = {
    independent: null,
    async query<R>(text: string, params: readonly unknown[] = [], _o?: QueryOptions) {
      return query<R>(pg, tx, text, params);
    },
    readBytea: (text, params = []) => readBytea(pg, tx, text, params),
    async savepoint<T>(fn: (t: Tx) => Promise<T>): Promise<T> {
      const name = `sp_${++savepointCounter}`;
      await tx.query(`SAVEPOINT ${name}`);
      try {
        const out = await fn(self);
        await tx.query(`RELEASE SAVEPOINT ${name}`);
        return out;
      } catch (e) {
        await tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
        throw e;
      }
    },
    // PGlite hands a commit's notifications to its listeners before the commit returns.
    async notify(channel, payload) {
      await tx.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
  };
  return self;
}

export interface PgliteOpenOptions {
  dataDir?: string;
  /** A gzipped data directory tarball to start from (a seeded snapshot). */
  loadDataDir?: Blob;
  /** shared_buffers in MB; PostgreSQL's default (128) when absent. */
  sharedBuffersMb?: number;
}

/** Embedded PostgreSQL (WASM). One connection: statements and transactions are serialised by PGlite. */
export async function openPglite(options: PgliteOpenOptions): Promise<Db & { dump(): Promise<Blob>; pglite: PGlite }> {
  const artifacts = await takePgliteArtifacts();
  const pg = await PGlite.create({
    dataDir: options.dataDir,
    pgliteWasmModule: artifacts.wasmModule,
    // PGlite calls arrayBuffer() of the bundle and nothing else (see pglite-artifacts.ts).
    fsBundle: artifacts.fsBundle as Blob,
    loadDataDir: options.loadDataDir,
    parsers,
    // PGlite declares serializers as returning text; its writer takes bytes as well (binary format).
    serializers: serializers as Record<number, (v: unknown) => string>,
    relaxedDurability: false,
    ...(options.sharedBuffersMb ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffersMb}MB`] } : {}),
  });
  await pg.exec(`SET TIME ZONE 'UTC'`);
  const db: Db & { dump(): Promise<Blob>; pglite: PGlite } = {
    kind: 'pglite',
    pglite: pg,
    async query<R>(text: string, params: readonly unknown[] = [], _o?: QueryOptions) {
      return query<R>(pg, pg, text, params);
    },
    readBytea: (text, params = []) => readBytea(pg, pg, text, params),
    async exec(sql: string) {
      await pg.exec(sql);
    },
    async tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      return pg.transaction((t) => fn(wrapTx(pg, t)));
    },
    // One connection in all: statements of a request already run on it.
    connection<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
      return fn(db);
    },
    async listen(channel: string, onPayload: (payload: string) => void) {
      const unsub = await pg.listen(channel, onPayload);
      return async () => {
        await unsub();
      };
    },
    async dump() {
      return pg.dumpDataDir('gzip');
    },
    async close() {
      if (!pg.closed) await pg.close();
    },
  };
  return db;
}
