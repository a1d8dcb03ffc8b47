import type { Tx } from '../db/types.js';
import { addSeedTables } from '../seed/add-tables.js';
import { readSeed, seedTable } from '../seed/bootstrap.js';
import { insertSeedRows } from '../seed/insert-rows.js';
import { deterministicUuid } from '../seed/deterministic-uuid.js';

/**
 * The seed rows of an access table (a table without a single key: AD_Process_Access,
 * AD_Workflow_Access) that the database lacks, matched by object and role. Their UUIDs are named
 * by object and role: the seed's own numbering (by position) could repeat a UUID already there.
 */
async function addMissingAccessRows(tx: Tx, tableName: string, objectColumn: string, now: string): Promise<void> {
  const { data, dict } = readSeed();
  const table = seedTable(dict, tableName);
  const column = objectColumn.toLowerCase();
  const { rows } = await tx.query<Record<string, unknown>>(`SELECT ${column} AS object, ad_role_id FROM ${table.dbName}`);
  const have = new Set(rows.map((r) => `${Number(r.object)}:${Number(r.ad_role_id)}`));
  const missing = (data.get(tableName) ?? [])
    .filter((r) => !have.has(`${Number(r[objectColumn])}:${Number(r.AD_Role_ID)}`))
    .map((r) => ({ ...r, [`${tableName}_UU`]: deterministicUuid(`${tableName}:${Number(r[objectColumn])}:${Number(r.AD_Role_ID)}`) }));
  await insertSeedRows(tx, table, missing, now);
}

/**
 * Brings the built-in processes to an existing database: AD_Process, AD_Process_Para, the job
 * notice message, the print formats, and the AD_Process_Access rows it lacks.
 */
export async function addProcessSeed(tx: Tx, now = new Date().toISOString()): Promise<void> {
  await addSeedTables(tx, ['AD_Process', 'AD_Process_Para', 'AD_Message', 'AD_PrintFormat'], now);
  await addMissingAccessRows(tx, 'AD_Process_Access', 'AD_Process_ID', now);
}

/**
 * Brings the standard processes of the original that clients call: the document processes of
 * invoices, shipments, payments and allocations (with the allocation's document workflow) and
 * their Document Action parameter, the Storage Detail report (its report view) and Role Access
 * Update, with their access rows.
 */
export async function addStandardProcessSeed(tx: Tx, now = new Date().toISOString()): Promise<void> {
  await addSeedTables(tx, ['AD_ReportView', 'AD_Workflow', 'AD_WF_Node', 'AD_WF_NodeNext'], now);
  await addProcessSeed(tx, now);
  await addMissingAccessRows(tx, 'AD_Workflow_Access', 'AD_Workflow_ID', now);
  // The original's name of the order's document process.
  await tx.query(`UPDATE ad_process SET name = 'Process Order' WHERE ad_process_id = 104 AND name = 'C_Order Process'`);
}
