import { SqlBuilder } from '../../db/sql.js';
import { readPredicate } from '../../access/access.js';
import { badRequest, notFound } from '../../errors.js';
import type { ProcessCall, ProcessImplementations, ProcessOutcome } from '../../processes/runner.js';
import { DocumentRefusal } from '../engine/document-type.js';
import { allocateLandedCosts } from './allocate.js';
import { DISTRIBUTE_COSTS_CLASS } from './landed-cost-seed.js';

const LANDED_COST_SQL = (where: string) => `SELECT lc.c_invoiceline_id, i.c_invoice_id, i.documentno, i.issotrx, i.processed, i.istaxincluded, dt.docbasetype
  FROM c_landedcost lc JOIN c_invoiceline il ON il.c_invoiceline_id = lc.c_invoiceline_id JOIN c_invoice i ON i.c_invoice_id = il.c_invoice_id
  LEFT JOIN c_doctype dt ON dt.c_doctype_id = COALESCE(NULLIF(i.c_doctypetarget_id, 0), i.c_doctype_id)
 WHERE ${where} FOR UPDATE OF i`;

/**
 * Distribute Costs (the original's LandedCostDistribute), run on a landed cost: the landed costs
 * of its invoice line are distributed over their receipt lines now, as the invoice's completion
 * does again, while the invoice is not processed.
 */
export async function distributeCosts(c: ProcessCall): Promise<ProcessOutcome> {
  const table = c.s.dictionary.current.byName.get('c_landedcost')!;
  if (!c.record || c.record.table !== table) throw badRequest('Invalid parameter', 'The process runs on a landed cost (C_LandedCost): give its record');
  const sql = new SqlBuilder();
  const where = `lc.c_landedcost_id = ${sql.param(c.record.id)} AND lc.ad_client_id = ${sql.param(c.auth.clientId)} AND ${readPredicate(c.auth, table, 'lc', sql)}`;
  const { rows } = await c.tx.query<Record<string, any>>(LANDED_COST_SQL(where), sql.values);
  const lc = rows[0];
  if (!lc) throw notFound('Not found', `No landed cost ${c.record.id}`);
  if (lc.processed === 'Y') throw badRequest('Invalid parameter', `Invoice ${String(lc.documentno)} is processed: its landed costs were distributed when it completed`);
  const base = String(lc.docbasetype ?? (lc.issotrx === 'Y' ? 'ARI' : 'API'));
  const invoice = { id: Number(lc.c_invoice_id), lineId: Number(lc.c_invoiceline_id), sales: base.startsWith('AR'), credit: base.endsWith('C'), taxIncluded: lc.istaxincluded === 'Y' };
  try {
    await allocateLandedCosts(c.tx, invoice, c.auth.userId);
  } catch (e) {
    if (e instanceof DocumentRefusal) return { summary: e.message, isError: true };
    throw e;
  }
  const { rows: n } = await c.tx.query<{ n: number }>('SELECT count(*)::int AS n FROM c_landedcostallocation WHERE c_invoiceline_id = $1', [invoice.lineId]);
  return { summary: `${n[0]?.n ?? 0} allocation(s) of invoice ${String(lc.documentno)}` };
}

export function registerLandedCostProcesses(impls: ProcessImplementations): void {
  impls.register(DISTRIBUTE_COSTS_CLASS, distributeCosts);
}
