// Generates the dictionary seed (seed/dictionary/*.json) from the reference data model
// (tables.tsv, columns.tsv, lists.tsv) and the hand-written additions in supplement.json.
// Run: node scripts/dictionary/generate.mjs [path to the datamodel folder]
// The output is committed; rerun only when the inputs change. Ids are assigned in a stable
// order, so the same inputs always give the same files.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const modelDir = path.resolve(process.argv[2] ?? path.join(root, '..', 'shared', 'reference', 'datamodel'));
const outDir = path.join(root, 'seed', 'dictionary');
const supplement = JSON.parse(fs.readFileSync(path.join(here, 'supplement.json'), 'utf8'));

// The ids the committed dictionary already gives (its columns, elements, list values and the
// references Dictum numbers itself) are kept: a database built from an earlier seed holds them, and
// the data files name them. Only what is new takes new ids, after the highest one in use, so a
// larger data model adds to the dictionary without moving anything.
function readPrevious(name) {
  try {
    return JSON.parse(fs.readFileSync(path.join(outDir, name), 'utf8'));
  } catch {
    return [];
  }
}
const STANDARD_NAMES = new Set(['ad_client_id', 'ad_org_id', 'isactive', 'created', 'createdby', 'updated', 'updatedby']);
const previousColumnIds = new Map();
for (const t of readPrevious('tables.json')) for (const c of t.columns) previousColumnIds.set(`${t.TableName}.${c.ColumnName}`.toLowerCase(), c.AD_Column_ID);
const previousElementIds = new Map(readPrevious('elements.json').map((e) => [e.ColumnName.toLowerCase(), e.AD_Element_ID]));
const previousListIds = new Map();
const previousSyntheticRefIds = new Map();
for (const r of readPrevious('references.json')) {
  for (const v of r.list ?? []) previousListIds.set(`${r.AD_Reference_ID}:${v.Value}`, v.AD_Ref_List_ID);
  if (r.AD_Reference_ID >= 200500) previousSyntheticRefIds.set(r.Name, r.AD_Reference_ID);
}
const after = (ids, floor) => Math.max(floor - 1, ...ids) + 1;
/** Takes `wanted` when it is free, else the next id after every id in use and taken so far. */
function idTaker(previous, floor) {
  const used = new Set(previous.values());
  let next = after(used, floor);
  return (key) => {
    const kept = previous.get(key);
    if (kept !== undefined) return kept;
    while (used.has(next)) next++;
    used.add(next);
    return next++;
  };
}
/** The committed dictionary's columns, by table.column (lower case). */
const previousColumns = new Map();
for (const t of readPrevious('tables.json')) for (const c of t.columns) previousColumns.set(`${t.TableName}.${c.ColumnName}`.toLowerCase(), c);
const columnId = idTaker(previousColumnIds, 100);
const elementId = idTaker(previousElementIds, 100);
const listValueId = idTaker(previousListIds, 100);
const syntheticRefId = idTaker(previousSyntheticRefIds, 200500);

