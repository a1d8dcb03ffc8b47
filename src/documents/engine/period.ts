import type { Queryable } from '../../db/types.js';
import { DOC_TYPE_COLUMNS, type DocTypeRow } from '../document-types.js';

/** What the period check found for one accounting date and document base type. */
export type PeriodCheck = { open: true; periodId: number } | { open: false; reason: string };

export interface PeriodRow {
  id: number;
  name: string;
  auto: string;
  in_window: boolean;
  history: number;
  future: number;
  status: string | null;
}

/**
 * The client's standard period of the date, the automatic period control of its accounting
 * schema (AutoPeriodControl with its open window in days) and the period's control for the
 * document base type, in one statement.
 */
const periodSql = (baseType: string) => `SELECT p.c_period_id AS id, p.name, COALESCE(s.autoperiodcontrol, 'N') AS auto,
    COALESCE(s.period_openhistory, 0)::int AS history, COALESCE(s.period_openfuture, 0)::int AS future,
    ($2::date BETWEEN current_date - COALESCE(s.period_openhistory, 0)::int AND current_date + COALESCE(s.period_openfuture, 0)::int) AS in_window,
    (SELECT pc.periodstatus FROM c_periodcontrol pc WHERE pc.c_period_id = p.c_period_id AND pc.docbasetype = ${baseType} AND pc.isactive = 'Y'
      ORDER BY pc.c_periodcontrol_id LIMIT 1) AS status
  FROM c_period p
  LEFT JOIN c_acctschema s ON s.c_acctschema_id = COALESCE(
      (SELECT ci.c_acctschema1_id FROM ad_clientinfo ci WHERE ci.ad_client_id = $1),
      (SELECT min(a.c_acctschema_id) FROM c_acctschema a WHERE a.ad_client_id = $1))
 WHERE p.ad_client_id = $1 AND p.isactive = 'Y' AND COALESCE(p.periodtype, 'S') = 'S'
   AND p.startdate <= $2::timestamp AND p.enddate >= date_trunc('day', $2::timestamp)
 ORDER BY p.startdate DESC LIMIT 1`;
const PERIOD_SQL = periodSql('$3');

/**
 * A document type ($3) with the period check of its base type (as PERIOD_SQL) in one statement:
 * the type's columns (DOC_TYPE_COLUMNS) and the period's prefixed with period_ (null without one).
 */
const DOC_TYPE_PERIOD_SQL = `SELECT ${DOC_TYPE_COLUMNS.map((c) => `dt.${c}`).join(', ')},
    per.id AS period_id, per.name AS period_name, per.auto AS period_auto, per.history AS period_history, per.future AS period_future,
    per.in_window AS period_in_window, per.status AS period_status
  FROM c_doctype dt LEFT JOIN LATERAL (${periodSql('dt.docbasetype')}) per ON true
 WHERE dt.c_doctype_id = $3`;

const STATUS_TEXT: Record<string, string> = { C: 'closed', N: 'never opened', P: 'permanently closed' };

/** The verdict on a period row (pure): automatic control looks at the window only, standard control at the period control. */
export function judgePeriod(row: PeriodRow | undefined, day: string, docBaseType: string | null): PeriodCheck {
  if (!row) return { open: false, reason: `no open accounting period for ${day}: no period holds it` };
  if (row.auto === 'Y') {
    if (row.in_window) return { open: true, periodId: Number(row.id) };
    return { open: false, reason: `period ${row.name} is closed: automatic period control keeps ${row.history} days back and ${row.future} days ahead open` };
  }
  if (!docBaseType) return { open: false, reason: `period ${row.name} has no control for a document without a document base type` };
  if (row.status === null) return { open: false, reason: `period ${row.name} has no period control for ${docBaseType}` };
  if (row.status !== 'O') return { open: false, reason: `period ${row.name} is ${STATUS_TEXT[row.status] ?? row.status} for ${docBaseType}` };
  return { open: true, periodId: Number(row.id) };
}

const dayOf = (date: unknown): string => (date instanceof Date ? date.toISOString().slice(0, 10) : String(date).slice(0, 10));

/** Whether the client's period of `date` is open for documents of `docBaseType` (the original's MPeriod.isOpen). */
export async function checkPeriod(q: Queryable, clientId: unknown, date: unknown, docBaseType: string | null): Promise<PeriodCheck> {
  const { rows } = await q.query<PeriodRow>(PERIOD_SQL, [clientId, date, docBaseType], { name: 'doc_engine_period' });
  return judgePeriod(rows[0], dayOf(date), docBaseType);
}

/**
 * A document type and, in the same statement, whether the client's period of `date` is open for
 * its base type (as checkPeriod): null when there is no such type.
 */
export async function docTypeAndPeriod(q: Queryable, clientId: unknown, date: unknown, docTypeId: number): Promise<{ docType: DocTypeRow; period: PeriodCheck } | null> {
  const { rows } = await q.query<Record<string, any>>(DOC_TYPE_PERIOD_SQL, [clientId, date, docTypeId], { name: 'doc_engine_doctype_period' });
  const r = rows[0];
  if (!r) return null;
  const docType = Object.fromEntries(DOC_TYPE_COLUMNS.map((c) => [c, r[c]])) as unknown as DocTypeRow;
  const period: PeriodRow | undefined =
    r.period_id === null
      ? undefined
      : { id: r.period_id, name: r.period_name, auto: r.period_auto, history: r.period_history, future: r.period_future, in_window: r.period_in_window, status: r.period_status };
  return { docType, period: judgePeriod(period, dayOf(date), docType.docbasetype ?? null) };
}

/**
 * Period controls of new periods: one per document base type of the client's document types,
 * with the status given (the original's period after-save opens none: Never opened).
 */
export async function addPeriodControls(q: Queryable, periodIds: number[] | null, status: string, userId: number, now: string): Promise<void> {
  await q.query(
    `INSERT INTO c_periodcontrol (c_periodcontrol_id, c_periodcontrol_uu, ad_client_id, ad_org_id, isactive, created, createdby, updated, updatedby,
       c_period_id, docbasetype, periodstatus, periodaction, processing)
     SELECT nextval('c_periodcontrol_sq'), md5('C_PeriodControl:' || p.c_period_id || ':' || t.docbasetype)::uuid::text, p.ad_client_id, 0, 'Y',
       $3::timestamp, $4, $3::timestamp, $4, p.c_period_id, t.docbasetype, $2, 'N', 'N'
       FROM c_period p JOIN (SELECT DISTINCT ad_client_id, docbasetype FROM c_doctype WHERE docbasetype IS NOT NULL) t ON t.ad_client_id = p.ad_client_id
      WHERE ($1::bigint[] IS NULL OR p.c_period_id = ANY($1::bigint[]))
        AND NOT EXISTS (SELECT 1 FROM c_periodcontrol c WHERE c.c_period_id = p.c_period_id AND c.docbasetype = t.docbasetype)
      ORDER BY p.c_period_id, t.docbasetype`,
    [periodIds, status, now, userId],
  );
}
