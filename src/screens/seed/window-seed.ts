import type { Tx } from '../../db/types.js';
import { deterministicUuid } from '../../seed/deterministic-uuid.js';
import { readSeed, seedTable } from '../../seed/bootstrap.js';
import { insertSeedRows } from '../../seed/insert-rows.js';
import { tablePrintProcess } from '../../print/print-processes.js';

/** A tab of a window to add: its table, level, the column linking it to the tab above and its record filter. */
export interface TabSpec {
  id: number;
  name: string;
  table: string;
  level: number;
  /** Column of this tab's table holding the parent tab's key (none for a header tab). */
  link?: string;
  whereClause?: string;
  readOnly?: boolean;
  description?: string;
}

/** A window to add with its tabs; tabs of a window added before name it by `existing`. */
export interface WindowSpec {
  id: number;
  name: string;
  description?: string;
  isSOTrx?: boolean;
  /** The window already exists: only its tabs are added, after the given sequence number. */
  existing?: { afterSeqNo: number };
  tabs: TabSpec[];
}

/** A menu entry opening a window, below a summary entry of the menu tree. */
export interface MenuSpec {
  id: number;
  windowId: number;
  name: string;
  parentId: number;
  seqNo: number;
  /** A summary entry (no window) holding other entries. */
  summary?: boolean;
}

export interface WindowSeed {
  windows: WindowSpec[];
  menus: MenuSpec[];
  /** Roles given read-write access to every new window: [role, client]. */
  access: readonly [role: number, client: number][];
  /** Field ids are handed out from here up to `lastFieldId`. */
  firstFieldId: number;
  lastFieldId: number;
}

/** Columns a tab keeps but does not display: who and when, the UUID. */
const HIDDEN = new Set(['created', 'createdby', 'updated', 'updatedby']);

interface ColumnRow {
  ad_column_id: number;
  columnname: string;
  name: string;
  fieldlength: number | null;
  iskey: string;
}

/** The active columns of a table, in column order: what its tab's fields show. */
async function tableColumns(tx: Tx, tableName: string): Promise<{ tableId: number; columns: ColumnRow[] }> {
  const { rows: tables } = await tx.query<{ ad_table_id: number }>(`SELECT ad_table_id FROM ad_table WHERE lower(tablename) = lower($1)`, [tableName]);
  if (!tables[0]) throw new Error(`The dictionary lacks table ${tableName}`);
  const tableId = Number(tables[0].ad_table_id);
  const { rows } = await tx.query<ColumnRow>(
    `SELECT ad_column_id, columnname, name, fieldlength, iskey FROM ad_column WHERE ad_table_id = $1 AND isactive = 'Y' ORDER BY ad_column_id`,
    [tableId],
  );
  return { tableId, columns: rows };
}

/** Whether a column is shown as a field of a tab: not the key, the UUID or the who and when (the parent link is shown). */
export function displayedColumn(column: { columnname: string; iskey: string }, table: string): boolean {
  const name = column.columnname.toLowerCase();
  return column.iskey !== 'Y' && !HIDDEN.has(name) && name !== `${table.toLowerCase()}_uu`;
}

/**
 * Adds windows to the dictionary as the original has them: the window, its tabs on their tables
 * with their levels and link columns, a field per active column of each tab's table (in column
 * order, the key, UUID and who/when columns hidden), access for the given roles and
 * menu entries in the main menu tree (10).
 */