const readTsv = (file) =>
  fs
    .readFileSync(path.join(modelDir, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    .map((l) => l.split('\t'));

// ---------------------------------------------------------------- data types (ValidationType D)
const DATA_TYPES = [
  [10, 'String'], [11, 'Integer'], [12, 'Amount'], [13, 'ID'], [14, 'Text'], [15, 'Date'], [16, 'Date+Time'],
  [17, 'List'], [18, 'Table'], [19, 'Table Direct'], [20, 'Yes-No'], [21, 'Location (Address)'], [22, 'Number'],
  [23, 'Binary'], [24, 'Time'], [25, 'Account'], [26, 'RowID'], [27, 'Color'], [28, 'Button'], [29, 'Quantity'],
  [30, 'Search'], [31, 'Locator (WH)'], [32, 'Image'], [33, 'Assignment'], [34, 'Memo'], [35, 'Product Attribute'],
  [36, 'Text Long'], [37, 'Costs+Prices'], [38, 'FilePath'], [39, 'FileName'], [40, 'URL'], [42, 'Printer Name'],
  [53370, 'Chart'], [200012, 'Payment'], [200133, 'Timestamp With Timezone'], [200135, 'Time Zone Id'],
  [200152, 'Radiogroup List'], [200161, 'Chosen Multiple Selection List'], [200162, 'Chosen Multiple Selection Table'],
  [200163, 'Chosen Multiple Selection Search'], [200173, 'Scheduler State'], [200202, 'Record ID'], [200231, 'UUID'],
  [200233, 'Table UU'], [200234, 'Table Direct UU'], [200235, 'Search UU'], [200240, 'Record UU'], [200267, 'JSON'],
  [200271, 'Image URL'],
];
const LOOKUP_TYPES = new Set([18, 19, 30, 200233, 200234, 200235]);

// ---------------------------------------------------------------- lists
const references = new Map(); // id -> reference object
for (const [id, name] of DATA_TYPES) references.set(id, { AD_Reference_ID: id, Name: name, ValidationType: 'D' });

const listKeyToId = new Map();

function addList(id, name, values) {
  if (references.has(id) && references.get(id).ValidationType !== 'L') throw new Error(`reference ${id} is not a list`);
  references.set(id, {
    AD_Reference_ID: id,
    Name: name,
    ValidationType: 'L',
    list: values.map(([value, valueName]) => ({ AD_Ref_List_ID: listValueId(`${id}:${value}`), Value: value, Name: valueName })),
  });
}

/**
 * One "value=name" entry of lists.tsv. Values may be quoted ('S  ' keeps its spaces) or hold "="
 * themselves (operators such as "!=" whose name repeats the value: "!==!=").
 */
function splitListEntry(entry) {
  const quoted = /^'([^']*)'=(.*)$/.exec(entry);
  if (quoted) return [quoted[1], quoted[2]];
  for (let i = entry.indexOf('='); i >= 0; i = entry.indexOf('=', i + 1)) {
    if (i > 0 && entry.slice(0, i) === entry.slice(i + 1)) return [entry.slice(0, i), entry.slice(i + 1)];
  }
  const eq = entry.indexOf('=', 1);
  return [entry.slice(0, eq), entry.slice(eq + 1)];
}

for (const [id, usedBy, values] of readTsv('lists.tsv')) {
  const refId = Number(id);
  const pairs = values
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(splitListEntry);
  const name = supplement.listNames[id] ?? `${usedBy.split(',')[0]} values`;
  addList(refId, name, pairs);
}
for (const l of supplement.lists) {
  const id = l.id ?? syntheticRefId(l.Name);
  if (l.key) listKeyToId.set(l.key, id);
  if (references.has(id)) references.delete(id); // the supplement's list replaces an incomplete one
  addList(id, l.Name, l.values);
}

// ---------------------------------------------------------------- tables and their columns
const tableInfo = new Map(); // lower name -> {TableName, AD_Table_ID, AccessLevel, identifier}
for (const [name, id, access, identifier] of readTsv('tables.tsv')) {
  tableInfo.set(name.toLowerCase(), { TableName: name, AD_Table_ID: Number(id), AccessLevel: access.trim().charAt(0), identifier: identifier?.trim() || null });
}
const rawColumns = new Map(); // lower table -> [{...}]
for (const [table, column, ref, len, m, u, def, target] of readTsv('columns.tsv')) {
  const key = table.toLowerCase();
  if (!rawColumns.has(key)) rawColumns.set(key, []);
  rawColumns.get(key).push({ column, ref: ref ?? '', len: len ?? '', m: m ?? 'N', u: u ?? 'Y', def: def ?? '', target: target ?? '' });
}

