import type { Tx } from '../db/types.js';
import { DEFAULT_RULES, MAX_LAG_KEY, WRITE_WINDOW_KEY } from '../db/read-replicas/read-router.js';
import { readSeed, seedTable } from './bootstrap.js';
import { insertSeedRows } from './insert-rows.js';

/**
 * The system-level settings of read routing (DATABASE_READ_URL), with their defaults, so that an
 * administrator finds and changes them like any other SysConfig row. A name already configured is
 * left as it is.
 */
export async function addReadReplicaSettings(tx: Tx, now = new Date().toISOString()): Promise<void> {
  const { dict } = readSeed();
  const setting = (id: number, name: string, value: number, description: string) => ({
    AD_SysConfig_ID: id, AD_Client_ID: 0, AD_Org_ID: 0, Name: name, Value: String(value), ConfigurationLevel: 'S', EntityType: 'D', Description: description,
  });
  const rows = [
    setting(1121000, MAX_LAG_KEY, DEFAULT_RULES.maxLagMs, 'Milliseconds a read replica may lag behind the primary and still serve reads; beyond it the replica is left out until it catches up'),
    setting(1121001, WRITE_WINDOW_KEY, DEFAULT_RULES.writeWindowMs, "Milliseconds after a session's write during which its reads go to the primary (then to a replica only once it holds the write)"),
  ];
  const { rows: taken } = await tx.query<{ name: string }>('SELECT name FROM ad_sysconfig WHERE name = ANY($1::text[]) AND ad_client_id = 0 AND ad_org_id = 0', [rows.map((r) => r.Name)]);
  const known = new Set(taken.map((r) => r.name));
  await insertSeedRows(tx, seedTable(dict, 'AD_SysConfig'), rows.filter((r) => !known.has(r.Name)), now, { skipExisting: true });
}
