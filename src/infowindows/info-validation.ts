import type { AuthContext } from '../auth/context.js';
import type { Tx } from '../db/types.js';
import type { Dictionary } from '../dictionary/model.js';
import { columnKind, type ColumnKind } from '../dictionary/display-type.js';
import type { ModelEvent, ModelEvents } from '../events/model-events.js';
import { validationError } from '../records/write/write-errors.js';
import { checkFragment, FragmentError } from '../sql-fragments/fragment-check.js';
import { assertPlannable } from '../sql-fragments/plannable.js';
import { checkSavedNames, savingAuth } from '../sql-fragments/fragment-access.js';
import { infoWindowDef, type InfoColumnDef } from './info-window.js';
import { planInfoQuery } from './info-query.js';
import type { InfoParameter, Scalar } from './info-parameters.js';

type Row = Record<string, unknown>;

/** A value of each kind that a column of that kind accepts, to plan a query that uses every condition. */
function sampleValue(kind: ColumnKind): Scalar {
  switch (kind) {
    case 'boolean':
      return true;
    case 'integer':
    case 'record-id':
    case 'number':
    case 'foreign-key':
      return 0;
    case 'date':
    case 'datetime':
    case 'timestamptz':
      return '2000-01-01';
    default:
      return 'x';
  }
}

const clauseText = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** Lexical checks of a row's SQL clauses (see fragment-check.ts) and of the names they use (fragment-access.ts). */
function checkClauses(e: ModelEvent, clauses: [string, string][]): void {
  for (const [column, label] of clauses) {
    const text = clauseText(e.row[column]);
    if (text === null) continue;
    try {
      checkFragment(text, label);
      checkSavedNames(e, text, label);
    } catch (err) {
      if (err instanceof FragmentError) throw validationError(err.message);
      throw err;
    }
  }
}

/**
 * Plans the window's query as a request would run it, every column shown and given a condition,
 * and has the database explain it (parsed and planned, never run) inside a savepoint: a clause
 * that does not fit the others is refused when saved, not found by the first reader.
 */
async function explainWindow(tx: Tx, dict: Dictionary, auth: AuthContext, window: Row, columns: Row[]): Promise<void> {
  await assertPlannable(tx, `The info window ${String(window.name)}`, () => {
    const def = infoWindowDef(dict, window, columns);
    const shown: InfoColumnDef[] = def.columns.map((c) => ({ ...c, isDisplayed: true }));
    const parameters: InfoParameter[] = shown.map((c) => ({ column: c.columnName, value: sampleValue(columnKind(c.referenceId, c.columnName)) }));
    return planInfoQuery(dict, auth, { ...def, columns: shown }, { parameters, page: 1, pageSize: 1 }).page;
  });
}

async function columnsOf(tx: Tx, windowId: number): Promise<Row[]> {
  const { rows } = await tx.query<Row>(`SELECT * FROM "ad_infocolumn" WHERE "ad_infowindow_id" = $1 AND "isactive" = 'Y' ORDER BY "seqno", "ad_infocolumn_id"`, [windowId]);
  return rows;
}

async function checkWindow(e: ModelEvent): Promise<void> {
  checkClauses(e, [
    ['fromclause', 'FromClause'],
    ['whereclause', 'WhereClause'],
    ['orderbyclause', 'OrderByClause'],
    ['otherclause', 'OtherClause'],
  ]);
  if (clauseText(e.row.otherclause)) throw validationError('OtherClause: GROUP BY and HAVING clauses are not supported by info windows');
  const id = Number(e.row.ad_infowindow_id);
  await explainWindow(e.tx, e.dict, savingAuth(e.auth), e.row, Number.isFinite(id) ? await columnsOf(e.tx, id) : []);
}

async function checkColumn(e: ModelEvent): Promise<void> {
  checkClauses(e, [
    ['selectclause', 'SelectClause'],
    ['queryfunction', 'QueryFunction'],
  ]);
  if (!clauseText(e.row.selectclause)) throw validationError('SelectClause: an info column needs an SQL expression');
  const { rows } = await e.tx.query<Row>('SELECT * FROM "ad_infowindow" WHERE "ad_infowindow_id" = $1', [Number(e.row.ad_infowindow_id)]);
  if (!rows.length) return;
  const others = (await columnsOf(e.tx, Number(rows[0]!.ad_infowindow_id))).filter((c) => Number(c.ad_infocolumn_id) !== Number(e.row.ad_infocolumn_id));
  // The column as it will be saved, even if inactive: it may be switched on later without another check.
  await explainWindow(e.tx, e.dict, savingAuth(e.auth), rows[0]!, [...others, e.row]);
}

/** Info window SQL clauses are checked whenever an info window or one of its columns is saved. */
export function registerInfoWindowRules(events: ModelEvents): void {
  for (const type of ['before-new', 'before-change'] as const) {
    events.on(type, 'AD_InfoWindow', checkWindow);
    events.on(type, 'AD_InfoColumn', checkColumn);
  }
}
