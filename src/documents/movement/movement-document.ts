import { accountSchema } from '../accounting/facts.js';
import { costingLevelSql, currentCostSql } from '../costing/costing-method.js';
import { costLines } from '../costing/cost-lines.js';
import { postFactRows } from '../accounting/fact-rows.js';
import { current, definiteNumberAndDate, docId, docTypeOf, noReactivation, requireLines, requireOpenPeriod } from '../engine/common.js';
import { refuse, type DocumentContext, type DocumentType } from '../engine/document-type.js';
import type { ReversalDetail } from '../engine/reversal.js';
import { nowTimestamp } from '../row-values.js';
import { createConfirmation, openConfirmation } from './movement-confirm-create.js';
import { applyStockDeltas } from '../stock/movements.js';
import { refuseNegativeStock } from '../stock/negative-stock.js';
import { accrualOnVoidByMovementDate, reverseStockDocument } from '../stock/stock-reversal.js';

/**
 * The stock changes of a move ($1): each line of a stocked product takes its quantity out of
 * M_Locator_ID (M-) and brings it into M_LocatorTo_ID (M+), under the attribute instance to, or
 * the line's own.
 */
const DELTAS_SQL = `SELECT ml.m_movementline_id AS line_id, ml.m_product_id, s.m_locator_id, s.asi, s.qty, s.movementtype
  FROM m_movementline ml
  JOIN m_product p ON p.m_product_id = ml.m_product_id AND p.producttype = 'I' AND p.isstocked = 'Y'
  CROSS JOIN LATERAL (VALUES (ml.m_locator_id, COALESCE(ml.m_attributesetinstance_id, 0), -ml.movementqty, 'M-'),
                             (ml.m_locatorto_id, COALESCE(NULLIF(ml.m_attributesetinstanceto_id, 0), ml.m_attributesetinstance_id, 0), ml.movementqty, 'M+'))
       AS s(m_locator_id, asi, qty, movementtype)
 WHERE ml.m_movement_id = $1 AND ml.isactive = 'Y' AND ml.movementqty <> 0`;

/** The value of the cost detail of one side of a move line (`line` an SQL expression of its id) in the schema `schema`: IsSOTrx Y the side it left, N the side it came to. */
const sideDetailSql = (line: string, sotrx: 'Y' | 'N', schema = '$2'): string =>
  `(SELECT cd.amt FROM m_costdetail cd WHERE cd.m_movementline_id = ${line} AND cd.c_acctschema_id = ${schema} AND cd.issotrx = '${sotrx}'
     ORDER BY cd.m_costdetail_id LIMIT 1)`;

/**
 * The lines of a move ($1) that change organization, of products costed at level O in the schema
 * ($2), for one side: from (out of the organization moved from, at its cost; a reversal's at the
 * negated value of its original's from side) or to (into the organization moved to, bringing the
 * value that left the other: the from side's cost detail; a reversal's its original's to side negated).
 */
const moveSideSql = (side: 'from' | 'to'): string => `SELECT ml.m_movementline_id AS line_id, ml.m_product_id,
    ${side === 'from' ? 'wf' : 'wt'}.ad_org_id, ml.m_attributesetinstance_id AS asi, ${side === 'from' ? '-' : ''}ml.movementqty AS qty, NULL::numeric AS price,
    ${side === 'from'
      ? `CASE WHEN ml.reversalline_id IS NOT NULL THEN -${sideDetailSql('ml.reversalline_id', 'Y')} END`
      : `CASE WHEN ml.reversalline_id IS NOT NULL THEN -${sideDetailSql('ml.reversalline_id', 'N')} ELSE -${sideDetailSql('ml.m_movementline_id', 'Y')} END`} AS amt,
    NULL::numeric AS landed, '${side === 'from' ? 'Y' : 'N'}'::text AS issotrx
  FROM m_movementline ml
  JOIN m_product p ON p.m_product_id = ml.m_product_id AND p.producttype = 'I' AND p.isstocked = 'Y'
  JOIN m_locator lf ON lf.m_locator_id = ml.m_locator_id JOIN m_warehouse wf ON wf.m_warehouse_id = lf.m_warehouse_id
  JOIN m_locator lt ON lt.m_locator_id = ml.m_locatorto_id JOIN m_warehouse wt ON wt.m_warehouse_id = lt.m_warehouse_id
 WHERE ml.m_movement_id = $1 AND ml.isactive = 'Y' AND ml.movementqty <> 0 AND wf.ad_org_id <> wt.ad_org_id
   AND ${costingLevelSql('ml.m_product_id', '$2::bigint')} = 'O'`;

