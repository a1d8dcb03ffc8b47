import type { Tx } from '../../db/types.js';
import type { OperationMemo } from '../../events/operation-memo.js';
import { appliesToLines, type DiscountBreak, type DiscountSchema } from './discount-schema.js';

/** The discount a partner gets: its schema for the side (when pricing applies it) and its flat discount. */
export interface PartnerDiscount {
  schema: DiscountSchema | null;
  flatDiscount: string;
}

/**
 * The partner's schema for sales (M_DiscountSchema_ID) or purchases (PO_DiscountSchema_ID), else
 * its group's, with its active breaks by SeqNo; and the partner's FlatDiscount.
 */
const PARTNER_DISCOUNT_SQL = `SELECT bp.socreditstatus, COALESCE(bp.so_creditlimit, 0)::text AS so_creditlimit, COALESCE(bp.flatdiscount, 0)::text AS bpflat, ds.m_discountschema_id AS id, ds.discounttype, ds.cumulativelevel,
    ds.isquantitybased, ds.isbpartnerflatdiscount, COALESCE(ds.flatdiscount, 0)::text AS flatdiscount,
    (SELECT json_agg(json_build_object('breakValue', b.breakvalue::text, 'breakDiscount', COALESCE(b.breakdiscount, 0)::text, 'fixedPrice', b.fixedprice::text,
              'productId', b.m_product_id, 'categoryId', b.m_product_category_id, 'bpartnerFlat', b.isbpartnerflatdiscount = 'Y')
              ORDER BY b.seqno, b.m_discountschemabreak_id)
       FROM m_discountschemabreak b WHERE b.m_discountschema_id = ds.m_discountschema_id AND b.isactive = 'Y') AS breaks
  FROM c_bpartner bp
  LEFT JOIN c_bp_group g ON g.c_bp_group_id = bp.c_bp_group_id
  LEFT JOIN m_discountschema ds ON ds.isactive = 'Y' AND ds.m_discountschema_id =
       CASE WHEN $2 THEN COALESCE(bp.m_discountschema_id, g.m_discountschema_id) ELSE COALESCE(bp.po_discountschema_id, g.po_discountschema_id) END
 WHERE bp.c_bpartner_id = $1`;

interface SchemaRow {
  socreditstatus: string | null;
  so_creditlimit: string;
  bpflat: string;
  id: number | null;
  discounttype: string | null;
  cumulativelevel: string | null;
  isquantitybased: string | null;
  isbpartnerflatdiscount: string | null;
  flatdiscount: string;
  breaks: unknown;
}

/** A partner's credit status and limit, read with its discount, for the credit check of the same write operation. */
export interface CreditState {
  status: string | null;
  limit: string;
}

export const creditStateKey = (partnerId: number): string => `credit-state:${partnerId}`;

async function loadPartnerDiscount(tx: Tx, memo: OperationMemo, partnerId: number, isSOTrx: boolean): Promise<PartnerDiscount> {
  const { rows } = await tx.query<SchemaRow>(PARTNER_DISCOUNT_SQL, [partnerId, isSOTrx], { name: 'doc_partner_discount' });
  const r = rows[0];
  if (!r) return { schema: null, flatDiscount: '0' };
  memo.set<CreditState>('c_bpartner', creditStateKey(partnerId), { status: r.socreditstatus, limit: r.so_creditlimit });
  if (r.id === null || r.id === undefined) return { schema: null, flatDiscount: r.bpflat };
  const raw = typeof r.breaks === 'string' ? JSON.parse(r.breaks) : r.breaks;
  const breaks = ((raw ?? []) as DiscountBreak[]).map((b) => ({
    ...b,
    productId: b.productId === null ? null : Number(b.productId),
    categoryId: b.categoryId === null ? null : Number(b.categoryId),
  }));
  const schema: DiscountSchema = {
    id: Number(r.id),
    discountType: String(r.discounttype ?? 'P'),
    cumulativeLevel: r.cumulativelevel,
    quantityBased: r.isquantitybased !== 'N',
    bpartnerFlat: r.isbpartnerflatdiscount === 'Y',
    flatDiscount: r.flatdiscount,
    breaks,
  };
  return { schema: appliesToLines(schema) ? schema : null, flatDiscount: r.bpflat };
}

/** The partner's discount for one side, read once per write operation. */
export function partnerDiscount(tx: Tx, memo: OperationMemo, partnerId: number, isSOTrx: boolean): Promise<PartnerDiscount> {
  return memo.get('c_bpartner', `discount:${partnerId}:${isSOTrx}`, () => loadPartnerDiscount(tx, memo, partnerId, isSOTrx));
}
