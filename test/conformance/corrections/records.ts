import { readSeedDictionary } from '../../../src/seed/dictionary-files.js';
import type { Correction } from '../apply-corrections.js';

// Corrections shared by every answer the original writes with its record serializer: the
// dictionary's windows, tabs, fields, forms, processes and their parameters, tasks, info windows,
// status lines, menu entries, schedulers and references.

const SERIALIZER = 'json/DefaultPOSerializer.java';
const LOOKUP = 'json/LookupTypeConverter.java';

/** Component schemas that document a dictionary record, with the table it is read from. */
const RECORD_SCHEMAS: [schema: string, table: string][] = [
  ['Window', 'AD_Window'],
  ['WindowTab', 'AD_Tab'],
  ['TabField', 'AD_Field'],
  ['Form', 'AD_Form'],
  ['Process', 'AD_Process'],
  ['ProcessParameter', 'AD_Process_Para'],
  ['Task', 'AD_Task'],
  ['AD_InfoWindow', 'AD_InfoWindow'],
  ['AD_InfoColumn', 'AD_InfoColumn'],
  ['AD_InfoProcess', 'AD_InfoProcess'],
  ['AD_InfoRelated', 'AD_InfoRelated'],
  ['AD_Menu', 'AD_Menu'],
  ['AD_Scheduler', 'AD_Scheduler'],
  ['Reference', 'AD_Reference'],
];

/** The columns of a table that may hold no value (not mandatory), by the seeded dictionary. */
function optionalColumns(tableName: string): string[] {
  const dict = readSeedDictionary();
  const table = dict.tables.find((t) => String(t.tablename).toLowerCase() === tableName.toLowerCase());
  if (!table) throw new Error(`no table ${tableName} in the seeded dictionary`);
  return dict.columns.filter((c) => c.ad_table_id === table.ad_table_id && c.ismandatory !== 'Y').map((c) => String(c.columnname));
}

const nullsLeftOut: Correction[] = RECORD_SCHEMAS.map(([schema, table]) => ({
  kind: 'optional',
  target: { component: schema },
  properties: optionalColumns(table),
  someDocumented: true,
  reason: `a column of ${table} without a value is left out of the record, so every column that is not mandatory may be absent`,
  source: `${SERIALIZER}#L137 (if (value != null))`,
}));

const ENTITY_TYPE_SCHEMAS = ['Window', 'WindowTab', 'TabField', 'Form', 'Process', 'ProcessParameter', 'Task', 'AD_InfoWindow', 'AD_InfoColumn', 'AD_InfoProcess', 'AD_InfoRelated', 'StatusLine', 'AD_Menu'];

const entityTypeIsText: Correction[] = ENTITY_TYPE_SCHEMAS.map((schema) => ({
  kind: 'schema',
  target: { component: schema, path: ['properties', 'EntityType', 'properties', 'id'] },
  schema: { type: 'string' },
  reason: 'EntityType is a table reference keyed by the entity type code (D, U, ...), so its id is that text, not a number',
  source: `${LOOKUP}#L151-L154 (an id that is not a Number is written as a string)`,
}));

export const recordsCorrections: Correction[] = [...nullsLeftOut, ...entityTypeIsText];
