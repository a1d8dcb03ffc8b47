// What a new row takes for the columns it leaves empty: the dictionary defaults (planned once per
// table where no default needs a query), then the fallbacks of mandatory columns.
import type { Column, Table } from '../../dictionary/model.js';
import { isStored } from '../../dictionary/ddl.js';
import { DisplayType } from '../../dictionary/display-type.js';
import { hasTextKey } from '../reference-key.js';
import { applyPlannedDefaults, defaultPlan, defaultWithoutQuery, evaluateDefault, NEEDS_QUERY, sessionValue, type DefaultPlan } from './defaults.js';
import { defaultRecordOf } from './default-record.js';
import { fallbackColumns } from './table-columns.js';
import type { WriteContext } from './write-context.js';
import type { Row } from './persist.js';

const WITH_DEFAULTS = new WeakMap<Table, Column[]>();
/** Columns every new row is stamped with after its defaults (see completeNewRow): their defaults would be overwritten. */
const STAMPED = new Set(['created', 'updated', 'createdby', 'updatedby']);

/** The stored columns of a table (key, uuid and stamps aside) that have a dictionary default, listed once per table. */
function columnsWithDefaults(table: Table): Column[] {
  let list = WITH_DEFAULTS.get(table);
  if (!list) {
    list = table.columns.filter((c) => isStored(c) && c !== table.keyColumn && c !== table.uuColumn && c.defaultValue && !STAMPED.has(c.dbName));
    WITH_DEFAULTS.set(table, list);
  }
  return list;
}

const DEFAULT_PLANS = new WeakMap<Table, DefaultPlan>();

/** The planned defaults of a table's new rows, made once per table; null when one needs a query. */
function defaultsOf(wc: WriteContext, table: Table): DefaultPlan {
  let plan = DEFAULT_PLANS.get(table);
  if (plan === undefined) {
    plan = defaultPlan(columnsWithDefaults(table), (col) => hasTextKey(wc.dict, col));
    DEFAULT_PLANS.set(table, plan);
  }
  return plan;
}

/**
 * Fills the columns a new record leaves empty with the dictionary default of each column
 * (several passes, so that a default naming another column sees that column's own default).
 * Defaults that need no query are planned once per table and applied without waiting.
 */
export function applyDefaults(wc: WriteContext, table: Table, row: Row, parent: Row | null): Promise<void> | undefined {
  const plan = defaultsOf(wc, table);
  if (!plan) return applyQueriedDefaults(wc, table, row, parent);
  applyPlannedDefaults(plan, row, parent, wc.auth);
  return undefined;
}

async function applyQueriedDefaults(wc: WriteContext, table: Table, row: Row, parent: Row | null): Promise<void> {
  const empty = (c: Column) => row[c.dbName] === undefined || row[c.dbName] === null;
  let pending = columnsWithDefaults(table).filter(empty);
  for (let pass = 0; pass < 4 && pending.length; pass++) {
    const still: Column[] = [];
    for (const col of pending) {
      const textKey = hasTextKey(wc.dict, col);
      const known = defaultWithoutQuery(col, row, parent, wc.auth, textKey);
      const v = known === NEEDS_QUERY ? await evaluateDefault(wc.tx, col, row, parent, wc.auth, textKey) : known;
      if (v !== null && v !== undefined) row[col.dbName] = v;
      else still.push(col);
    }
    if (still.length === pending.length) break;
    pending = still;
  }
}

/**
 * A mandatory column still empty after the defaults and the before-new handlers (where business
 * rules fill what they know better) takes, in this order: the login context value of the same
 * name (#M_Warehouse_ID, #SalesRep_ID), what the generated models of the original give
 * mandatory columns (false, zero, no attribute set instance), or the referenced table's
 * default record.
 */
export function applyMandatoryFallbacks(wc: WriteContext, table: Table, row: Row): Promise<void> | undefined {
  return fallbacksFrom(wc, fallbackColumns(table), 0, row);
}

/** The fallbacks of `columns` from the one at `from` on; a promise only when a default record must be read. */
function fallbacksFrom(wc: WriteContext, columns: readonly Column[], from: number, row: Row): Promise<void> | undefined {
  for (let i = from; i < columns.length; i++) {
    const col = columns[i]!;
    if (row[col.dbName] !== undefined && row[col.dbName] !== null) continue;
    const global = GLOBAL_CONTEXT_COLUMNS.has(col.dbName) ? sessionValue(wc.auth, col.name) : undefined;
    if (global !== undefined && global !== null && global !== 0) row[col.dbName] = global;
    else if (col.kind === 'boolean') row[col.dbName] = 'N';
    else if (col.kind === 'number' || col.kind === 'integer') row[col.dbName] = 0;
    else if (col.referenceId === DisplayType.PAttribute) row[col.dbName] = 0;
    else if (col.kind === 'foreign-key' && col.lookup) return fallbackRecord(wc, columns, i, row);
  }
  return undefined;
}

/** The column at `at` takes its table's default record (read from the database), then the fallbacks go on. */
async function fallbackRecord(wc: WriteContext, columns: readonly Column[], at: number, row: Row): Promise<void> {
  const col = columns[at]!;
  const id = await defaultRecordOf(wc, col, Number(row.ad_client_id ?? wc.auth.clientId));
  if (id !== null) row[col.dbName] = id;
  await fallbacksFrom(wc, columns, at + 1, row);
}

/** Mandatory columns that take the login context value of the same name when left empty. */
const GLOBAL_CONTEXT_COLUMNS = new Set(['m_warehouse_id', 'salesrep_id']);
