import { tableReadable } from '../../access/access.js';
import { SqlBuilder } from '../../db/sql.js';
import type { FilterNode } from '../query/filter-ast.js';
import { parseFilter } from '../query/filter-parser.js';
import type { ReadContext } from '../read/read-context.js';
import { whereClause } from '../read/where.js';
import type { JsonObject } from '../serialize.js';

interface TableRow {
  ad_table_id: number;
  ad_table_uu: string | null;
  name: string | null;
  description: string | null;
}

/**
 * GET /models: the active tables (AD_Table rows) that `$filter` selects and the role may read, as
 * `{id, uid?, model-name, name, description?}` ordered by table name. As in the original, the filter
 * is a `$filter` over AD_Table's own columns (`AccessLevel eq '4'`, `startswith(TableName,'C_')`),
 * read like any list of AD_Table, and the list holds active tables only, whatever the filter says.
 */
export async function listModels(rc: ReadContext, filterText: string | undefined): Promise<JsonObject[]> {
  const adTable = rc.dict.byName.get('ad_table');
  if (!adTable) return [];
  const filter: FilterNode | undefined = filterText !== undefined && filterText.trim() !== '' ? parseFilter(filterText) : undefined;
  const sql = new SqlBuilder();
  const where = whereClause(rc, adTable, 't', sql, { ...(filter ? { filter } : {}), activeOnly: false });
  const { rows } = await rc.q.query<TableRow>(
    `SELECT t."ad_table_id", t."ad_table_uu", t."name", t."description" FROM "ad_table" t WHERE ${where.join(' AND ')} AND t."isactive" = 'Y'`,
    sql.values,
  );
  const models: { sortKey: string; model: JsonObject }[] = [];
  for (const row of rows) {
    const table = rc.dict.byId.get(Number(row.ad_table_id));
    if (!table || !table.isActive || !tableReadable(rc.auth, table)) continue;
    const model: JsonObject = { id: table.id };
    if (row.ad_table_uu) model.uid = row.ad_table_uu;
    model['model-name'] = table.modelName;
    model.name = row.name ?? table.label;
    if (row.description) model.description = row.description;
    models.push({ sortKey: table.name, model });
  }
  return models.sort((a, b) => a.sortKey.localeCompare(b.sortKey)).map((m) => m.model);
}
