import assert from 'node:assert/strict';
import { decodeJwt, decodeProtectedHeader, type JWTPayload } from 'jose';
import { insertRow } from '../../../src/auth/util.js';
import type { TestResponse, TestServer } from '../../helpers/server.js';

export const ADMIN = { userName: 'GardenAdmin', password: 'GardenAdmin' };
export const FULL = { clientId: 11, roleId: 102, organizationId: 11, warehouseId: 103 };

/** Sets an AD_SysConfig value (System level unless a client is given) and drops the cached copy. */
export async function setSysConfig(server: TestServer, name: string, value: string, clientId = 0): Promise<void> {
  const db = server.services.db;
  const r = await db.query(`UPDATE ad_sysconfig SET value = $3, isactive = 'Y' WHERE name = $1 AND ad_client_id = $2 AND ad_org_id = 0`, [name, clientId, value]);
  if (!r.rowCount) await insertRow(db, 'AD_SysConfig', { name, value, configurationlevel: clientId ? 'C' : 'S', entitytype: 'U', description: 'set by a test' }, { clientId });
  server.services.sysConfig.clear();
}

/** Removes an AD_SysConfig value set by a test. */
export async function clearSysConfig(server: TestServer, name: string): Promise<void> {
  await server.services.db.query(`DELETE FROM ad_sysconfig WHERE name = $1`, [name]);
  server.services.sysConfig.clear();
}

/** A one-step login; returns the whole response. */
export function loginRequest(server: TestServer, o: { userName?: string; password?: string; parameters?: Record<string, unknown> } = {}): Promise<TestResponse> {
  return server.request('POST', '/api/v1/auth/tokens', {
    body: { userName: o.userName ?? ADMIN.userName, password: o.password ?? ADMIN.password, parameters: o.parameters ?? FULL },
  });
}

/** A one-step login that must succeed; returns token and refresh token. */
export async function loginPair(server: TestServer, parameters: Record<string, unknown> = FULL): Promise<{ token: string; refresh_token: string; body: Record<string, unknown> }> {
  const r = await loginRequest(server, { parameters });
  assert.equal(r.status, 200, r.text);
  return { token: r.body.token, refresh_token: r.body.refresh_token, body: r.body };
}

export const claims = (token: string): JWTPayload & Record<string, unknown> => decodeJwt(token) as JWTPayload & Record<string, unknown>;
export const header = (token: string) => decodeProtectedHeader(token);

/** The error body of the spec, with the status repeated. */
export function assertError(r: TestResponse, status: number, detail?: RegExp): void {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.status, status);
  assert.equal(typeof r.body.title, 'string');
  assert.ok(r.body.title.length > 0);
  if (detail) assert.match(String(r.body.detail ?? ''), detail);
}

/** A 401 with the error body and a Bearer challenge. */
export function assertUnauthorized(r: TestResponse, detail?: RegExp): void {
  assertError(r, 401, detail);
  assert.match(r.headers.get('www-authenticate') ?? '', /^Bearer/);
}

/** A GET of records that needs a valid token. */
export const probe = (server: TestServer, token: string): Promise<TestResponse> => server.request('GET', '/api/v1/models/c_bpartner?$top=1&$select=Name', { token });

/** Secrets that must never appear in a response body. */
export function assertNoSecrets(text: string): void {
  assert.doesNotMatch(text, /\$argon2/, 'an argon2 hash');
  assert.doesNotMatch(text, /"d"\s*:/, 'a private key part');
  assert.doesNotMatch(text, /"(Password|CodeHash|VerifiedTokenHash|RefreshToken|Token|PrivateKey|Salt)"\s*:/, 'a secret column');
}

/** The newest outbox mail to an address, with the reset code it carries. */
export async function lastMail(server: TestServer, to: string): Promise<{ subject: string; body: string; language: string; code: string } | null> {
  const { rows } = await server.services.db.query<{ subject: string; bodytext: string; language: string }>(
    `SELECT subject, bodytext, language FROM rest_mail WHERE lower(mailto) = lower($1) ORDER BY rest_mail_id DESC LIMIT 1`,
    [to],
  );
  const m = rows[0];
  if (!m) return null;
  const code = /\b(\d{4,12})\b/.exec(m.bodytext)?.[1] ?? '';
  return { subject: m.subject, body: m.bodytext, language: m.language, code };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
