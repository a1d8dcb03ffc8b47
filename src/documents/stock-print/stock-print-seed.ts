import type { Tx } from '../../db/types.js';
import { deterministicUuid } from '../../seed/deterministic-uuid.js';
import { readSeed, seedTable } from '../../seed/bootstrap.js';
import { insertSeedRows } from '../../seed/insert-rows.js';
import { INVENTORY_PRINT_PROCESS_ID, MOVE_PRINT_PROCESS_ID } from './stock-print.js';

/** Roles that print moves and counts, as they print shipments: System Administrator and GardenWorld Admin. */
const ACCESS: readonly [role: number, client: number][] = [
  [0, 0],
  [102, 11],
];

/**
 * The print processes of inventory moves (Rpt M_Movement, 290) and physical inventories (Rpt
 * M_Inventory, 291): reports without a class, which print their record by its form.
 */
export async function addStockPrintSeed(tx: Tx, now = new Date().toISOString()): Promise<void> {
  const { dict } = readSeed();
  const processes = [
    [MOVE_PRINT_PROCESS_ID, 'Rpt M_Movement', 'Inventory Move Print', 'The printed form of an inventory move'],
    [INVENTORY_PRINT_PROCESS_ID, 'Rpt M_Inventory', 'Physical Inventory Print', 'The printed form of a physical inventory or an internal use'],
  ] as const;
  await insertSeedRows(
    tx,
    seedTable(dict, 'AD_Process'),
    processes.map(([id, value, name, description]) => ({
      AD_Process_ID: id, AD_Client_ID: 0, AD_Org_ID: 0, Value: value, Name: name, Description: description,
      IsReport: 'Y', AccessLevel: '1', AllowMultipleExecution: 'P', EntityType: 'D', IsBetaFunctionality: 'N', IsDirectPrint: 'N', ShowHelp: 'Y',
    })),
    now,
    { skipExisting: true },
  );
  const { rows: roles } = await tx.query<{ r: number }>(`SELECT ad_role_id AS r FROM ad_role WHERE ad_role_id = ANY($1::bigint[])`, [ACCESS.map(([role]) => role)]);
  const existing = new Set(roles.map((r) => Number(r.r)));
  await insertSeedRows(
    tx,
    seedTable(dict, 'AD_Process_Access'),
    processes.flatMap(([id]) =>
      ACCESS.filter(([role]) => existing.has(role)).map(([role, client]) => ({
        AD_Process_ID: id, AD_Role_ID: role, AD_Client_ID: client, AD_Org_ID: 0, IsReadWrite: 'Y', AD_Process_Access_UU: deterministicUuid(`AD_Process_Access:${id}:${role}`),
      })),
    ),
    now,
    { skipExisting: true },
  );
}
