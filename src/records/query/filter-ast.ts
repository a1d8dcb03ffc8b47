/**
 * The syntax tree of a `$filter` (and of `label=`) expression, as produced by parseFilter.
 * Column names are kept as written; resolving them (case-insensitively, `id`, `uid`) and
 * converting values by column type is the planner's job.
 */

export type Operand =
  /** A bare identifier: a column name as written (also `id`, `uid`). */
  | { kind: 'column'; name: string }
  /** A 'single quoted' string; '' inside it stands for one quote. Dates are strings too. */
  | { kind: 'string'; value: string }
  /** 12, -3, 4.5; `raw` is the source text (exact for large or long-fraction numbers). */
  | { kind: 'number'; value: number; raw: string }
  /** true / false, any case. */
  | { kind: 'boolean'; value: boolean }
  /** null, any case. */
  | { kind: 'null' }
  /** tolower(x) / toupper(x); the name is lower-cased whatever case was written. */
  | { kind: 'call'; name: 'tolower' | 'toupper'; arg: Operand };

export type CompareOp = 'eq' | 'neq' | 'gt' | 'ge' | 'lt' | 'le';

export type MethodName = 'contains' | 'startswith' | 'endswith';

export type FilterNode =
  | { kind: 'and' | 'or'; left: FilterNode; right: FilterNode }
  | { kind: 'not'; expr: FilterNode }
  | { kind: 'compare'; op: CompareOp; left: Operand; right: Operand }
  | { kind: 'in'; left: Operand; values: Operand[] }
  | { kind: 'method'; name: MethodName; target: Operand; value: Operand };

export const COMPARE_OPS: readonly CompareOp[] = ['eq', 'neq', 'gt', 'ge', 'lt', 'le'];
export const METHOD_NAMES: readonly MethodName[] = ['contains', 'startswith', 'endswith'];
export const FUNCTION_NAMES: readonly ('tolower' | 'toupper')[] = ['tolower', 'toupper'];

/**
 * Words that can never be column names in a filter (compared case-insensitively):
 * the logical keywords and the literal words.
 */
export const RESERVED_WORDS: readonly string[] = ['and', 'or', 'not', 'in', 'true', 'false', 'null'];