for (const [name, id, access, label, flag] of supplement.minimalTables) {
  tableInfo.set(name.toLowerCase(), { TableName: name, AD_Table_ID: id, AccessLevel: access, identifier: flag === 'line' ? 'Line' : 'Name', minimal: flag ?? true, label });
}
for (const t of supplement.tables) {
  tableInfo.set(t.TableName.toLowerCase(), {
    TableName: t.TableName,
    AD_Table_ID: t.AD_Table_ID,
    AccessLevel: t.AccessLevel,
    identifier: t.identifier ?? null,
    // Numbering order: "idOrder" when a migration lands after later-numbered ones were already released.
    migration: t.idOrder ?? t.migration ?? 0,
    supplement: t,
  });
}

const multiKey = new Map(Object.entries(supplement.multiKey).map(([k, v]) => [k.toLowerCase(), v]));
for (const t of supplement.tables) if (t.multiKey) multiKey.set(t.TableName.toLowerCase(), t.multiKey);
const parents = new Set(supplement.parents.map((p) => p.toLowerCase()));
const dropColumns = new Set(supplement.dropColumns.map((p) => p.toLowerCase()));
const integerColumns = new Set(supplement.integerColumns.map((c) => c.toLowerCase()));
const buttonColumns = new Set(supplement.buttonColumns.map((c) => c.toLowerCase()));
const overrides = new Map(Object.entries(supplement.columnOverrides).map(([k, v]) => [k.toLowerCase(), v]));
// Table.Column (lower case) -> the value a new record takes (supplement.newRecordValues).
const newRecordValues = new Map();
for (const value of ['N', 'Y']) {
  for (const [table, names] of Object.entries(supplement.newRecordValues[value])) {
    for (const name of names.split(' ')) newRecordValues.set(`${table}.${name}`.toLowerCase(), value);
  }
}
const identifierOverrides = new Map(Object.entries(supplement.identifiers).map(([k, v]) => [k.toLowerCase(), v]));

function fkTargetOverride(table, column) {
  return supplement.fkTargets[`${table}.${column}`] ?? supplement.fkTargets[`*.${column}`] ?? null;
}

const uuName = (table) => (table.length > 27 ? table.slice(0, 27) : table) + '_UU';

/** Parses a target field of columns.tsv: "Table", "Table V12", "Table(R34 V56)", "R34", "R34 V56". */
function parseTarget(text) {
  const out = { table: null, refValue: null, valRule: null };
  const t = text.trim();
  if (!t) return out;
  const m = /^([A-Za-z_][A-Za-z0-9_]*)?\s*\(?\s*(?:R(\d+))?\s*(?:V(\d+))?\s*\)?$/.exec(t);
  if (!m) throw new Error(`Unreadable target '${text}'`);
  if (m[1] && !/^R\d+$/.test(m[1])) out.table = m[1];
  if (m[2]) out.refValue = Number(m[2]);
  if (m[3]) out.valRule = Number(m[3]);
  // "R389" alone matches the table group as R389; normalise.
  if (m[1] && /^R\d+$/.test(m[1])) out.refValue = Number(m[1].slice(1));
  return out;
}

/** A readable label for a column without a known element name: IsCustomer -> Customer. */
function labelOf(columnName) {
  if (supplement.elementNames[columnName]) return supplement.elementNames[columnName];
  let n = columnName.replace(/_ID$/, '').replace(/^Is(?=[A-Z])/, '');
  n = n.replace(/^(AD|C|M|R|S|A|GL|PA|PP|REST)_/, '');
  n = n.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').replace(/\s+/g, ' ').trim();
  return n || columnName;
}

const STANDARD = [
  { column: 'AD_Client_ID', ref: '19', m: 'Y', u: 'N', def: '@#AD_Client_ID@', target: 'AD_Client V129' },
  { column: 'AD_Org_ID', ref: '19', m: 'Y', u: 'Y', def: '@#AD_Org_ID@', target: 'AD_Org V104' },
  { column: 'IsActive', ref: '20', m: 'Y', u: 'Y', def: 'Y', target: '' },
  { column: 'Created', ref: '16', m: 'Y', u: 'N', def: 'SYSDATE', target: '' },
  { column: 'CreatedBy', ref: '18', m: 'Y', u: 'N', def: '', target: 'AD_User(R110)' },
  { column: 'Updated', ref: '16', m: 'Y', u: 'N', def: 'SYSDATE', target: '' },
  { column: 'UpdatedBy', ref: '18', m: 'Y', u: 'N', def: '', target: 'AD_User(R110)' },
];

