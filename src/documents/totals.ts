import { uuidv7 } from '../db/ids.js';
import { ident } from '../db/sql.js';
import type { ModelEvent, Row } from '../events/model-events.js';
import { toText } from './decimal.js';
import type { DocumentKind } from './document-kinds.js';
import { documentTotals, type TaxDefinition } from './document-math.js';
import { idOf, nowTimestamp } from './row-values.js';

/** The header (locked), its lines grouped by tax and net amount, and the taxes those lines use with their child taxes. */
interface DocumentFacts {
  ad_client_id: number;
  ad_org_id: number;
  istaxincluded: string | null;
  processed: string | null;
  totallines: string | null;
  grandtotal: string | null;
  precision: number;
  /** [c_tax_id, linenetamt as text, number of lines] */
  lines: [number | null, string | null, number][];
  /** [c_tax_id, rate as text, issummary, isdocumentlevel, parent_tax_id] */
  taxes: [number, string | null, string | null, string | null, number | null][];
}

const factsSql = (kind: DocumentKind): string => {
  const key = ident(kind.headerKey);
  return `WITH h AS (
      SELECT h.ad_client_id, h.ad_org_id, h.istaxincluded, h.processed, h.c_currency_id, h.totallines, h.grandtotal FROM ${ident(kind.header)} h WHERE h.${key} = $1 FOR UPDATE
    ), g AS (
      SELECT l.c_tax_id, l.linenetamt, count(*)::int AS n FROM ${ident(kind.line)} l WHERE l.${key} = $1 GROUP BY l.c_tax_id, l.linenetamt
    )
    SELECT h.ad_client_id, h.ad_org_id, h.istaxincluded, h.processed, h.totallines::text, h.grandtotal::text,
      COALESCE((SELECT c.stdprecision FROM c_currency c WHERE c.c_currency_id = h.c_currency_id), 2) AS precision,
      (SELECT COALESCE(json_agg(json_build_array(g.c_tax_id, g.linenetamt::text, g.n)), '[]'::json) FROM g) AS lines,
      (SELECT COALESCE(json_agg(json_build_array(t.c_tax_id, t.rate::text, t.issummary, t.isdocumentlevel, t.parent_tax_id)), '[]'::json)
         FROM c_tax t
        WHERE t.c_tax_id IN (SELECT g.c_tax_id FROM g) OR (t.parent_tax_id IN (SELECT g.c_tax_id FROM g) AND t.isactive = 'Y')) AS taxes
    FROM h`;
};

/** A json column as an array, whether the driver parsed it already or handed over its text. */
const jsonArray = <T>(v: unknown): T[] => (typeof v === 'string' ? (JSON.parse(v) as T[]) : Array.isArray(v) ? (v as T[]) : []);

/**
 * Recomputes the tax rows and the totals of an order or invoice from its lines, in the caller's
 * transaction: the header row is locked first, so that concurrent line writes of one document
 * add up one after the other. Tax rows are kept (same uid) when their tax still occurs, removed
 * when it no longer does, and created for new taxes; the header's TotalLines and GrandTotal are
 * written with one UPDATE, after which the header's after-change event is raised with
 * TotalLines and GrandTotal changed. Two statements: one read, one write.
 */
export async function recomputeDocument(e: ModelEvent, kind: DocumentKind, headerIdValue: unknown): Promise<void> {
  const headerId = idOf(headerIdValue);
  if (headerId === null) return;
  const tx = e.tx;
  const h = ident(kind.header);
  const key = ident(kind.headerKey);
  const { rows } = await tx.query<DocumentFacts>(factsSql(kind), [headerId], { name: `doc_facts_${kind.header}` });
  const header = rows[0];
  if (!header) return;
  const groups = jsonArray<DocumentFacts['lines'][number]>(header.lines);
  const taxes: TaxDefinition[] = jsonArray<DocumentFacts['taxes'][number]>(header.taxes).map(([id, rate, summary, documentLevel, parent]) => ({
    id: Number(id),
    rate: rate ?? 0,
    isSummary: summary === 'Y',
    isDocumentLevel: documentLevel === 'Y',
    parentId: idOf(parent),
  }));
  const included = header.istaxincluded === 'Y';
  const totals = documentTotals(
    groups.map(([taxId, net, n]) => ({ taxId: idOf(taxId), net: net ?? 0, count: Number(n) })),
    taxes,
    included,
    Number(header.precision),
  );
  const t = ident(kind.tax);
  const now = nowTimestamp();
  const ids = totals.taxes.map((r) => r.taxId);
  const { rows: saved } = await tx.query<Row>(
    `WITH input AS (
       SELECT * FROM unnest($2::bigint[], $3::numeric[], $4::numeric[], $5::text[]) AS i(tax_id, base, amt, uu)
     ), removed AS (
       DELETE FROM ${t} x WHERE x.${key} = $1 AND NOT (x.c_tax_id = ANY($2::bigint[]))
     ), kept AS (
       UPDATE ${t} x SET taxbaseamt = i.base, taxamt = i.amt, istaxincluded = $6, updated = $7::timestamp, updatedby = $8
         FROM input i
        WHERE x.${key} = $1 AND x.c_tax_id = i.tax_id
          AND (x.taxbaseamt IS DISTINCT FROM i.base OR x.taxamt IS DISTINCT FROM i.amt OR x.istaxincluded IS DISTINCT FROM $6)
     ), added AS (
       INSERT INTO ${t} (${key}, c_tax_id, ${ident(kind.taxUu)}, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
                         istaxincluded, processed, taxbaseamt, taxamt)
       SELECT $1, i.tax_id, i.uu, $9, $10, 'Y', $7::timestamp, $8, $7::timestamp, $8, $6, $11, i.base, i.amt
         FROM input i WHERE NOT EXISTS (SELECT 1 FROM ${t} x WHERE x.${key} = $1 AND x.c_tax_id = i.tax_id)
     )
     UPDATE ${h} SET totallines = $12::numeric, grandtotal = $13::numeric, updated = $7::timestamp, updatedby = $8
      WHERE ${key} = $1 AND (totallines IS DISTINCT FROM $12::numeric OR grandtotal IS DISTINCT FROM $13::numeric)
      RETURNING *`,
    [
      headerId,
      ids,
      totals.taxes.map((r) => toText(r.base)),
      totals.taxes.map((r) => toText(r.amount)),
      totals.taxes.map(() => uuidv7()),
      included ? 'Y' : 'N',
      now,
      e.auth.userId,
      header.ad_client_id,
      header.ad_org_id,
      header.processed === 'Y' ? 'Y' : 'N',
      toText(totals.totalLines),
      toText(totals.grandTotal),
    ],
    { name: `doc_taxes_${kind.header}` },
  );
  e.memo.forget(kind.header);
  e.memo.forget(kind.tax);
  // The header's subscribers see its new totals as a change of the header (its rules ignore these columns).
  const headerTable = e.dict.byName.get(kind.header);
  if (saved[0] && headerTable && e.raise) {
    const old = { ...saved[0], totallines: header.totallines, grandtotal: header.grandtotal };
    await e.raise('after-change', headerTable, saved[0], old, new Set(['totallines', 'grandtotal', 'updated', 'updatedby']));
  }
}