const MOVE_SIDES = [moveSideSql('from'), moveSideSql('to')] as const;

/**
 * Costs a move as the original's Doc_Movement: only lines between two organizations of products
 * costed at level O, each with two cost details, the from side (the organization moved from, at
 * its cost: its average, or the layers it takes under FIFO and LIFO) and then the to side (the
 * organization moved to, whose cost averages in the value that left, or gets a layer of it). At
 * levels C and B the cost key does not change with the organization, so a move costs nothing.
 */
async function costMove(d: DocumentContext, movementId: number, date: unknown): Promise<void> {
  const schema = await accountSchema(d);
  const now = nowTimestamp();
  for (const [i, lines] of MOVE_SIDES.entries()) {
    const costed = await costLines(d.wc.tx, {
      column: 'm_movementline_id', lines, documentId: movementId, schemaId: schema.schemaId,
      date, userId: d.wc.auth.userId, now, name: `doc_movement_costs_${i}`,
    });
    // A move with no line to cost (every move at levels C and B) ends after one statement.
    if (!costed.length) return;
  }
}

async function moveStock(d: DocumentContext, movementId: number, date: unknown): Promise<void> {
  await refuseNegativeStock(d.wc.tx, DELTAS_SQL, movementId, 'movement');
  await applyStockDeltas(d.wc.tx, DELTAS_SQL, 'm_movementline_id', movementId, date, d.wc.auth.userId);
  await costMove(d, movementId, date);
}

/**
 * As the original's Doc_Movement, in one statement however many lines the move has: per line,
 * product asset credited at the organization moved from and debited at the one moved to, the
 * line's quantity at the product's cost, or for a product costed at level O the value of its
 * from side's cost detail (costMove). Product asset is one account per schema here (the default
 * accounts), so only lines between warehouses of two organizations change a balance; a move
 * inside an organization posts nothing. At costing levels C and B a move changes neither the cost
 * nor its quantity and writes no cost detail, as the original.
 */
async function post(d: DocumentContext, periodId: number): Promise<void> {
  const schema = await accountSchema(d);
  const asset = schema.accounts.p_asset_acct;
  if (!asset) throw refuse('the accounting schema has no p_asset_acct');
  const dt = await docTypeOf(d);
  await postFactRows(d, {
    periodId,
    dateAcct: current(d, 'movementdate'),
    glCategoryId: dt?.gl_category_id ?? null,
    ctes: `l AS (
       SELECT ml.m_movementline_id, ml.line, ml.m_product_id, ml.movementqty AS qty, wf.ad_org_id AS org_from, wt.ad_org_id AS org_to,
              COALESCE(-${sideDetailSql('ml.m_movementline_id', 'Y', '$3::bigint')},
                       round(${currentCostSql('ml.m_product_id', 'h.ad_client_id', '$3::bigint', 'h.movementdate', 'wf.ad_org_id', 'ml.m_attributesetinstance_id')} * ml.movementqty, 2)) AS amt
         FROM m_movementline ml
         JOIN m_movement h ON h.m_movement_id = ml.m_movement_id
         JOIN m_product p ON p.m_product_id = ml.m_product_id AND p.producttype = 'I'
         JOIN m_locator lf ON lf.m_locator_id = ml.m_locator_id JOIN m_warehouse wf ON wf.m_warehouse_id = lf.m_warehouse_id
         JOIN m_locator lt ON lt.m_locator_id = ml.m_locatorto_id JOIN m_warehouse wt ON wt.m_warehouse_id = lt.m_warehouse_id
        WHERE ml.m_movement_id = $1 AND ml.isactive = 'Y' AND wf.ad_org_id <> wt.ad_org_id
     )`,
    facts: `SELECT s.org AS ad_org_id, $2::bigint AS account_id, s.dr, s.cr, s.qty, l.m_movementline_id AS line_id, l.m_product_id,
              row_number() OVER (ORDER BY l.line, l.m_movementline_id, s.side) AS ord
         FROM l CROSS JOIN LATERAL (VALUES (1, l.org_from, 0, l.amt, -l.qty), (2, l.org_to, l.amt, 0, l.qty)) AS s(side, org, dr, cr, qty)`,
    params: [docId(d), asset, schema.schemaId],
  });
}