/** Short supplement column spec -> the raw column form used for columns.tsv rows. */
function fromShort(c) {
  let target = '';
  if (c.fk) target = c.fk;
  if (typeof c.rv === 'number') target = `${target}(R${c.rv})`;
  return {
    column: c.c,
    ref: String(c.r),
    len: c.l !== undefined ? String(c.l) : '',
    m: c.m ?? 'N',
    u: c.u ?? 'Y',
    def: c.d ?? '',
    target,
    listKey: typeof c.rv === 'string' ? c.rv : null,
    parent: c.parent === 'Y',
    secure: c.secure === 'Y',
    migration: c.idOrder ?? c.migration ?? 0,
  };
}

function columnsOf(info) {
  const lower = info.TableName.toLowerCase();
  let cols;
  if (info.supplement) cols = info.supplement.columns.map(fromShort);
  else if (info.minimal) {
    cols = [
      { column: 'Value', ref: '10', len: '40', m: 'N', u: 'Y', def: '', target: '' },
      { column: 'Name', ref: '10', len: '60', m: info.minimal === 'line' ? 'N' : 'Y', u: 'Y', def: '', target: '' },
      { column: 'Description', ref: '10', len: '255', m: 'N', u: 'Y', def: '', target: '' },
    ];
    if (info.minimal === 'line') cols.push({ column: 'Line', ref: '11', len: '10', m: 'N', u: 'Y', def: '', target: '' });
  } else cols = [...(rawColumns.get(lower) ?? [])];
  // The standard columns are the same on every table (README §1 of the data model). Where a table's
  // rows list them with less (no default, no validation rule), a column the dictionary did not hold
  // before takes the standard definition, in place; one it held keeps what it was (dictionaryColumn).
  const uuLower = uuName(info.TableName).toLowerCase();
  cols = cols.map((c) => {
    const lowerName = c.column.toLowerCase();
    if (previousColumns.has(`${lower}.${lowerName}`)) return c;
    const standard = lowerName === `${lower}_id` ? undefined : STANDARD.find((s) => s.column.toLowerCase() === lowerName);
    if (standard) return { ...standard };
    if (lowerName === uuLower) return { ...c, u: 'N' };
    if (lowerName === `${lower}_id` && String(c.ref).replace('~', '') === '13') return { ...c, len: '10', m: 'Y', u: 'N' };
    return c;
  });
  const have = new Set(cols.map((c) => c.column.toLowerCase()));
  const add = [];
  const keyName = `${info.TableName}_ID`;
  if (!multiKey.has(lower) && !have.has(keyName.toLowerCase())) add.push({ column: keyName, ref: '13', len: '10', m: 'Y', u: 'N', def: '', target: '' });
  for (const s of STANDARD) if (!have.has(s.column.toLowerCase())) add.push(s);
  const uu = uuName(info.TableName);
  if (!have.has(uu.toLowerCase())) add.push({ column: uu, ref: '10', len: '36', m: 'N', u: 'N', def: '', target: '' });
  return [...add, ...cols].filter((c) => !dropColumns.has(`${info.TableName}.${c.column}`.toLowerCase()));
}

const tableNames = new Set([...tableInfo.keys()]);
const tableByLower = (name) => tableInfo.get(String(name).toLowerCase());

