/**
 * Transition conditions (AD_WF_NextCondition), evaluated on the document's row with the
 * original's rules: conditions in SeqNo order, each joined to the result so far by its AndOr (the
 * first one's is not used, and there is no precedence); numbers compare as numbers, Yes-No
 * columns as booleans, anything else as text. No database.
 */

/** One condition of a transition. */
export interface WfCondition {
  seqNo: number;
  /** 'O' joins with OR; anything else with AND. */
  andOr: string;
  /** The document column, by physical name; null when the condition names no column. */
  column: string | null;
  /** How the column's values compare: Yes-No as booleans, dates as the original's timestamp text. */
  kind: 'yesNo' | 'date' | 'other';
  /** Operation (reference 205). */
  operation: string;
  value: string | null;
  value2: string | null;
  /** The System's conditions apply to every client's documents, a client's to its own only. */
  clientId: number;
}

/** The operations of reference 205. */
export const OPERATION = { eq: '==', notEq: '!=', gt: '>>', gtEq: '>=', lt: '<<', ltEq: '<=', like: '~~', between: 'AB', sql: 'SQ' } as const;

/** A condition the original refuses to evaluate too (SQL, an unknown operation, a missing column). */
export class ConditionError extends Error {}

type Row = Readonly<Record<string, unknown>>;

/** The conditions that apply to a document of a client. */
export const conditionsFor = (conditions: readonly WfCondition[], clientId: number): WfCondition[] =>
  conditions.filter((c) => c.clientId === 0 || c.clientId === clientId);

/**
 * Whether the conditions hold on the row: true when there are none. Evaluated left to right,
 * and an OR whose left side holds (an AND whose left side fails) does not evaluate its right.
 */
export function conditionsHold(conditions: readonly WfCondition[], row: Row): boolean {
  if (!conditions.length) return true;
  let ok = conditionHolds(conditions[0]!, row);
  for (const c of conditions.slice(1)) ok = c.andOr === 'O' ? ok || conditionHolds(c, row) : ok && conditionHolds(c, row);
  return ok;
}

const textOf = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v));

/**
 * A condition's value as the original decodes it: `@COL=Name` is the row's column Name (the text
 * itself when the column is empty), `@Name@` tokens are replaced by the row's columns (empty when
 * unknown), anything else is taken as it is.
 */
export function decodedValue(value: string | null, row: Row): string {
  if (value === null) return '';
  if (value.startsWith('@COL=')) {
    const v = row[value.slice(5).trim().toLowerCase()];
    return v === null || v === undefined ? value : textOf(v);
  }
  if (value.length > 1 && value.startsWith('@') && value.endsWith('@')) {
    return value.replace(/@([^@]*)@/g, (_, name: string) => {
      const v = row[name.trim().toLowerCase()];
      return v === null || v === undefined ? '' : textOf(v);
    });
  }
  return value;
}

/** A date as the original's timestamp text: `2024-03-01 00:00:00.0`. */
function timestampText(v: string): string {
  const t = /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v} 00:00:00` : v.replace('T', ' ').replace(/Z$/, '');
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(t) ? `${t}.0` : t;
}

/** Text the original's BigDecimal accepts as a number. */
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function conditionHolds(c: WfCondition, row: Row): boolean {
  if (!c.column) throw new ConditionError(`Transition condition ${c.seqNo} names no column`);
  if (c.operation === OPERATION.sql) throw new ConditionError(`Transition condition ${c.seqNo}: the SQL operation is not supported (as in the original)`);
  const raw = row[c.column];
  const value1 = decodedValue(c.value, row);
  const value2 = decodedValue(c.value2, row);
  if (raw === null || raw === undefined) return compareText(c, '', value1, value2);
  if (c.kind === 'yesNo') return compareBoolean(c, raw === true || raw === 'Y', value1);
  if (typeof raw === 'number' || typeof raw === 'bigint') return compareNumber(c, Number(raw), value1, value2);
  return compareText(c, c.kind === 'date' ? timestampText(textOf(raw)) : textOf(raw), value1, value2);
}

function compared(c: WfCondition, order: (than: string) => number, value1: string, value2: () => number | null): boolean {
  switch (c.operation) {
    case OPERATION.eq:
    case OPERATION.like: // the original compares "like" as equality
      return order(value1) === 0;
    case OPERATION.notEq:
      return order(value1) !== 0;
    case OPERATION.gt:
      return order(value1) > 0;
    case OPERATION.gtEq:
      return order(value1) >= 0;
    case OPERATION.lt:
      return order(value1) < 0;
    case OPERATION.ltEq:
      return order(value1) <= 0;
    case OPERATION.between: {
      if (order(value1) < 0) return false;
      const upper = value2();
      return upper !== null && upper <= 0;
    }
    default:
      throw new ConditionError(`Transition condition ${c.seqNo}: unknown operation ${c.operation}`);
  }
}

function compareNumber(c: WfCondition, n: number, value1: string, value2: string): boolean {
  // A value that is not a number makes the comparison one of texts, as in the original.
  if (!NUMBER.test(value1)) return compareText(c, String(n), value1, value2);
  const order = (than: string) => Math.sign(n - Number(than));
  return compared(c, order, value1, () => (NUMBER.test(value2) ? order(value2) : null));
}

function compareText(c: WfCondition, s: string, value1: string, value2: string): boolean {
  const order = (than: string) => (s < than ? -1 : s > than ? 1 : 0);
  return compared(c, order, value1, () => order(value2));
}

function compareBoolean(c: WfCondition, b: boolean, value1: string): boolean {
  const expected = value1.toLowerCase() === 'true' || value1.toUpperCase() === 'Y';
  if (c.operation === OPERATION.eq) return b === expected;
  if (c.operation === OPERATION.notEq) return b !== expected;
  throw new ConditionError(`Transition condition ${c.seqNo}: a Yes-No column compares with = and != only`);
}
