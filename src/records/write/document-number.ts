import type { Queryable, Tx } from '../../db/types.js';
import type { Table } from '../../dictionary/model.js';
import { FIRST_USER_ID } from '../../seed/bootstrap.js';
import { nextId, uuidv7 } from '../../db/ids.js';

type Row = Record<string, unknown>;

interface SequenceRow {
  ad_sequence_id: number;
  currentnext: number;
  incrementno: number;
  prefix: string | null;
  suffix: string | null;
  decimalpattern: string | null;
}

/** Tables whose search key is never numbered automatically, as in the original. */
const NO_VALUE_NUMBERS = new Set(['ad_sysconfig', 'm_attributeinstance']);

const needsNumber = (v: unknown): boolean => v === null || v === undefined || v === '' || (typeof v === 'string' && /^<.*>$/.test(v));

/** Replaces @Column@ in a prefix or suffix with the record's values. */
const expand = (text: string | null, row: Row): string => (text ?? '').replace(/@(\w+)@/g, (_m, c: string) => String(row[c.toLowerCase()] ?? ''));

function formatNumber(n: number, pattern: string | null): string {
  if (!pattern) return String(n);
  const digits = (pattern.match(/0/g) ?? []).length;
  return String(n).padStart(digits, '0');
}

/** The number a sequence row gave (its CurrentNext before the increment), with prefix and suffix. */
const formatTaken = (seq: SequenceRow, row: Row): string =>
  `${expand(seq.prefix, row)}${formatNumber(Number(seq.currentnext), seq.decimalpattern)}${expand(seq.suffix, row)}`;

/** Takes the next number of a sequence row (locked by the caller's SELECT ... FOR UPDATE). */
async function take(tx: Queryable, seq: SequenceRow, row: Row): Promise<string> {
  await tx.query('UPDATE ad_sequence SET currentnext = currentnext + incrementno WHERE ad_sequence_id = $1', [seq.ad_sequence_id]);
  return formatTaken(seq, row);
}