// Table references: the supplement's, then one generated per FK target that needs one.
for (const r of supplement.tableRefs) {
  references.set(r.id, {
    AD_Reference_ID: r.id,
    Name: r.Name,
    ValidationType: 'T',
    table: {
      TableName: r.table,
      KeyColumn: r.key ?? `${r.table}_ID`,
      DisplayColumn: r.display ?? null,
      WhereClause: r.where ?? null,
      OrderByClause: r.orderBy ?? null,
      IsValueDisplayed: r.valueDisplayed ?? 'N',
    },
  });
}
const generatedTableRef = new Map(); // target table lower -> ref id
function tableRefFor(targetTable) {
  const lower = targetTable.toLowerCase();
  if (generatedTableRef.has(lower)) return generatedTableRef.get(lower);
  const info = tableByLower(lower);
  const id = syntheticRefId(`${info.TableName} (all)`);
  references.set(id, {
    AD_Reference_ID: id,
    Name: `${info.TableName} (all)`,
    ValidationType: 'T',
    table: { TableName: info.TableName, KeyColumn: `${info.TableName}_ID`, DisplayColumn: null, WhereClause: null, OrderByClause: null, IsValueDisplayed: 'N' },
  });
  generatedTableRef.set(lower, id);
  return id;
}

const valRuleIds = new Set(supplement.valRules.map((v) => v.AD_Val_Rule_ID));

function fieldLength(c, ref, listRefId) {
  if (c.len !== '' && c.len !== undefined && Number(c.len) > 0) return Number(c.len);
  if (supplement.stringLengths[c.column]) return supplement.stringLengths[c.column];
  switch (ref) {
    case 20: return 1;
    case 11: case 13: case 18: case 19: case 30: case 21: case 25: case 31: case 32: case 35: case 28:
      return /_ID$/.test(c.column) || ref !== 28 ? 10 : 1;
    case 12: case 22: case 29: case 37: return 22;
    case 15: case 16: case 24: return 7;
    case 14: return 2000;
    case 36: case 23: return 0;
    case 17: {
      const values = references.get(listRefId)?.list ?? [];
      const max = Math.max(1, ...values.map((v) => v.Value.length));
      return max;
    }
    default:
      return 60;
  }
}

const elements = new Map(); // column name lower -> element
function elementFor(columnName) {
  const key = columnName.toLowerCase();
  let e = elements.get(key);
  if (!e) {
    const name = labelOf(columnName);
    e = { AD_Element_ID: elementId(key), ColumnName: columnName, Name: name, PrintName: name };
    elements.set(key, e);
  }
  return e;
}


