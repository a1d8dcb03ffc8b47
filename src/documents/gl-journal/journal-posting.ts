import type { Row } from '../../events/model-events.js';
import { postFacts } from '../accounting/facts.js';
import { idOf } from '../row-values.js';
import type { DocumentContext } from '../engine/document-type.js';

/** Dimensions of a journal line that its fact carries (beyond account, partner, product and quantity). */
const DIMENSIONS = [
  'ad_org_id', 'ad_orgtrx_id', 'c_activity_id', 'c_campaign_id', 'c_project_id', 'c_salesregion_id', 'c_locfrom_id', 'c_locto_id',
  'c_subacct_id', 'c_uom_id', 'm_warehouse_id', 'user1_id', 'user2_id', 'c_costcenter_id', 'c_department_id', 'c_employee_id',
  'c_charge_id', 'c_tax_id', 'a_asset_id', 'm_attributesetinstance_id',
] as const;

/**
 * Posts a journal as the original's Doc_GLJournal: each active line to the account of its
 * combination with its source amounts in the journal's currency and its own accounted amounts,
 * with the line's organisation and dimensions; the facts take the journal's posting type
 * (actual, budget, statistical) and category. `d.row` is the journal posted.
 */
export async function postJournal(d: DocumentContext, periodId: number): Promise<void> {
  const journalId = Number(d.row.gl_journal_id);
  const { rows: lines } = await d.wc.tx.query<Row>(
    `SELECT * FROM gl_journalline WHERE gl_journal_id = $1 AND isactive = 'Y' ORDER BY line, gl_journalline_id`,
    [journalId],
    { name: 'gl_journal_lines' },
  );
  await postFacts(
    d,
    {
      dateAcct: d.row.dateacct,
      dateTrx: d.row.datedoc,
      periodId,
      currencyId: Number(d.row.c_currency_id),
      bpartnerId: null,
      glCategoryId: idOf(d.row.gl_category_id),
      facts: lines.map((l) => ({
        account: Number(l.account_id),
        dr: l.amtsourcedr as string,
        cr: l.amtsourcecr as string,
        accounted: { dr: l.amtacctdr as string, cr: l.amtacctcr as string },
        lineId: Number(l.gl_journalline_id),
        bpartnerId: idOf(l.c_bpartner_id),
        productId: idOf(l.m_product_id),
        ...(l.qty === null || l.qty === undefined ? {} : { qty: l.qty as string }),
        description: (l.description as string | null) ?? (d.row.description as string | null) ?? undefined,
      })),
    },
    journalId,
  );
  // The facts take what the shared posting does not carry: the line's organisation and dimensions, the posting type.
  const sets = DIMENSIONS.map((c) => `${c} = COALESCE(l.${c}, f.${c})`).join(', ');
  await d.wc.tx.query(
    `UPDATE fact_acct f SET ${sets}, postingtype = $3 FROM gl_journalline l
      WHERE f.ad_table_id = $1 AND f.record_id = $2 AND l.gl_journalline_id = f.line_id AND l.gl_journal_id = $2`,
    [d.table.id, journalId, d.row.postingtype ?? 'A'],
  );
}
