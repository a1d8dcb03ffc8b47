import { accountSchema, postFacts } from '../accounting/facts.js';
import type { DocumentContext } from '../engine/document-type.js';
import type { Revaluation } from './revaluation-facts.js';
import { revaluationFacts } from './revaluation-facts.js';

/** The stock lines whose reversals can meet a standard cost changed since their original: line table → its header link. */
const COSTED_LINES: Readonly<Record<string, string>> = { m_inoutline: 'm_inout_id', m_inventoryline: 'm_inventory_id' };

/**
 * Per cost detail of a reversal's line at standard cost: the stock it moved at the standard cost
 * of the reversal (Qty × CurrentCostPrice met) less the value it took back (the original's,
 * negated), when they differ.
 */
const differencesSql = (lines: string, link: string): string => `SELECT l.${lines}_id AS line_id, cd.m_product_id, cd.qty::text AS qty,
    (round(cd.qty * cd.currentcostprice, cur.stdprecision::int) - cd.amt)::text AS amt
  FROM ${lines} l
  JOIN m_costdetail cd ON cd.${lines}_id = l.${lines}_id AND cd.c_acctschema_id = $2
  JOIN m_costelement ce ON ce.m_costelement_id = cd.m_costelement_id AND ce.costingmethod = 'S'
  JOIN c_acctschema a ON a.c_acctschema_id = cd.c_acctschema_id JOIN c_currency cur ON cur.c_currency_id = a.c_currency_id
 WHERE l.${link} = $1 AND l.reversalline_id IS NOT NULL AND cd.currentcostprice <> 0
   AND round(cd.qty * cd.currentcostprice, cur.stdprecision::int) <> cd.amt
 ORDER BY l.${lines}_id`;

/**
 * A reversal of a receipt, shipment or count takes back its original's value while the stock
 * moves at today's standard cost: when a cost adjustment changed a standard cost in between, the
 * difference revalues the stock moved (Product Asset against Cost Adjustment) in facts of the
 * reversal `reversalId`, so the inventory account keeps the stock value. Nothing when the
 * standard cost did not change, or for average costs, whose reversals average the value out.
 */
export async function postStandardReversalDifference(d: DocumentContext, lineTable: string, reversalId: number, dateAcct: unknown, periodId: number): Promise<void> {
  const link = COSTED_LINES[lineTable];
  if (!link) return;
  const schema = await accountSchema(d);
  const { rows } = await d.wc.tx.query<Revaluation>(differencesSql(lineTable, link), [reversalId, schema.schemaId], { name: `doc_standard_reversal_${lineTable}` });
  if (!rows.length) return;
  const posted = d.changes.posted;
  await postFacts(d, { dateAcct, periodId, currencyId: schema.currencyId, facts: revaluationFacts(rows) }, reversalId);
  if (posted === undefined) delete d.changes.posted;
  else d.changes.posted = posted;
}