/** The seed form of one column of a table; takes the next column id (and element id, for a new name). */
function dictionaryColumn(info, c) {
  const lower = info.TableName.toLowerCase();
  const identifierNames = identifierOverrides.get(lower) ?? (info.identifier ? [info.identifier] : []);
  const mk = new Set((multiKey.get(lower) ?? []).map((name) => name.toLowerCase()));
  const qualified = `${info.TableName}.${c.column}`.toLowerCase();
  const colName = c.column.toLowerCase();
  const kept = previousColumns.get(qualified);
  if (kept && (STANDARD_NAMES.has(colName) || colName === uuName(info.TableName).toLowerCase() || colName === `${lower}_id`)) {
    elementFor(c.column);
    newRecordValues.delete(qualified);
    return kept;
  }
  const ov = overrides.get(qualified) ?? {};
  let ref = Number(String(c.ref).replace('~', '')) || 10;
  const colLower = c.column.toLowerCase();
  if (integerColumns.has(colLower)) ref = 11;
  if (buttonColumns.has(colLower)) ref = 28;
  if (colLower === uuName(info.TableName).toLowerCase() && ref !== 200231) ref = 10;
  if (colLower === 'record_id') ref = 200202;
  // Columns whose type the model shows only by name: the audit users and the posting status.
  if (colLower === 'createdby' || colLower === 'updatedby') {
    ref = 18;
    c = { ...c, target: 'AD_User(R110)' };
  }
  if (colLower === 'posted' && ref === 28) c = { ...c, target: 'R234' };
  const target = parseTarget(c.target);
  let refValue = null;
  let valRule = target.valRule !== null && valRuleIds.has(target.valRule) ? target.valRule : null;
  let listRefId = null;
  if (c.listKey) listRefId = listKeyToId.get(c.listKey);
  if (ov.rv !== undefined) {
    if (typeof ov.rv === 'string') listRefId = listKeyToId.get(ov.rv);
    else refValue = ov.rv;
  }
  if (ref === 17 || ref === 200152 || ref === 200161 || ref === 200173) {
    listRefId = listRefId ?? target.refValue;
    if (listRefId === null || references.get(listRefId)?.ValidationType !== 'L') {
      // A list with no known values reads as plain text.
      ref = 10;
      listRefId = null;
    }
    refValue = listRefId;
  } else if (ref === 28 && listRefId === null && target.refValue !== null && references.get(target.refValue)?.ValidationType === 'L') {
    refValue = target.refValue;
  } else if (ref === 10 && target.refValue !== null && references.get(target.refValue)?.ValidationType === 'L') {
    refValue = target.refValue;
  } else if (LOOKUP_TYPES.has(ref) || (ref === 28 && /_ID$/.test(c.column))) {
    const overrideTable = fkTargetOverride(info.TableName, c.column);
    const targetTable = overrideTable ?? target.table;
    if (refValue === null && target.refValue !== null && references.get(target.refValue)?.ValidationType === 'T' && tableNames.has(references.get(target.refValue).table.TableName.toLowerCase())) {
      refValue = target.refValue;
    } else if (refValue === null && targetTable && tableNames.has(targetTable.toLowerCase())) {
      const byName = c.column.replace(/_ID$/, '').toLowerCase() === targetTable.toLowerCase();
      // TableDir and Search find their table by the column name; anything else needs a table reference.
      if (!byName || ref === 18) {
        ref = ref === 19 ? 18 : ref === 30 && !byName ? 30 : ref;
        refValue = tableRefFor(targetTable);
      }
    } else if (refValue === null && !tableNames.has(c.column.replace(/_ID$/, '').toLowerCase())) {
      // The target table is not part of this dictionary: the column holds a plain id.
      ref = 11;
    }
  }
  if (refValue !== null && !references.has(refValue)) refValue = null;
  let def = ov.d !== undefined ? ov.d : c.def || null;
  if (def && def.endsWith('...')) def = c.column === 'EntityType' ? 'U' : null;
  if (def === null && newRecordValues.has(qualified)) {
    def = newRecordValues.get(qualified);
    newRecordValues.delete(qualified);
  }
  const isKey = colLower === `${info.TableName}_ID`.toLowerCase() && !mk.size && ref === 13;
  const isParent = parents.has(qualified) || c.parent === true || (mk.has(colLower) && /_id$/.test(colLower));
  const identIndex = identifierNames.findIndex((n) => n.toLowerCase() === colLower);
  const element = elementFor(c.column);
  return {
    AD_Column_ID: columnId(qualified),
    ColumnName: c.column,
    Name: element.Name,
    AD_Element_ID: element.AD_Element_ID,
    AD_Reference_ID: ref,
    AD_Reference_Value_ID: refValue,
    AD_Val_Rule_ID: valRule,
    FieldLength: ov.l ?? fieldLength(c, ref === 28 && refValue !== null ? 17 : ref, listRefId ?? refValue),
    DefaultValue: def,
    IsKey: isKey ? 'Y' : 'N',
    IsParent: isParent ? 'Y' : 'N',
    IsMandatory: c.m === 'Y' || isKey ? 'Y' : 'N',
    IsUpdateable: c.u === 'N' || isKey ? 'N' : 'Y',
    IsAlwaysUpdateable: 'N',
    IsIdentifier: identIndex >= 0 ? 'Y' : 'N',
    SeqNo: identIndex >= 0 ? identIndex + 1 : 0,
    IsSelectionColumn: identIndex >= 0 || c.column === 'Value' ? 'Y' : 'N',
    IsTranslated: 'N',
    IsEncrypted: 'N',
    IsSecure: ov.secure === 'Y' || c.secure ? 'Y' : 'N',
    FKConstraintType: ov.fkc ?? null,
    Version: 0,
    EntityType: 'D',
  };
}

