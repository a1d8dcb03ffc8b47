import { after, before } from 'node:test';
import { startTestServer, type TestServer } from './server.js';
import { login } from './login.js';

export interface DemoRoleTokens {
  admin: string;
  user: string;
  ws: string;
}

/** Tokens of the demo roles from most to least privileged: GardenAdmin (102), GardenUser (103), WebService (50004). */
export async function demoRoleTokens(server: TestServer): Promise<DemoRoleTokens> {
  return {
    admin: await login(server),
    user: await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 }),
    ws: await login(server, { userName: 'WebService', password: 'WebService', roleId: 50004 }),
  };
}

/**
 * For a describe block: a server of its own started before its tests (with the demo roles'
 * tokens) and closed after them. The fields are set once the before hook has run.
 */
export function serverWithDemoRoles(env: Record<string, string> = {}): { server: TestServer } & DemoRoleTokens {
  const fixture = {} as { server: TestServer } & DemoRoleTokens;
  before(async () => {
    fixture.server = await startTestServer(env);
    Object.assign(fixture, await demoRoleTokens(fixture.server));
  });
  after(async () => {
    await fixture.server?.close();
  });
  return fixture;
}
