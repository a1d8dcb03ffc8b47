import { badRequest } from '../../errors.js';
import type { Queryable } from '../../db/types.js';

/** A report line (PA_ReportLine): a segment value line summing its sources, or a calculation of other lines. */
export interface ReportLineDef {
  id: number;
  name: string;
  seqNo: number;
  lineType: string;
  calculationType: string | null;
  oper1: number | null;
  oper2: number | null;
  amountType: string | null;
  periodType: string | null;
  isPrinted: boolean;
  showOppositeSign: boolean;
  /** The leaf accounts its sources cover (a summary account stands for the accounts under it). */
  accountIds: number[];
}

/** A report column (PA_ReportColumn): a relative period's amounts, or a calculation of other columns. */
export interface ReportColumnDef {
  id: number;
  name: string;
  seqNo: number;
  columnType: string;
  relativePeriod: number;
  amountType: string | null;
  periodType: string | null;
  postingType: string;
  calculationType: string | null;
  oper1: number | null;
  oper2: number | null;
  isPrinted: boolean;
}

/** A financial report (PA_Report) with its line set, column set and the accounts its lines read. */
export interface ReportDef {
  id: number;
  name: string;
  acctSchemaId: number;
  calendarId: number;
  listSources: boolean;
  lines: ReportLineDef[];
  columns: ReportColumnDef[];
  /** Leaf accounts by id: their search key, name, type and sign. */
  accounts: Map<number, { value: string; name: string; accountType: string; accountSign: string }>;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const str = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));

/**
 * Loads a financial report of the caller's client with its active lines (by SeqNo), their
 * account sources and its active columns. A source names an account of C_ElementValue; a summary
 * account covers every posting account of its element whose search key starts with its own (the
 * account tree driven by value).
 */
export async function loadReportDef(q: Queryable, reportId: number, clientId: number): Promise<ReportDef> {
  const { rows: reports } = await q.query<Record<string, unknown>>(
    `SELECT pa_report_id, name, c_acctschema_id, c_calendar_id, listsources, pa_reportlineset_id, pa_reportcolumnset_id
       FROM pa_report WHERE pa_report_id = $1 AND ad_client_id IN (0, $2) AND isactive = 'Y'`,
    [reportId, clientId],
  );
  const r = reports[0];
  if (!r) throw badRequest('Invalid parameter', `No financial report ${reportId}`);
  const { rows: lineRows } = await q.query<Record<string, unknown>>(
    `SELECT l.pa_reportline_id, l.name, l.seqno, l.linetype, l.calculationtype, l.oper_1_id, l.oper_2_id, l.paamounttype, l.paperiodtype, l.isprinted, l.isshowoppositesign,
            COALESCE((SELECT array_agg(DISTINCT ev.c_elementvalue_id ORDER BY ev.c_elementvalue_id)
                        FROM pa_reportsource s JOIN c_elementvalue sv ON sv.c_elementvalue_id = s.c_elementvalue_id AND sv.ad_client_id IN (0, $2)
                        JOIN c_elementvalue ev ON ev.c_element_id = sv.c_element_id AND ev.issummary = 'N' AND ev.ad_client_id IN (0, $2)
                             AND (ev.c_elementvalue_id = sv.c_elementvalue_id OR (sv.issummary = 'Y' AND ev.value LIKE sv.value || '%'))
                       WHERE s.pa_reportline_id = l.pa_reportline_id AND s.isactive = 'Y' AND COALESCE(s.elementtype, 'AC') = 'AC'), '{}') AS accounts
       FROM pa_reportline l WHERE l.pa_reportlineset_id = $1 AND l.isactive = 'Y' ORDER BY l.seqno, l.pa_reportline_id`,
    [r.pa_reportlineset_id, clientId],
  );
  const { rows: columnRows } = await q.query<Record<string, unknown>>(
    `SELECT pa_reportcolumn_id, name, seqno, columntype, relativeperiod, paamounttype, paperiodtype, postingtype, calculationtype, oper_1_id, oper_2_id, isprinted
       FROM pa_reportcolumn WHERE pa_reportcolumnset_id = $1 AND isactive = 'Y' ORDER BY seqno, pa_reportcolumn_id`,
    [r.pa_reportcolumnset_id],
  );
  if (!lineRows.length || !columnRows.length) throw badRequest('Invalid parameter', `The financial report ${String(r.name)} has no lines or no columns`);
  const lines: ReportLineDef[] = lineRows.map((l) => ({
    id: Number(l.pa_reportline_id),
    name: String(l.name),
    seqNo: Number(l.seqno),
    lineType: String(l.linetype),
    calculationType: str(l.calculationtype),
    oper1: num(l.oper_1_id),
    oper2: num(l.oper_2_id),
    amountType: str(l.paamounttype),
    periodType: str(l.paperiodtype),
    isPrinted: l.isprinted !== 'N',
    showOppositeSign: l.isshowoppositesign === 'Y',
    accountIds: (l.accounts as unknown[]).map(Number),
  }));
  const columns: ReportColumnDef[] = columnRows.map((c) => ({
    id: Number(c.pa_reportcolumn_id),
    name: String(c.name),
    seqNo: Number(c.seqno),
    columnType: String(c.columntype ?? 'R'),
    relativePeriod: Number(c.relativeperiod ?? 0),
    amountType: str(c.paamounttype),
    periodType: str(c.paperiodtype),
    postingType: str(c.postingtype) ?? 'A',
    calculationType: str(c.calculationtype),
    oper1: num(c.oper_1_id),
    oper2: num(c.oper_2_id),
    isPrinted: c.isprinted !== 'N',
  }));
  const ids = [...new Set(lines.flatMap((l) => l.accountIds))];
  const { rows: accountRows } = await q.query<Record<string, unknown>>(
    `SELECT c_elementvalue_id AS id, value, name, accounttype, accountsign FROM c_elementvalue WHERE c_elementvalue_id = ANY($1::bigint[])`,
    [ids],
  );
  const accounts = new Map(accountRows.map((a) => [Number(a.id), { value: String(a.value), name: String(a.name), accountType: String(a.accounttype ?? 'E'), accountSign: String(a.accountsign ?? 'N') }]));
  return {
    id: Number(r.pa_report_id),
    name: String(r.name),
    acctSchemaId: Number(r.c_acctschema_id),
    calendarId: Number(r.c_calendar_id),
    listSources: r.listsources === 'Y',
    lines,
    columns,
    accounts,
  };
}