// A supplement table with "migration": N reaches existing databases through migration N. Such tables
// are numbered after all others, in migration order, so that their columns and elements take new ids
// and every id an existing database already holds stays what it was. A supplement column with
// "migration": N (one that migration N adds to an existing table) is numbered the same way: after
// every column of an earlier migration, though it stays in its table's column order.
const sortedInfos = [...tableInfo.values()].sort((a, b) => (a.migration ?? 0) - (b.migration ?? 0) || a.AD_Table_ID - b.AD_Table_ID);
const columnsByTable = new Map(sortedInfos.map((info) => [info, []]));
const columnJobs = sortedInfos.flatMap((info) =>
  columnsOf(info).map((c, position) => ({ info, c, position, migration: Math.max(info.migration ?? 0, c.migration ?? 0) })),
);
// Array.prototype.sort is stable: within one migration, columns keep the table and column order.
for (const { info, c, position } of columnJobs.sort((a, b) => a.migration - b.migration)) {
  columnsByTable.get(info)[position] = dictionaryColumn(info, c);
}

const tables = [];
for (const info of sortedInfos) {
  tables.push({
    AD_Table_ID: info.AD_Table_ID,
    TableName: info.TableName,
    Name: supplement.tableNames[info.TableName] ?? info.label ?? labelOf(info.TableName),
    AccessLevel: String(info.AccessLevel),
    IsView: 'N',
    IsDeleteable: 'Y',
    IsHighVolume: 'N',
    IsChangeLog: 'N',
    IsSecurityEnabled: 'N',
    ReplicationType: 'L',
    EntityType: 'D',
    columns: columnsByTable.get(info),
  });
}

// Drop table references whose table is not in this dictionary.
for (const [id, r] of references) {
  if (r.ValidationType === 'T' && !tableNames.has(r.table.TableName.toLowerCase())) references.delete(id);
}

const valRules = supplement.valRules.map((v) => ({ ...v, EntityType: 'D' }));

// References that clients name by a known UUID keep it (others get a deterministic one when seeded).
for (const [id, uu] of Object.entries(supplement.referenceUUs ?? {})) {
  if (!id.startsWith('_') && references.has(Number(id))) references.get(Number(id)).AD_Reference_UU = uu;
}

fs.mkdirSync(outDir, { recursive: true });
const write = (name, data) => fs.writeFileSync(path.join(outDir, name), JSON.stringify(data, null, 1) + '\n');
write('tables.json', tables);
write('references.json', [...references.values()].sort((a, b) => a.AD_Reference_ID - b.AD_Reference_ID));
write('elements.json', [...elements.values()].sort((a, b) => a.AD_Element_ID - b.AD_Element_ID));
write('valrules.json', valRules);
if (newRecordValues.size) throw new Error(`supplement.newRecordValues names columns that are not mandatory-without-default columns of the dictionary: ${[...newRecordValues.keys()].join(', ')}`);
// A mandatory Yes-No or Button column without a value for new records makes every create without it fail.
const withoutValue = tables.flatMap((t) => t.columns.filter((c) => c.IsMandatory === 'Y' && (c.AD_Reference_ID === 20 || c.AD_Reference_ID === 28) && c.DefaultValue === null).map((c) => `${t.TableName}.${c.ColumnName}`));
if (withoutValue.length) console.warn(`warning: mandatory Yes-No/Button columns without a new-record value (add them to supplement.newRecordValues): ${withoutValue.join(', ')}`);
const columnCount = tables.reduce((n, t) => n + t.columns.length, 0);
console.log(`dictionary: ${tables.length} tables, ${columnCount} columns, ${references.size} references, ${elements.size} elements, ${valRules.length} validation rules`);