export async function addWindows(tx: Tx, seed: WindowSeed, now = new Date().toISOString()): Promise<void> {
  const { dict } = readSeed();
  const windows = seed.windows.filter((w) => !w.existing).map((w) => ({
    AD_Window_ID: w.id, AD_Client_ID: 0, AD_Org_ID: 0, Name: w.name, Description: w.description ?? null, WindowType: 'T',
    IsSOTrx: w.isSOTrx ? 'Y' : 'N', IsDefault: 'N', IsBetaFunctionality: 'N', EntityType: 'D',
  }));
  await insertSeedRows(tx, seedTable(dict, 'AD_Window'), windows, now);
  const tabs: Record<string, unknown>[] = [];
  const fields: Record<string, unknown>[] = [];
  let fieldId = seed.firstFieldId;
  for (const w of seed.windows) {
    let seqNo = w.existing?.afterSeqNo ?? 0;
    for (const t of w.tabs) {
      seqNo += 10;
      const { tableId, columns } = await tableColumns(tx, t.table);
      const link = t.link ? columns.find((c) => c.columnname.toLowerCase() === t.link!.toLowerCase()) : undefined;
      if (t.link && !link) throw new Error(`Table ${t.table} lacks the link column ${t.link}`);
      tabs.push({
        AD_Tab_ID: t.id, AD_Client_ID: 0, AD_Org_ID: 0, AD_Window_ID: w.id, Name: t.name, Description: t.description ?? null, SeqNo: seqNo, TabLevel: t.level,
        AD_Table_ID: tableId, AD_Column_ID: link ? Number(link.ad_column_id) : null, WhereClause: t.whereClause ?? null,
        // The tab prints its records by its table's print process, as the original's document tabs do.
        AD_Process_ID: tablePrintProcess(t.table.toLowerCase()),
        IsReadOnly: t.readOnly ? 'Y' : 'N', IsInsertRecord: t.readOnly ? 'N' : 'Y', IsSingleRow: t.level === 0 ? 'Y' : 'N', HasTree: 'N',
        IsTranslationTab: 'N', IsAdvancedTab: 'N', IsSortTab: 'N', IsInfoTab: 'N', TreeDisplayedOn: 'B', EntityType: 'D',
      });
      let fieldSeq = 0;
      for (const c of columns) {
        const shown = displayedColumn(c, t.table);
        if (shown) fieldSeq += 10;
        if (fieldId > seed.lastFieldId) throw new Error(`The new windows need more field ids than ${seed.firstFieldId}–${seed.lastFieldId}`);
        fields.push({
          AD_Field_ID: fieldId++, AD_Client_ID: 0, AD_Org_ID: 0, AD_Tab_ID: t.id, AD_Column_ID: Number(c.ad_column_id), Name: c.name,
          SeqNo: shown ? fieldSeq : 0, SeqNoGrid: shown ? fieldSeq : 0, IsDisplayed: shown ? 'Y' : 'N', IsDisplayedGrid: shown ? 'Y' : 'N',
          IsReadOnly: 'N', IsSameLine: 'N', IsHeading: 'N', IsFieldOnly: 'N', IsEncrypted: 'N', IsCentrallyMaintained: 'Y',
          IsDefaultFocus: 'N', IsQuickEntry: 'N', IsQuickForm: 'N', EntityType: 'D', DisplayLength: Math.min(Number(c.fieldlength ?? 10) || 10, 60),
        });
      }
    }
  }
  await insertSeedRows(tx, seedTable(dict, 'AD_Tab'), tabs, now);
  await insertSeedRows(tx, seedTable(dict, 'AD_Field'), fields, now);

  const { rows: roles } = await tx.query<{ r: number }>(`SELECT ad_role_id AS r FROM ad_role WHERE ad_role_id = ANY($1::bigint[])`, [seed.access.map(([role]) => role)]);
  const present = new Set(roles.map((r) => Number(r.r)));
  await insertSeedRows(
    tx,
    seedTable(dict, 'AD_Window_Access'),
    windows.flatMap((w) =>
      seed.access.filter(([role]) => present.has(role)).map(([role, client]) => ({
        AD_Window_ID: w.AD_Window_ID, AD_Role_ID: role, AD_Client_ID: client, AD_Org_ID: 0, IsReadWrite: 'Y',
        AD_Window_Access_UU: deterministicUuid(`AD_Window_Access:${w.AD_Window_ID}:${role}`),
      })),
    ),
    now,
  );
  await insertSeedRows(
    tx,
    seedTable(dict, 'AD_Menu'),
    seed.menus.map((m) => ({
      AD_Menu_ID: m.id, AD_Client_ID: 0, AD_Org_ID: 0, Name: m.name, IsSummary: m.summary ? 'Y' : 'N', IsReadOnly: 'N', IsSOTrx: 'Y',
      IsCentrallyMaintained: 'Y', EntityType: 'D', ...(m.summary ? {} : { Action: 'W', AD_Window_ID: m.windowId }),
    })),
    now,
  );
  await insertSeedRows(
    tx,
    seedTable(dict, 'AD_TreeNodeMM'),
    seed.menus.map((m) => ({
      AD_Tree_ID: 10, Node_ID: m.id, Parent_ID: m.parentId, SeqNo: m.seqNo, AD_Client_ID: 0, AD_Org_ID: 0, AD_TreeNodeMM_UU: deterministicUuid(`AD_TreeNodeMM:10:${m.id}`),
    })),
    now,
  );
}
