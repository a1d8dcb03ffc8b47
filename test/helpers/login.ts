import assert from 'node:assert/strict';
import type { TestServer } from './server.js';
import { clearRoleType } from '../../src/auth/clear-role-type.js';

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

/**
 * Login as SuperUser with the System role (client 0), which maintains the dictionary. The demo
 * System role has Role Type WebUI and cannot log in over REST: this clears it first, as an
 * administrator does with `clear-role-type 0` (README, docs/auth.md).
 */
export async function systemLogin(server: TestServer): Promise<string> {
  await clearRoleType(server.services.db, 0);
  return login(server, { userName: 'SuperUser', password: 'System', clientId: 0, roleId: 0, organizationId: 0, warehouseId: 0 });
}
