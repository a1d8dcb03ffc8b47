import { readPredicate } from '../../access/access.js';
import { SqlBuilder } from '../../db/sql.js';
import { badRequest } from '../../errors.js';
import type { ProcessCall, ProcessOutcome } from '../runner.js';

interface Balance {
  c_bpartner_id: number;
  name: string;
  open_balance: number;
  credit_used: number;
  lifetime: number;
  so_creditlimit: number;
  socreditstatus: string | null;
}

/**
 * The credit status a partner's figures give: no check (X) and stop (S) are set by hand and kept;
 * with a credit limit, above it is hold (H), above 90 percent of it watch (W), else OK (O).
 */
export function creditStatus(current: string | null, limit: number, used: number): string | null {
  if (current === 'X' || current === 'S' || !(limit > 0)) return current;
  if (used > limit) return 'H';
  if (used > limit * 0.9) return 'W';
  return 'O';
}

/**
 * Validate Business Partner: recomputes a partner's open balance (completed invoices less their
 * allocations; receivables positive, payables negative), credit used (open receivables), lifetime
 * value (completed customer invoices) and credit status. For one partner (record-id or the
 * C_BPartner_ID parameter) or every partner of a group (C_BP_Group_ID). These are computed
 * columns, not user input: they are written directly, as the original's process does.
 */
export async function validateBPartners(c: ProcessCall): Promise<ProcessOutcome> {
  const dict = c.s.dictionary.current;
  const bpTable = dict.byName.get('c_bpartner')!;
  const partner = c.record?.table.id === bpTable.id ? c.record.id : c.param('C_BPartner_ID')?.value;
  const group = c.param('C_BP_Group_ID')?.value;
  if (typeof partner !== 'number' && typeof group !== 'number') throw badRequest('Invalid parameter', 'A business partner or a business partner group is needed');
  const sql = new SqlBuilder();
  const where = [`bp.isactive = 'Y'`, `bp.ad_client_id = ${sql.param(c.auth.clientId)}`, readPredicate(c.auth, bpTable, 'bp', sql)];
  if (typeof partner === 'number') where.push(`bp.c_bpartner_id = ${sql.param(partner)}`);
  if (typeof group === 'number') where.push(`bp.c_bp_group_id = ${sql.param(group)}`);
  const { rows } = await c.tx.query<Balance>(
    `SELECT bp.c_bpartner_id, bp.name, coalesce(bp.so_creditlimit, 0)::float8 AS so_creditlimit, bp.socreditstatus,
            coalesce(sum(CASE WHEN i.issotrx = 'Y' THEN 1 ELSE -1 END * (i.grandtotal - a.paid)), 0)::float8 AS open_balance,
            coalesce(sum(CASE WHEN i.issotrx = 'Y' THEN i.grandtotal - a.paid ELSE 0 END), 0)::float8 AS credit_used,
            coalesce(sum(CASE WHEN i.issotrx = 'Y' THEN i.grandtotal ELSE 0 END), 0)::float8 AS lifetime
       FROM c_bpartner bp
       LEFT JOIN c_invoice i ON i.c_bpartner_id = bp.c_bpartner_id AND i.isactive = 'Y' AND i.docstatus IN ('CO', 'CL')
       LEFT JOIN LATERAL (SELECT coalesce(sum(al.amount + al.discountamt + al.writeoffamt), 0) AS paid
         FROM c_allocationline al JOIN c_allocationhdr ah ON ah.c_allocationhdr_id = al.c_allocationhdr_id
         WHERE al.c_invoice_id = i.c_invoice_id AND al.isactive = 'Y' AND ah.docstatus IN ('CO', 'CL')) a ON TRUE
      WHERE ${where.join(' AND ')}
      GROUP BY bp.c_bpartner_id, bp.name, bp.so_creditlimit, bp.socreditstatus
      ORDER BY bp.name`,
    sql.values,
  );
  if (!rows.length) throw badRequest('Invalid parameter', 'No business partner matches');
  const lines: string[] = [];
  for (const b of rows) {
    const status = creditStatus(b.socreditstatus, b.so_creditlimit, b.credit_used);
    await c.tx.query(`UPDATE c_bpartner SET totalopenbalance = $2, so_creditused = $3, actuallifetimevalue = $4, socreditstatus = $5, updated = now(), updatedby = $6 WHERE c_bpartner_id = $1`, [
      b.c_bpartner_id,
      b.open_balance,
      b.credit_used,
      b.lifetime,
      status,
      c.auth.userId,
    ]);
    const line = `${b.name}: open balance ${b.open_balance.toFixed(2)}, credit used ${b.credit_used.toFixed(2)}, status ${status ?? ''}`;
    lines.push(line);
    c.log({ msg: line, tableId: bpTable.id, recordId: Number(b.c_bpartner_id) });
    c.progress(lines.length / rows.length);
  }
  return { summary: rows.length === 1 ? lines[0]! : `Business partners validated: ${rows.length}` };
}
