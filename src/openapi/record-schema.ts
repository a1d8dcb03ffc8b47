import type { Column, Dictionary, Table } from '../dictionary/model.js';
import { listReferenceOf, visibleColumns } from '../records/serialize.js';
import type { RestView } from '../views/view-model.js';

export type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** The JSON schema of one column's value as the record serializer writes it (pure). */
export function columnSchema(dict: Dictionary, column: Column): Schema {
  const described = (s: Schema): Schema => ({ ...s, title: column.label, ...(column.isUpdateable || column.isAlwaysUpdateable ? {} : { readOnly: true }) });
  switch (column.kind) {
    case 'boolean':
      return described({ type: 'boolean' });
    case 'integer':
    case 'record-id':
      return described({ type: 'integer' });
    case 'number':
      return described({ type: 'number' });
    case 'date':
      return described({ type: 'string', format: 'date' });
    case 'datetime':
    case 'timestamptz':
      return described({ type: 'string', format: 'date-time' });
    case 'time':
      return described({ type: 'string', pattern: '^\\d{2}:\\d{2}:\\d{2}Z$' });
    case 'binary':
      return described({ type: 'string', contentEncoding: 'base64' });
    case 'json':
      return described({});
    case 'image':
      return described(ref('Image'));
    case 'foreign-key':
      return described(ref('Lookup'));
    case 'list':
    case 'button': {
      const list = listReferenceOf(dict, column);
      if (!list || list.validationType !== 'L') return described({ type: 'string' });
      return described({
        allOf: [ref('ListValue')],
        properties: { id: { type: 'string', enum: list.list.filter((v) => v.isActive).map((v) => v.value) } },
      });
    }
    default:
      return described({ type: 'string', ...(column.fieldLength > 0 ? { maxLength: column.fieldLength } : {}) });
  }
}

/** A table's record: id, uid, its visible columns (mandatory ones required on create), model-name (pure). */
export function tableSchema(dict: Dictionary, table: Table): Schema {
  const properties: Record<string, Schema> = {};
  if (table.keyColumn) properties.id = { type: 'integer', readOnly: true, description: 'record id' };
  if (table.uuColumn) properties.uid = { type: 'string', format: 'uuid', readOnly: true, description: 'record UUID' };
  const required: string[] = [];
  for (const c of visibleColumns(table)) {
    if (c === table.keyColumn || c === table.uuColumn) continue;
    properties[c.name] = columnSchema(dict, c);
    if (c.isMandatory && !c.defaultValue && !c.columnSql && c.name !== 'AD_Client_ID' && c.name !== 'AD_Org_ID' && !['Created', 'Updated', 'CreatedBy', 'UpdatedBy', 'IsActive'].includes(c.name)) required.push(c.name);
  }
  properties['model-name'] = { type: 'string', const: table.modelName, readOnly: true };
  return { type: 'object', title: table.label, ...(table.description ? { description: table.description } : {}), properties, ...(required.length ? { 'x-required-on-create': required } : {}) };
}

/** A REST view's record: its properties (dotted names as nested objects), model-name and view-name (pure). */
export function viewSchema(dict: Dictionary, view: RestView, viewName: (id: number) => string | undefined = () => undefined): Schema {
  const root: Schema = { type: 'object', title: view.name, properties: {} as Record<string, Schema> };
  const props = root.properties as Record<string, Schema>;
  if (view.table.keyColumn) props.id = { type: 'integer', readOnly: true };
  if (view.table.uuColumn) props.uid = { type: 'string', format: 'uuid', readOnly: true };
  for (const c of view.columns) {
    const parts = c.name.split('.');
    let at = props;
    for (const p of parts.slice(0, -1)) {
      const next = (at[p] ??= { type: 'object', properties: {} }) as Schema;
      at = next.properties as Record<string, Schema>;
    }
    const refName = c.referenceViewId ? viewName(c.referenceViewId) : undefined;
    at[parts[parts.length - 1]!] = refName ? { anyOf: [columnSchema(dict, c.column), ref(`view.${refName}`)] } : columnSchema(dict, c.column);
  }
  props['model-name'] = { type: 'string', const: view.table.modelName, readOnly: true };
  props['view-name'] = { type: 'string', const: view.name, readOnly: true };
  return root;
}