// As the original, a reversal's lines carry no confirmation quantities.
const LINES: ReversalDetail = {
  table: 'm_movementline',
  link: 'm_movement_id',
  negate: ['movementqty', 'qtyentered'],
  zero: ['targetqty', 'confirmedqty', 'scrappedqty'],
  backLink: 'reversalline_id',
};

const reverse = (d: DocumentContext, accrual: boolean): Promise<void> => reverseStockDocument(d, accrual, LINES, (id, date) => moveStock(d, id, date));

/**
 * Inventory moves (M_Movement, MMM): complete takes each line's quantity out of its locator and
 * brings it into the locator to, in the same or another warehouse (M_Transaction M- and M+),
 * refused where a warehouse that disallows negative inventory would go below zero, and posts the
 * value that changes organization; a completed move is voided or reversed by a reversal that
 * moves everything back. A move of an in-transit document type gets a confirmation on prepare and
 * completes only once that is done (see movement-confirm-document.ts).
 */
export const movementDocument: DocumentType = {
  table: 'm_movement',
  refusal: noReactivation,
  details: [{ table: 'm_movementline', link: 'm_movement_id' }],

  async prepare(d) {
    await requireOpenPeriod(d, 'movementdate');
    await requireLines(d, 'm_movementline');
    if ((await docTypeOf(d))?.isintransit === 'Y') {
      await createConfirmation(d);
      d.changes.isintransit = 'Y';
    }
  },

  async complete(d) {
    // The goods are on their way until the confirmation is done: the move stays In Progress, as the original.
    const travels = d.row.isintransit === 'Y' || (await docTypeOf(d))?.isintransit === 'Y';
    const open = travels ? await openConfirmation(d.wc.tx, docId(d)) : null;
    if (open) {
      d.messages.push(`Open: Move Confirm ${open}`);
      return 'IP';
    }
    if (d.row.isintransit === 'Y') d.changes.isintransit = 'N';
    await definiteNumberAndDate(d, 'movementdate');
    const periodId = await requireOpenPeriod(d, 'movementdate');
    await moveStock(d, docId(d), current(d, 'movementdate'));
    await post(d, periodId);
    return 'CO';
  },

  async void(d) {
    if (d.row.docstatus === 'CO') return reverse(d, await accrualOnVoidByMovementDate(d));
    await d.wc.tx.query(
      `UPDATE m_movementline SET description = btrim(COALESCE(description, '') || ' Voided (' || movementqty::text || ')'), movementqty = 0, qtyentered = 0,
              updated = $2::timestamp, updatedby = $3 WHERE m_movement_id = $1`,
      [docId(d), nowTimestamp(), d.wc.auth.userId],
    );
  },

  async close() {},

  reverseCorrect: (d) => reverse(d, false),
  reverseAccrual: (d) => reverse(d, true),
};
