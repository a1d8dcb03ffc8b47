import type { PGlite, Transaction } from '@electric-sql/pglite';
import { AnswerReader } from './answer-reader.js';
import { noteSpentBytes } from './spent-bytes.js';

/**
 * Statements on embedded PGlite that carry large bytea values, spoken in PostgreSQL's wire protocol
 * directly. PGlite's own query path answers bytea as hex text and copies an answer three times on
 * the way (its receive buffer, the answer it returns, the parsed text), and its writer copies a
 * bytea parameter three times into its message: megabytes of short-lived buffers for each
 * megabyte, which an embedded service pays in resident memory until V8 collects them. Here a
 * message is built in one buffer of its exact size, a bytea value is read in binary format into
 * one buffer of its size, and nothing else is kept. Notifications are not read on this path: the
 * service sends them with `SELECT pg_notify` inside transactions (delivered at COMMIT, which goes
 * PGlite's own way), and no trigger of its tables notifies.
 */

/** A bytea parameter at least this large takes the direct path; smaller ones are not worth it. */
export const LARGE_BYTEA = 64 * 1024;

type Param = string | Uint8Array | null;

/** Parameters as the direct path sends them; null when one is of a kind only PGlite's own serializers know. */
export function directParams(params: readonly unknown[]): Param[] | null {
  const out: Param[] = [];
  for (const p of params) {
    if (p === null || p === undefined) out.push(null);
    else if (p instanceof Uint8Array || typeof p === 'string') out.push(p);
    else if (typeof p === 'number' || typeof p === 'bigint') out.push(String(p));
    else if (typeof p === 'boolean') out.push(p ? 't' : 'f');
    else if (p instanceof Date) out.push(p.toISOString());
    else return null;
  }
  return out;
}

/** Parse, Bind (bytes in binary format, the rest as text; results in binary format), Execute and Sync of the unnamed statement, in one buffer. */
function statementMessage(sql: string, params: readonly Param[]): Uint8Array {
  const text = params.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p));
  const sqlBytes = Buffer.from(sql, 'utf8');
  const parseLength = 4 + 1 + sqlBytes.length + 1 + 2;
  const bindLength = 4 + 1 + 1 + 2 + 2 * params.length + 2 + text.reduce((n, p) => n + 4 + (p ? p.length : 0), 0) + 2 + 2;
  const out = Buffer.allocUnsafe(1 + parseLength + 1 + bindLength + 10 + 5);
  let at = 0;
  out[at++] = 0x50; // Parse
  at = out.writeInt32BE(parseLength, at);
  out[at++] = 0; // unnamed statement
  at += sqlBytes.copy(out, at);
  out[at++] = 0;
  at = out.writeInt16BE(0, at); // parameter types inferred
  out[at++] = 0x42; // Bind
  at = out.writeInt32BE(bindLength, at);
  out[at++] = 0; // unnamed portal
  out[at++] = 0; // unnamed statement
  at = out.writeInt16BE(params.length, at);
  for (const p of params) at = out.writeInt16BE(p instanceof Uint8Array ? 1 : 0, at);
  at = out.writeInt16BE(params.length, at);
  for (const p of text) {
    if (p === null) {
      at = out.writeInt32BE(-1, at);
    } else {
      at = out.writeInt32BE(p.length, at);
      out.set(p, at);
      at += p.length;
    }
  }
  at = out.writeInt16BE(1, at); // one result format for all columns:
  at = out.writeInt16BE(1, at); // binary
  out[at++] = 0x45; // Execute
  at = out.writeInt32BE(9, at);
  out[at++] = 0;
  at = out.writeInt32BE(0, at); // all rows
  out[at++] = 0x53; // Sync
  out.writeInt32BE(4, at);
  return out;
}

/**
 * Runs one statement on `pg` and reads the first column of its first row (a bytea value, in binary
 * format). Inside a PGlite transaction (`on` is that transaction), which holds the connection, only
 * the statement lock is taken, as PGlite's own transaction queries do.
 */
export async function runDirect(pg: PGlite, on: PGlite | Transaction, sql: string, params: readonly Param[]): Promise<AnswerReader> {
  const inTransaction = on !== pg;
  const message = statementMessage(sql, params);
  const reader = new AnswerReader();
  const run = () => pg._runExclusiveQuery(() => pg.execProtocolRawStream(message, { syncToFs: !inTransaction, onRawData: (piece) => reader.feed(piece) }));
  await (inTransaction ? run() : pg._runExclusiveTransaction(run));
  noteSpentBytes(message.length);
  if (reader.error) throw Object.assign(new Error(reader.error.message), { code: reader.error.code });
  return reader;
}
