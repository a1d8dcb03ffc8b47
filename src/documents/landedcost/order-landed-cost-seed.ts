import type { Tx } from '../../db/types.js';
import { addColumnStatement } from '../../dictionary/ddl.js';
import { loadDictionary } from '../../dictionary/load.js';
import { readSeed, seedTable } from '../../seed/bootstrap.js';
import { insertSeedRows } from '../../seed/insert-rows.js';
import { addDemoAccount } from '../../seed/demo-account.js';
import { addListReference, addSpecTables, columnRow, elementIds } from '../../seed/spec-tables.js';
import { DISTRIBUTION_REFERENCE, DISTRIBUTIONS } from './landed-cost-dictionary.js';
import { ORDER_LANDED_COST_TABLES } from './order-landed-cost-dictionary.js';

const FIRST_COLUMN_ID = 8800;
const CLEARING_COLUMN_ID = 8850;
const FIRST_ELEMENT_ID = 3500;
/** The ids the list of distributions has wherever it is made (the landed cost seed makes it too). */
const DISTRIBUTION_FIRST_LIST_ID = 1128000;
/** The demo's Landed Cost Clearing account (element value and combination id). */
export const LANDED_COST_CLEARING_ACCOUNT = 1134100;
const ACCOUNT_REFERENCE = 25;
const CLEARING_COLUMN = 'P_LandedCostClearing_Acct';

/**
 * Elements the data model lacks. LandedCostDistribution and Base are the landed cost seed's too:
 * whichever of the two runs first makes them, the other finds them by name.
 */
const NEW_ELEMENTS: readonly [column: string, name: string][] = [
  ['C_OrderLandedCost_ID', 'Estimated Landed Cost'], ['C_OrderLandedCost_UU', 'C_OrderLandedCost_UU'],
  ['C_OrderLandedCostAllocation_ID', 'Estimated Landed Cost Allocation'], ['C_OrderLandedCostAllocation_UU', 'C_OrderLandedCostAllocation_UU'],
  ['LandedCostDistribution', 'Cost Distribution'], ['Base', 'Base'], [CLEARING_COLUMN, 'Landed Cost Clearing'],
];

/** P_LandedCostClearing_Acct on C_AcctSchema_Default, in the dictionary and the database. */
async function addClearingColumn(tx: Tx, now: string): Promise<void> {
  const { dict } = readSeed();
  const elements = await elementIds(tx, [CLEARING_COLUMN], { firstElementId: FIRST_ELEMENT_ID, newElements: NEW_ELEMENTS }, now);
  const table = (await loadDictionary(tx)).byName.get('c_acctschema_default')!;
  const column = { ...columnRow({ name: CLEARING_COLUMN, reference: ACCOUNT_REFERENCE }, CLEARING_COLUMN_ID, table.id, elements.get(CLEARING_COLUMN.toLowerCase())!), FieldLength: 10 };
  await insertSeedRows(tx, seedTable(dict, 'AD_Column'), [column], now, { skipExisting: true });
  const loaded = (await loadDictionary(tx)).byName.get('c_acctschema_default')!;
  const { rows } = await tx.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'c_acctschema_default' AND column_name = $1`, [CLEARING_COLUMN.toLowerCase()]);
  if (!rows.length) await tx.query(addColumnStatement(loaded, loaded.byName.get(CLEARING_COLUMN.toLowerCase())!));
}

/** The demo's Landed Cost Clearing account with its combination, named by its schema's defaults; a database without the demo schema is left as it is. */
async function addDemoClearingAccount(tx: Tx, now: string): Promise<void> {
  const { rows } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM c_acctschema_default WHERE c_acctschema_id = 101 AND ad_client_id = 11');
  if (!rows[0]?.n) return;
  await addDemoAccount(tx, {
    id: LANDED_COST_CLEARING_ACCOUNT, value: '21195', name: 'Landed cost clearing', type: 'L',
    description: 'Landed costs estimated on purchase orders and taken into received stock, until the vendor invoice of the cost clears them',
  }, now);
  await tx.query(
    `UPDATE c_acctschema_default SET p_landedcostclearing_acct = COALESCE(p_landedcostclearing_acct, $1) WHERE c_acctschema_id = 101 AND ad_client_id = 11`,
    [LANDED_COST_CLEARING_ACCOUNT],
  );
}

/**
 * Landed costs estimated on purchase orders: the tables C_OrderLandedCost and
 * C_OrderLandedCostAllocation (with the list of distributions they share with C_LandedCost), the
 * schema defaults' Landed Cost Clearing account and the demo's.
 */
export async function addOrderLandedCostSeed(tx: Tx, now = new Date().toISOString()): Promise<void> {
  await addListReference(tx, { id: DISTRIBUTION_REFERENCE, name: 'C_LandedCost Distribution' }, DISTRIBUTIONS, DISTRIBUTION_FIRST_LIST_ID, now);
  await addSpecTables(tx, ORDER_LANDED_COST_TABLES, { firstColumnId: FIRST_COLUMN_ID, firstElementId: FIRST_ELEMENT_ID, newElements: NEW_ELEMENTS }, now);
  await addClearingColumn(tx, now);
  await addDemoClearingAccount(tx, now);
}
