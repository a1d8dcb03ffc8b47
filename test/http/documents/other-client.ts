import { randomUUID } from 'node:crypto';
import type { TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { insertSeedRows } from '../../../src/seed/insert-rows.js';

const CLIENT = 1_119_900;
const ORG = 1_119_901;
const ROLE = 1_119_902;
const USER = 1_119_903;

/**
 * A second tenant with an administrator who may run the given processes; answers the
 * administrator's token, to prove the demo company's rows stay out of its reach.
 */
export async function otherClientAdmin(server: TestServer, processIds: number[] = []): Promise<string> {
  const dict = server.services.dictionary.current;
  const now = new Date().toISOString();
  const put = (table: string, rows: Record<string, unknown>[]) => insertSeedRows(server.services.db, dict.byName.get(table.toLowerCase())!, rows, now);
  await put('AD_Client', [{ AD_Client_ID: CLIENT, AD_Org_ID: 0, Value: 'OtherCo', Name: 'Other Company', AD_Language: 'en_US' }]);
  await put('AD_Org', [{ AD_Org_ID: ORG, AD_Client_ID: CLIENT, Value: 'OHQ', Name: 'Other HQ' }]);
  await put('AD_Role', [{ AD_Role_ID: ROLE, AD_Client_ID: CLIENT, AD_Org_ID: 0, Name: 'Other Admin', UserLevel: ' CO', IsAccessAllOrgs: 'Y', IsManual: 'N' }]);
  await put('AD_User', [{ AD_User_ID: USER, AD_Client_ID: CLIENT, AD_Org_ID: 0, Name: 'OtherAdmin', Password: 'OtherAdmin1!' }]);
  await put('AD_User_Roles', [{ AD_User_ID: USER, AD_Role_ID: ROLE, AD_Client_ID: CLIENT, AD_Org_ID: 0, AD_User_Roles_UU: randomUUID() }]);
  if (processIds.length) {
    await put('AD_Process_Access', processIds.map((id) => ({ AD_Process_ID: id, AD_Role_ID: ROLE, AD_Client_ID: CLIENT, AD_Org_ID: 0, IsReadWrite: 'Y', AD_Process_Access_UU: randomUUID() })));
  }
  return login(server, { userName: 'OtherAdmin', password: 'OtherAdmin1!', clientId: CLIENT, roleId: ROLE, organizationId: ORG, warehouseId: 0 });
}
