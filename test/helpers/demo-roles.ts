import type { TestServer } from './server.js';
import { login } from './login.js';

/** Tokens of the demo roles from most to least privileged: GardenAdmin (102), GardenUser (103), WebService (50004). */
export async function demoRoleTokens(server: TestServer): Promise<{ admin: string; user: string; ws: string }> {
  return {
    admin: await login(server),
    user: await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 }),
    ws: await login(server, { userName: 'WebService', password: 'WebService', roleId: 50004 }),
  };
}
