import assert from 'node:assert/strict';
import type { TestServer } from './server.js';

export interface LoginOptions {
  userName?: string;
  password?: string;
  clientId?: number;
  roleId?: number;
  organizationId?: number;
  warehouseId?: number;
}

/** One-step login; returns the access token (GardenAdmin in HQ by default). */
export async function login(server: TestServer, o: LoginOptions = {}): Promise<string> {
  const r = await server.request('POST', '/api/v1/auth/tokens', {
    body: {
      userName: o.userName ?? 'GardenAdmin',
      password: o.password ?? 'GardenAdmin',
      parameters: {
        clientId: o.clientId ?? 11,
        roleId: o.roleId ?? 102,
        organizationId: o.organizationId ?? 11,
        ...(o.warehouseId === 0 ? {} : { warehouseId: o.warehouseId ?? 103 }),
      },
    },
  });
  assert.equal(r.status, 200, `login failed: ${r.text}`);
  return r.body.token as string;
}

/** Login as SuperUser with the System role (client 0), which maintains the dictionary. */
export const systemLogin = (server: TestServer): Promise<string> =>
  login(server, { userName: 'SuperUser', password: 'System', clientId: 0, roleId: 0, organizationId: 0, warehouseId: 0 });
