import { accountSchema, postFacts } from '../accounting/facts.js';
import { compare } from '../decimal.js';
import { current, docId, docTypeOf, requireOpenPeriod } from '../engine/common.js';
import { refuse, type DocumentContext } from '../engine/document-type.js';
import { createReversal } from '../engine/reversal.js';
import { nowTimestamp, todayDate } from '../row-values.js';
import { ADJUSTABLE_METHODS } from './adjusted-costs.js';
import { adjustCosts, adjustedLines } from './cost-adjustment-costs.js';
import { revaluationFacts } from './revaluation-facts.js';

/** A price as a message shows it, without trailing zeros. */
const price = (v: string | null): string => (v ?? '0').replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');

/**
 * Refuses an adjustment (or its reversal, `documentId`) that cannot be made: a product on two
 * lines of the same cost key, a product without a cost row or costed by a method an adjustment does not set, a line
 * made at another cost than the product's cost now (the original's "Current Cost for Line n have
 * changed"), a price that is not greater than 0.
 */
async function checkLines(d: DocumentContext, documentId: number, schemaId: number): Promise<void> {
  for (const l of await adjustedLines(d.wc.tx, documentId, schemaId)) {
    const at = `line ${l.line}`;
    if (l.uses > 1) throw refuse(`${at}: product ${l.m_product_id} is on more than one line of the cost adjustment`);
    if (!l.method || !ADJUSTABLE_METHODS.includes(l.method)) throw refuse(`${at}: product ${l.m_product_id} is not costed by standard or average cost, which a cost adjustment sets`);
    if (l.m_cost_id === null || l.price === null) throw refuse(`${at}: product ${l.m_product_id} has no cost to adjust`);
    if (!l.reverses && compare(l.price, l.expected ?? 0) !== 0) {
      throw refuse(`${at}: the current cost of product ${l.m_product_id} changed since the line was made (from ${price(l.expected)} to ${price(l.price)}); make the line again`);
    }
    if (compare(l.target ?? 0, 0) <= 0) throw refuse(`${at}: the cost of product ${l.m_product_id} would become ${price(l.target)}; a cost must stay greater than 0`);
  }
}

/** Adjusts the costs of the document `documentId` and posts the revaluation under it. */
async function adjustAndPost(d: DocumentContext, documentId: number, date: unknown, periodId: number): Promise<void> {
  const schema = await accountSchema(d);
  await checkLines(d, documentId, schema.schemaId);
  const lines = await adjustCosts(d.wc.tx, documentId, schema.schemaId, date, d.wc.auth.userId, nowTimestamp());
  const dt = await docTypeOf(d);
  await postFacts(d, { dateAcct: date, periodId, currencyId: schema.currencyId, glCategoryId: dt?.gl_category_id ?? null, facts: revaluationFacts(lines) }, documentId);
}

/** Prepare of a cost adjustment: its lines can be adjusted now. */
export async function prepareCostAdjustment(d: DocumentContext): Promise<void> {
  const schema = await accountSchema(d);
  await checkLines(d, docId(d), schema.schemaId);
}

/**
 * Complete of a cost adjustment (M_Inventory of sub type CA): each product's cost becomes its
 * line's new price, and its stock on hand is revalued by (new − current) × quantity on hand:
 * Product Asset against Cost Adjustment (P_CostAdjustment_Acct). No stock moves.
 */
export async function completeCostAdjustment(d: DocumentContext, periodId: number): Promise<void> {
  await adjustAndPost(d, docId(d), current(d, 'movementdate'), periodId);
}

/**
 * Reverses a completed cost adjustment (void, reverse-correct on its date, reverse-accrual today):
 * a copy numbered "<number>^" whose lines take back the change per unit each line made (the
 * product's cost now less new − current of the original line), revaluing the stock on hand now,
 * so the stock value keeps equal to the books even when stock moved in between.
 */
export async function reverseCostAdjustment(d: DocumentContext, accrual: boolean): Promise<void> {
  const date = accrual ? todayDate() : d.row.movementdate;
  const periodId = await requireOpenPeriod({ ...d, row: { ...d.row, movementdate: date } }, 'movementdate');
  const reversalId = await createReversal(d, [{ table: 'm_inventoryline', link: 'm_inventory_id', negate: [], backLink: 'reversalline_id' }], [], date);
  if (accrual) await d.wc.tx.query('UPDATE m_inventory SET movementdate = $2::timestamp WHERE m_inventory_id = $1', [reversalId, date]);
  await adjustAndPost(d, reversalId, date, periodId);
  await d.wc.tx.query(`UPDATE m_inventory SET posted = 'Y' WHERE m_inventory_id = $1`, [reversalId]);
  d.changes.posted = d.row.posted;
  d.messages.push(`Reversal ${String(d.row.documentno)}^`);
}
