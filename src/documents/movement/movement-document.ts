import { mul, round } from '../decimal.js';
import { postFacts, type Fact } from '../accounting/facts.js';
import { current, definiteNumberAndDate, docId, docTypeOf, noReactivation, requireLines, requireOpenPeriod } from '../engine/common.js';
import type { DocumentContext, DocumentType } from '../engine/document-type.js';
import type { ReversalDetail } from '../engine/reversal.js';
import { nowTimestamp } from '../row-values.js';
import { applyStockDeltas } from '../stock/movements.js';
import { refuseNegativeStock } from '../stock/negative-stock.js';
import { purchasePriceCostSql } from '../stock/product-cost.js';
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

async function moveStock(d: DocumentContext, movementId: number, date: unknown): Promise<void> {
  await refuseNegativeStock(d.wc.tx, DELTAS_SQL, movementId, 'movement');
  await applyStockDeltas(d.wc.tx, DELTAS_SQL, 'm_movementline_id', movementId, date, d.wc.auth.userId);
}

interface ValuedLine {
  m_movementline_id: number;
  m_product_id: number;
  movementqty: string;
  org_from: number;
  org_to: number;
  cost: string;
}

/**
 * Lines whose value changes organization: the warehouses of the two locators belong to different
 * organizations. Product asset is one account per schema here (the default accounts), so a move
 * inside an organization changes no balance and posts nothing.
 */
const VALUED_LINES_SQL = `SELECT ml.m_movementline_id, ml.m_product_id, ml.movementqty::text, wf.ad_org_id AS org_from, wt.ad_org_id AS org_to,
    COALESCE(${purchasePriceCostSql('ml.m_product_id', 'h.movementdate', 'h.ad_client_id')}, 0)::text AS cost
  FROM m_movementline ml
  JOIN m_movement h ON h.m_movement_id = ml.m_movement_id
  JOIN m_product p ON p.m_product_id = ml.m_product_id AND p.producttype = 'I'
  JOIN m_locator lf ON lf.m_locator_id = ml.m_locator_id JOIN m_warehouse wf ON wf.m_warehouse_id = lf.m_warehouse_id
  JOIN m_locator lt ON lt.m_locator_id = ml.m_locatorto_id JOIN m_warehouse wt ON wt.m_warehouse_id = lt.m_warehouse_id
 WHERE ml.m_movement_id = $1 AND ml.isactive = 'Y' AND wf.ad_org_id <> wt.ad_org_id
 ORDER BY ml.line, ml.m_movementline_id`;

/** As the original's Doc_Movement: product asset credited at the organization moved from and debited at the one moved to, at the product's cost. */
async function post(d: DocumentContext, periodId: number): Promise<void> {
  const { rows } = await d.wc.tx.query<ValuedLine>(VALUED_LINES_SQL, [docId(d)], { name: 'doc_movement_valued_lines' });
  const facts: Fact[] = [];
  for (const l of rows) {
    const amount = round(mul(l.cost, l.movementqty), 2);
    const common = { lineId: Number(l.m_movementline_id), productId: Number(l.m_product_id) };
    facts.push({ ...common, account: 'p_asset_acct', cr: amount, qty: mul(l.movementqty, -1), orgId: Number(l.org_from) });
    facts.push({ ...common, account: 'p_asset_acct', dr: amount, qty: l.movementqty, orgId: Number(l.org_to) });
  }
  const dt = await docTypeOf(d);
  await postFacts(d, { dateAcct: current(d, 'movementdate'), periodId, bpartnerId: null, glCategoryId: dt?.gl_category_id ?? null, facts });
}

const LINES: ReversalDetail = { table: 'm_movementline', link: 'm_movement_id', negate: ['movementqty', 'qtyentered'], backLink: 'reversalline_id' };

const reverse = (d: DocumentContext, accrual: boolean): Promise<void> => reverseStockDocument(d, accrual, LINES, (id, date) => moveStock(d, id, date));

/**
 * Inventory moves (M_Movement, MMM): complete takes each line's quantity out of its locator and
 * brings it into the locator to, in the same or another warehouse (M_Transaction M- and M+),
 * refused where a warehouse that disallows negative inventory would go below zero, and posts the
 * value that changes organization; a completed move is voided or reversed by a reversal that
 * moves everything back.
 */
export const movementDocument: DocumentType = {
  table: 'm_movement',
  refusal: noReactivation,
  details: [{ table: 'm_movementline', link: 'm_movement_id' }],

  async prepare(d) {
    await requireOpenPeriod(d, 'movementdate');
    await requireLines(d, 'm_movementline');
  },

  async complete(d) {
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
