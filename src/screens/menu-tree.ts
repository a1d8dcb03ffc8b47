import { notFound } from '../errors.js';
import type { ReadContext } from '../records/read/read-context.js';
import type { JsonObject } from '../records/serialize.js';
import { readDictionaryRows, type Row } from './dictionary-rows.js';
import type { ScreenAccess } from './screen-access.js';

/** The AD_Menu columns the original shows of each menu entry. */
export const MENU_COLUMNS = ['Name', 'Description', 'IsSOTrx', 'PredefinedContextVariables', 'EntityType', 'Action', 'AD_Window_ID', 'AD_Workflow_ID', 'AD_Task_ID', 'AD_Process_ID', 'AD_Form_ID', 'AD_InfoWindow_ID'];

/** Whether the role may open what a menu entry leads to (a summary entry is judged by its children). */
export function menuEntryAllowed(row: Row, access: ScreenAccess): boolean {
  const id = (c: string) => Number(row[c] ?? 0);
  switch (row.action) {
    case 'W':
      return access.windows.has(id('ad_window_id'));
    case 'P':
    case 'R':
      return access.processes.has(id('ad_process_id'));
    case 'X':
      return access.forms.has(id('ad_form_id'));
    case 'F':
      return access.workflows.has(id('ad_workflow_id'));
    case 'I':
      return access.infoWindows.has(id('ad_infowindow_id'));
    default:
      // Tasks and other actions have no access table in the dictionary: only what a role was given is shown.
      return false;
  }
}

interface Node {
  nodeId: number;
  parentId: number;
  seqNo: number;
}

/**
 * Builds the entries below `parent` (pure): summary entries carry their own `entries` and are left
 * out when nothing below them remains; other entries appear when the role may open them.
 */
export function menuEntries(nodes: Node[], menus: Map<number, { row: Row; record: JsonObject }>, access: ScreenAccess, parent = 0, depth = 0): JsonObject[] {
  if (depth > 50) return [];
  const out: JsonObject[] = [];
  const below = nodes.filter((n) => n.parentId === parent && n.nodeId !== parent).sort((a, b) => a.seqNo - b.seqNo || a.nodeId - b.nodeId);
  for (const n of below) {
    const menu = menus.get(n.nodeId);
    if (!menu) continue;
    if (menu.row.issummary === 'Y') {
      const entries = menuEntries(nodes, menus, access, n.nodeId, depth + 1);
      if (entries.length) out.push({ ...menu.record, entries });
    } else if (menuEntryAllowed(menu.row, access)) out.push(menu.record);
  }
  return out;
}

/** GET /menutree/{id}: the menu tree as the role sees it. */
export async function menuTree(rc: ReadContext, access: ScreenAccess, treeId: number): Promise<JsonObject> {
  const trees = await readDictionaryRows(rc, 'AD_Tree', { select: ['Name', 'Description', 'TreeType'], where: (sql) => [`d."ad_tree_id" = ${sql.param(treeId)}`], orderBy: 'd."ad_tree_id"' });
  const tree = trees.rows[0];
  if (!tree || tree.treetype !== 'MM') throw notFound('Invalid menu tree', `No menu tree found matching id: ${treeId}`);
  const { rows: nodeRows } = await rc.q.query<{ node_id: number; parent_id: number | null; seqno: number | null }>(
    `SELECT node_id, parent_id, seqno FROM ad_treenodemm WHERE ad_tree_id = $1 AND isactive = 'Y' AND ad_client_id IN (0, $2)`,
    [treeId, rc.auth.clientId],
  );
  const nodes = nodeRows.map((r) => ({ nodeId: Number(r.node_id), parentId: Number(r.parent_id ?? 0), seqNo: Number(r.seqno ?? 0) }));
  const menuRead = await readDictionaryRows(rc, 'AD_Menu', { select: [...MENU_COLUMNS, 'IsSummary'], orderBy: 'd."ad_menu_id"' });
  const shown = new Set(MENU_COLUMNS.map((c) => c.toLowerCase()));
  const menus = new Map<number, { row: Row; record: JsonObject }>();
  menuRead.rows.forEach((row, i) => {
    const record = Object.fromEntries(Object.entries(menuRead.records[i]!).filter(([k]) => k === 'id' || k === 'uid' || k === 'model-name' || shown.has(k.toLowerCase()))) as JsonObject;
    menus.set(Number(row.ad_menu_id), { row, record });
  });
  const out: JsonObject = { Name: String(tree.name ?? '') };
  if (tree.description) out.Description = String(tree.description);
  out.entries = menuEntries(nodes, menus, access);
  return out;
}
