import { ident } from '../../db/sql.js';
import type { Column, Dictionary, Table } from '../../dictionary/model.js';
import { hasTextKey } from '../reference-key.js';
import { AliasSource, identifierSql, lookupKeyExpr } from './select-list.js';

/**
 * SQL that renders a record as the API's JSON text, the same text `serializeRecord` gives for the
 * same row (the spec's value formats): the database formats the values it reads anyway, and the
 * service passes the text on, instead of decoding every value, building an object per record and
 * encoding it again. Plain reads (no $expand, no showlabel) take this path; the rest build
 * objects. Every key and constant is encoded here with JSON.stringify and embedded as a quoted
 * SQL literal, so no dictionary text can change the statement.
 */

/** A constant JSON text as an SQL literal. */
const jsonConstant = (v: string): string => literal(JSON.stringify(v));
const literal = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/** `"Key":` as an SQL literal, preceded by the comma every member but the first drops later. */
const member = (key: string): string => literal(`,${JSON.stringify(key)}:`);

/** SQL giving the JSON text of one column's value, NULL when the value is NULL (the member is then left out). */
function valueJson(dict: Dictionary, c: Column, v: string, aliases: AliasSource): string {
  switch (c.kind) {
    case 'boolean':
      return `CASE WHEN ${v} IS NULL THEN NULL WHEN ${v}::text IN ('Y', 'true') THEN 'true' ELSE 'false' END`;
    case 'integer':
    case 'record-id':
    case 'number':
      // trim_scale: 24.50 is written 24.5, as a JavaScript number would be.
      return `trim_scale(${v}::numeric)::text`;
    case 'date':
      return `to_json(to_char(${v}, 'YYYY-MM-DD'))::text`;
    case 'datetime':
      return `to_json(to_char(${v}, 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))::text`;
    case 'time':
      return `to_json(to_char(${v}, 'HH24:MI:SS"Z"'))::text`;
    case 'timestamptz':
      return `to_json(to_char(${v} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text`;
    case 'binary':
      return `to_json(translate(encode(${v}, 'base64'), E'\\n', ''))::text`;
    case 'json':
      return `(${v})::text`;
    case 'image': {
      const data = `(SELECT encode(img.binarydata, 'base64') FROM ad_image img WHERE img.ad_image_id = ${v})`;
      return `${literal(`{"propertyLabel":${JSON.stringify(c.label)},"id":`)} || (${v})::bigint::text || coalesce(${literal(',"data":')} || to_json(NULLIF(regexp_replace(${data}, '\\s+', '', 'g'), ''))::text, '') || ${literal(',"model-name":"ad_image"}')}`;
    }
    case 'foreign-key': {
      const key = lookupKeyExpr(dict, c, v);
      const id = hasTextKey(dict, c) ? `to_json(btrim((${v})::text))::text` : `(${key})::bigint::text`;
      const target = c.lookup && dict.byName.get(c.lookup.tableName.toLowerCase());
      const identifier = c.lookup && target ? identifierSql(dict, target, c.lookup.keyColumn, key, c.lookup.displayColumn, aliases) : null;
      const modelName = (c.lookup?.tableName ?? c.name.replace(/_ID$/i, '')).toLowerCase();
      const ident = identifier ? ` || coalesce(${literal(',"identifier":')} || to_json((${identifier})::text)::text, '')` : '';
      return `${literal(`{"propertyLabel":${JSON.stringify(c.label)},"id":`)} || ${id}${ident} || ${literal(`,"model-name":${JSON.stringify(modelName)}}`)}`;
    }
    case 'list':
    case 'button': {
      const refId = c.listReferenceId ?? c.referenceValueId;
      const ref = refId !== null ? dict.references.get(refId) : undefined;
      if (!ref || ref.validationType !== 'L') return `to_json((${v})::text)::text`;
      const names = new Map<string, string>();
      for (const [value, item] of ref.listByValue) if (!names.has(value.trim())) names.set(value.trim(), item.name);
      const branches = [...names].map(([value, name]) => `WHEN ${literal(value)} THEN ${jsonConstant(name)}`).join(' ');
      const identifier = branches ? ` || coalesce(${literal(',"identifier":')} || CASE btrim((${v})::text) ${branches} END, '')` : '';
      return `${literal(`{"propertyLabel":${JSON.stringify(c.label)},"id":`)} || to_json((${v})::text)::text${identifier} || ${literal(',"model-name":"ad_ref_list"}')}`;
    }
    default:
      return `to_json((${v})::text)::text`;
  }
}

/**
 * The record's JSON text: id, uid, the columns in order (NULL ones left out) and model-name.
 * The members are joined by `||`, which a NULL member turns NULL: coalesce drops it, and the
 * leading comma of the first member present is cut off.
 */
export function recordJsonSql(dict: Dictionary, table: Table, columns: Column[], alias: string): string {
  const a = ident(alias);
  const aliases = new AliasSource();
  const members: string[] = [];
  if (table.keyColumn) members.push(`${member('id')} || ${a}.${ident(table.keyColumn.dbName)}::bigint::text`);
  if (table.uuColumn) members.push(`${member('uid')} || to_json(NULLIF(${a}.${ident(table.uuColumn.dbName)}::text, ''))::text`);
  for (const c of columns) {
    const v = c.columnSql ? `(${c.columnSql})` : `${a}.${ident(c.dbName)}`;
    members.push(`${member(c.name)} || ${valueJson(dict, c, v, aliases)}`);
  }
  members.push(`${member('model-name')} || ${jsonConstant(table.modelName)}`);
  return `'{' || substr(${members.map((m) => `coalesce(${m}, '')`).join(' || ')}, 2) || '}'`;
}
