import { ident, SqlBuilder } from '../../db/sql.js';
import { isStored } from '../../dictionary/ddl.js';
import type { Table } from '../../dictionary/model.js';
import { nowTimestamp } from '../row-values.js';
import { docId, reversalNumber } from './common.js';
import type { DocumentContext } from './document-type.js';

export interface ReversalDetail {
  table: string;
  /** Its link to the header. */
  link: string;
  /** Columns whose values the reversal negates (quantities and amounts). */
  negate: readonly string[];
  /** Columns the reversal sets to zero (what a confirmation recorded about the original's lines). */
  zero?: readonly string[];
  /** A column of the copy that points back at the line it reverses. */
  backLink?: string;
}

/** The SELECT list that copies a row of `table`, with some columns given other expressions. */
function copyList(table: Table, overrides: Record<string, string>): { columns: string; values: string } {
  const cols = table.columns.filter((c) => isStored(c) && (c.dbName in overrides || !c.isKey));
  return {
    columns: cols.map((c) => ident(c.dbName)).join(', '),
    values: cols.map((c) => overrides[c.dbName] ?? `x.${ident(c.dbName)}`).join(', '),
  };
}

/**
 * Creates the reversal of a completed document, as the original's reverse-correct and
 * reverse-accrual do: a copy of the header and its details with negated quantities and amounts,
 * numbered "<number>^", Reversed and processed, pointing at the original through Reversal_ID
 * (and the original at it). Returns the reversal's id. `dateAcct` is the reversal's accounting
 * date (the original's for a correction, today for an accrual).
 */
export async function createReversal(d: DocumentContext, details: readonly ReversalDetail[], headerNegate: readonly string[], dateAcct: unknown): Promise<number> {
  const { wc, table } = d;
  const key = table.keyColumn!.dbName;
  const newId = await wc.ids.next(wc.tx, table.name);
  const now = nowTimestamp();
  const common = (sql: SqlBuilder): Record<string, string> => {
    const at = `${sql.param(now)}::timestamp`;
    const by = sql.param(wc.auth.userId);
    return { processed: `'Y'`, created: at, updated: at, createdby: by, updatedby: by };
  };
  const sql = new SqlBuilder();
  const origin = sql.param(docId(d));
  const header: Record<string, string> = { ...common(sql), [key]: sql.param(newId), docstatus: `'RE'`, docaction: `'--'`, reversal_id: origin, posted: `'N'` };
  // A parameter only for a column the table has (a cash journal has no document number).
  if (table.byName.has('documentno')) header.documentno = sql.param(reversalNumber(d.row));
  if (table.uuColumn) header[table.uuColumn.dbName] = 'gen_random_uuid()::text';
  if (table.byName.has('dateacct')) header.dateacct = `${sql.param(dateAcct)}::timestamp`;
  if (table.byName.has('description')) header.description = `btrim(COALESCE(x.description, '') || ' ' || ${sql.param(`(->${String(d.row.documentno ?? '')})`)})`;
  if (table.byName.has('ispaid')) header.ispaid = `'Y'`;
  if (table.byName.has('isallocated')) header.isallocated = `'Y'`;
  for (const c of headerNegate) header[c] = `-x.${ident(c)}`;
  for (const c of Object.keys(header)) if (!table.byName.has(c)) delete header[c];
  const h = copyList(table, header);
  await wc.tx.query(`INSERT INTO ${ident(table.dbName)} (${h.columns}) SELECT ${h.values} FROM ${ident(table.dbName)} x WHERE x.${ident(key)} = ${origin}`, sql.values);
  for (const detail of details) {
    const t = wc.dict.byName.get(detail.table)!;
    const ls = new SqlBuilder();
    const from = ls.param(docId(d));
    const o: Record<string, string> = { ...common(ls), [detail.link]: ls.param(newId) };
    if (t.uuColumn) o[t.uuColumn.dbName] = 'gen_random_uuid()::text';
    if (t.keyColumn) o[t.keyColumn.dbName] = `nextval('${t.dbName}_sq')`;
    if (detail.backLink) o[detail.backLink] = `x.${ident(t.keyColumn!.dbName)}`;
    for (const c of detail.negate) o[c] = `-x.${ident(c)}`;
    for (const c of detail.zero ?? []) o[c] = '0';
    const l = copyList(t, o);
    const order = t.keyColumn ? ` ORDER BY x.${ident(t.keyColumn.dbName)}` : '';
    await wc.tx.query(`INSERT INTO ${ident(t.dbName)} (${l.columns}) SELECT ${l.values} FROM ${ident(t.dbName)} x WHERE x.${ident(detail.link)} = ${from}${order}`, ls.values);
    wc.memo.forget(t.dbName);
  }
  d.changes.reversal_id = newId;
  return newId;
}
