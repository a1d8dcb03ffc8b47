import type { Tx } from '../../db/types.js';
import { addColumnStatement } from '../../dictionary/ddl.js';
import { loadDictionary } from '../../dictionary/load.js';
import { readSeed, seedTable } from '../../seed/bootstrap.js';
import { insertSeedRows } from '../../seed/insert-rows.js';
import { addDemoAccount } from '../../seed/demo-account.js';
import { addProcesses } from '../../seed/payrun-seed.js';
import { addListReference, addSpecTables, columnRow, elementIds } from '../../seed/spec-tables.js';
import { DISTRIBUTION_REFERENCE, DISTRIBUTIONS, LANDED_COST_TABLES } from './landed-cost-dictionary.js';

const FIRST_COLUMN_ID = 8000;
/** The schema defaults' columns of landed costs, after the two tables' columns. */
const FIRST_DEFAULTS_COLUMN_ID = 8100;
const FIRST_ELEMENT_ID = 3300;
const FIRST_LIST_ID = 1128000;
/** The demo's accounts of landed costs the stock does not cover and of standard-costed products (element value and combination ids). */
export const AVERAGE_COST_VARIANCE_ACCOUNT = 1128100;
export const COST_ADJUSTMENT_ACCOUNT = 1128101;
export const DISTRIBUTE_COSTS_PROCESS = 1128200;
export const DISTRIBUTE_COSTS_CLASS = 'org.compiere.process.LandedCostDistribute';
/** AD_Reference "Account" (C_ValidCombination), as the schema defaults' other account columns. */
const ACCOUNT_REFERENCE = 25;

const NEW_ELEMENTS: readonly [column: string, name: string][] = [
  ['C_LandedCost_ID', 'Landed Cost'], ['C_LandedCost_UU', 'C_LandedCost_UU'], ['C_LandedCostAllocation_ID', 'Landed Cost Allocation'],
  ['C_LandedCostAllocation_UU', 'C_LandedCostAllocation_UU'], ['LandedCostDistribution', 'Cost Distribution'], ['Base', 'Base'],
];

/** The default accounts of C_AcctSchema_Default that landed costs post to, as the original's schema defaults have them. */
const DEFAULT_COLUMNS = ['P_AverageCostVariance_Acct', 'P_CostAdjustment_Acct'];

const ACCOUNTS: readonly [id: number, value: string, name: string, description: string][] = [
  [AVERAGE_COST_VARIANCE_ACCOUNT, '58400', 'Average cost variance', 'Landed costs and invoice differences of averaged products the stock no longer holds'],
  [COST_ADJUSTMENT_ACCOUNT, '58500', 'Inventory cost adjustment', 'Landed costs of products at a standard cost'],
];

/** P_AverageCostVariance_Acct and P_CostAdjustment_Acct on C_AcctSchema_Default, in the dictionary and the database. */
async function addDefaultAccountColumns(tx: Tx, now: string): Promise<void> {
  const { dict } = readSeed();
  const elements = await elementIds(tx, DEFAULT_COLUMNS, { firstElementId: FIRST_ELEMENT_ID + NEW_ELEMENTS.length, newElements: [] }, now);
  const table = (await loadDictionary(tx)).byName.get('c_acctschema_default')!;
  const columns = DEFAULT_COLUMNS.map((name, n) => ({
    ...columnRow({ name, reference: ACCOUNT_REFERENCE }, FIRST_DEFAULTS_COLUMN_ID + n, table.id, elements.get(name.toLowerCase())!),
    FieldLength: 10,
  }));
  await insertSeedRows(tx, seedTable(dict, 'AD_Column'), columns, now, { skipExisting: true });
  const loaded = (await loadDictionary(tx)).byName.get('c_acctschema_default')!;
  for (const name of DEFAULT_COLUMNS) await tx.query(addColumnStatement(loaded, loaded.byName.get(name.toLowerCase())!));
}

/** The demo's two accounts with their combinations, named by its schema's defaults; a database without the demo schema is left as it is. */
async function addDemoAccounts(tx: Tx, now: string): Promise<void> {
  const { rows } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM c_acctschema_default WHERE c_acctschema_id = 101 AND ad_client_id = 11');
  if (!rows[0]?.n) return;
  for (const [id, value, name, description] of ACCOUNTS) await addDemoAccount(tx, { id, value, name, description, type: 'E' }, now);
  await tx.query(
    `UPDATE c_acctschema_default SET p_averagecostvariance_acct = COALESCE(p_averagecostvariance_acct, $1), p_costadjustment_acct = COALESCE(p_costadjustment_acct, $2)
      WHERE c_acctschema_id = 101 AND ad_client_id = 11`,
    [AVERAGE_COST_VARIANCE_ACCOUNT, COST_ADJUSTMENT_ACCOUNT],
  );
}

/**
 * Landed costs: the tables C_LandedCost and C_LandedCostAllocation with the list of
 * distributions, the schema defaults' average cost variance and cost adjustment accounts (with
 * the demo's accounts), and the process Distribute Costs of a landed cost.
 */
export async function addLandedCostSeed(tx: Tx, now = new Date().toISOString()): Promise<void> {
  await addListReference(tx, { id: DISTRIBUTION_REFERENCE, name: 'C_LandedCost Distribution' }, DISTRIBUTIONS, FIRST_LIST_ID, now);
  await addSpecTables(tx, LANDED_COST_TABLES, { firstColumnId: FIRST_COLUMN_ID, firstElementId: FIRST_ELEMENT_ID, newElements: NEW_ELEMENTS }, now);
  await addDefaultAccountColumns(tx, now);
  await addDemoAccounts(tx, now);
  await addProcesses(
    tx,
    [{ id: DISTRIBUTE_COSTS_PROCESS, value: 'C_LandedCost_Distribute', name: 'Distribute Costs', classname: DISTRIBUTE_COSTS_CLASS, description: 'Distribute the landed costs of the invoice line over its receipt lines', params: [] }],
    now,
  );
}