/** The client's DocumentNo_<Table> sequence, created at 1,000,000 on first use. */
async function tableSequence(tx: Queryable, table: Table, clientId: number): Promise<SequenceRow> {
  const name = `DocumentNo_${table.name}`;
  // Two first uses at once must not both create the sequence: serialise them on its name.
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${name}:${clientId}`]);
  const find = () =>
    tx.query<SequenceRow>(
      `SELECT ad_sequence_id, currentnext, incrementno, prefix, suffix, decimalpattern FROM ad_sequence WHERE name = $1 AND ad_client_id = $2 AND istableid = 'N' AND isactive = 'Y' FOR UPDATE`,
      [name, clientId],
    );
  let { rows } = await find();
  if (!rows.length) {
    const id = await nextId(tx, 'AD_Sequence');
    await tx.query(
      `INSERT INTO ad_sequence (ad_sequence_id, ad_sequence_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby, name, description, istableid, isautosequence, incrementno, startno, currentnext, currentnextsys)
       VALUES ($1, $2, $3, 0, 'Y', now(), 100, now(), 100, $4, $5, 'N', 'Y', 1, $6, $6, 200000)`,
      [id, uuidv7(), clientId, name, `Document numbers of ${table.name}`, FIRST_USER_ID],
    );
    ({ rows } = await find());
  }
  return rows[0]!;
}

/** Whether new records of a table may be numbered (it has a DocumentNo or a Value column). */
export const mayNumber = (table: Table): boolean => table.byName.has('documentno') || table.byName.has('value');

/**
 * Fills DocumentNo (and Value) of a new record when empty or written as <placeholder>: from the
 * document type's sequence when it controls numbers, else from the table's own sequence.
 */
export function assignDocumentNumbers(tx: Tx, table: Table, row: Row, clientId: number): Promise<void> | undefined {
  // A promise only when there is something to number (lines have numbers of their own, or none).
  return takesNumber(table, row, 'documentno') || takesNumber(table, row, 'value') ? numberRow(tx, table, row, clientId) : undefined;
}

/** Whether a column of a new row takes a number. */
function takesNumber(table: Table, row: Row, colName: 'documentno' | 'value'): boolean {
  const column = table.byName.get(colName);
  if (!column || column.columnSql || !needsNumber(row[colName])) return false;
  // A search key is numbered only where it is required (an optional Value, like a user's, stays empty).
  return colName !== 'value' || (column.isMandatory && !NO_VALUE_NUMBERS.has(table.dbName) && !table.dbName.startsWith('t_'));
}

async function numberRow(tx: Tx, table: Table, row: Row, clientId: number): Promise<void> {
  for (const colName of ['documentno', 'value'] as const) {
    if (!takesNumber(table, row, colName)) continue;
    const docTypeId = colName === 'documentno' ? (row.c_doctypetarget_id ?? row.c_doctype_id) : null;
    const fromDocType = docTypeId ? await takeFromDocType(tx, docTypeId, row) : null;
    row[colName] = fromDocType ?? (await withCounter(tx, async (q) => take(q, await tableSequence(q, table, clientId), row)));
  }
}

/**
 * Counter rows are locked while a number is taken. On a PostgreSQL server that happens in a short
 * transaction of its own, so that documents created at the same time do not queue behind each
 * other's whole transactions (a create that fails afterwards leaves a gap, as a database
 * sequence would); on embedded PGlite, with its single connection, it joins the caller's.
 */
const withCounter = <T>(tx: Tx, fn: (q: Queryable) => Promise<T>): Promise<T> => (tx.independent ? tx.independent(fn) : fn(tx));

/**
 * A document type's sequence is taken by one UPDATE that returns the number it passed: the
 * counter row stays locked for one statement only.
 */
const DOCTYPE_TAKE_SQL = `UPDATE ad_sequence s SET currentnext = s.currentnext + s.incrementno
    FROM c_doctype d
   WHERE d.c_doctype_id = $1 AND d.isdocnocontrolled = 'Y' AND s.ad_sequence_id = d.docnosequence_id AND s.isactive = 'Y'
  RETURNING s.ad_sequence_id, s.currentnext - s.incrementno AS currentnext, s.incrementno, s.prefix, s.suffix, s.decimalpattern`;

/** The next number of a document type's sequence, or null when the type does not number its documents. */
async function takeFromDocType(tx: Tx, docTypeId: unknown, row: Row): Promise<string | null> {
  const run = (q: Queryable) => q.query<SequenceRow>(DOCTYPE_TAKE_SQL, [docTypeId], { name: 'doc_number_take' });
  const { rows } = tx.independent ? await tx.independent(run, { oneStatement: true }) : await run(tx);
  return rows[0] ? formatTaken(rows[0], row) : null;
}

const SEQUENCE_TAKE_SQL = `UPDATE ad_sequence s SET currentnext = s.currentnext + s.incrementno
   WHERE s.ad_sequence_id = $1 AND s.isactive = 'Y'
  RETURNING s.ad_sequence_id, s.currentnext - s.incrementno AS currentnext, s.incrementno, s.prefix, s.suffix, s.decimalpattern`;

/**
 * The next number of a given sequence (a document type's definite sequence, used on complete),
 * taken the way creation takes numbers: one statement, in a short transaction of its own on a
 * server. Null when the sequence does not exist or is inactive.
 */
export async function takeFromSequence(tx: Tx, sequenceId: number, row: Row): Promise<string | null> {
  const run = (q: Queryable) => q.query<SequenceRow>(SEQUENCE_TAKE_SQL, [sequenceId], { name: 'doc_number_take_definite' });
  const { rows } = tx.independent ? await tx.independent(run, { oneStatement: true }) : await run(tx);
  return rows[0] ? formatTaken(rows[0], row) : null;
}
