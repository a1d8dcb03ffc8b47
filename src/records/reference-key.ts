import type { Column, Dictionary, Table } from '../dictionary/model.js';

const cache = new WeakMap<Column, { target: Table | null; key: Column | null }>();

/** The table and key column a reference column points at (null when the dictionary lacks them). */
export function referenceTarget(dict: Dictionary, column: Column): { target: Table | null; key: Column | null } {
  let hit = cache.get(column);
  if (!hit) {
    const target = column.lookup ? (dict.byName.get(column.lookup.tableName.toLowerCase()) ?? null) : null;
    const key = target && column.lookup ? (target.byName.get(column.lookup.keyColumn.toLowerCase()) ?? null) : null;
    hit = { target, key };
    cache.set(column, hit);
  }
  return hit;
}

/**
 * Whether a reference column holds text keys rather than numeric ids (EntityType,
 * AD_Language): such references are compared, converted and shown as strings.
 */
export function hasTextKey(dict: Dictionary, column: Column): boolean {
  if (column.kind !== 'foreign-key') return false;
  const { key } = referenceTarget(dict, column);
  return !!key && key.kind !== 'integer' && key.kind !== 'foreign-key' && key.kind !== 'number' && key.kind !== 'record-id';
}
