import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { insertRow } from '../../../src/auth/util.js';
import { ADMIN, FULL, claims, loginRequest, probe } from './auth-helpers.js';

/**
 * The login language: a language the system does not have is ignored (the original keeps the
 * user's preferred or the client's language), on POST and PUT /auth/tokens alike.
 */
describe('login language', () => {
  let server: TestServer;
  let adminId = 0;
  const db = () => server.services.db;
  const language = (r: { body: { language: string; token: string } }) => {
    assert.equal(claims(r.body.token).AD_Language, r.body.language, 'the token carries the language answered');
    return r.body.language;
  };
  const stepToken = async (userName = ADMIN.userName, password = ADMIN.password) => {
    const first = await server.request('POST', '/api/v1/auth/tokens', { body: { userName, password } });
    assert.equal(first.status, 200, first.text);
    return first.body.token as string;
  };
  const put = (token: string, body: Record<string, unknown>) => server.request('PUT', '/api/v1/auth/tokens', { token, body });
  const setPreference = async (value: string | null) => {
    await db().query(`DELETE FROM ad_preference WHERE attribute = 'Language' AND ad_user_id = $1`, [adminId]);
    if (value !== null) await insertRow(db(), 'AD_Preference', { attribute: 'Language', value, ad_user_id: adminId, preferencefor: 'W' }, { clientId: 11, userId: adminId });
  };

  before(async () => {
    server = await startTestServer();
    // German becomes a system language; Italian stays unknown to the system.
    await db().query(`UPDATE ad_language SET isactive = 'Y', issystemlanguage = 'Y' WHERE ad_language = 'de_DE'`);
    const { rows } = await db().query<{ ad_user_id: number }>(`SELECT ad_user_id FROM ad_user WHERE name = 'GardenAdmin'`);
    adminId = Number(rows[0]!.ad_user_id);
  });
  after(async () => {
    await server.close();
  });

  it('ignores a language the system does not have on a one-step POST, answering the client language', async () => {
    for (const lang of ['it_IT', 'xx_XX', 'it', '', 'a-language-of-20ch', 'Italiano (Italia), the language of the country of Italy']) {
      const r = await loginRequest(server, { parameters: { ...FULL, language: lang } });
      assert.equal(r.status, 200, `${lang}: ${r.text}`);
      assert.equal(language(r), 'en_US', lang);
      assert.deepEqual(Object.keys(r.body), ['userId', 'language', 'menuTreeId', 'token', 'refresh_token']);
      assert.equal((await probe(server, r.body.token)).status, 200);
    }
  });

  it('ignores it on PUT with the first-step token and on PUT with a full token', async () => {
    const first = await put(await stepToken(), { ...FULL, language: 'it_IT' });
    assert.equal(first.status, 200, first.text);
    assert.equal(language(first), 'en_US');
    const again = await put(first.body.token, { ...FULL, language: 'it_IT' });
    assert.equal(again.status, 200, again.text);
    assert.equal(language(again), 'en_US');
    assert.equal((await probe(server, again.body.token)).status, 200);
  });

  it('takes a language the system has, in either spelling and any case', async () => {
    for (const lang of ['de_DE', 'de-DE', 'DE_de']) {
      const r = await loginRequest(server, { parameters: { ...FULL, language: lang } });
      assert.equal(r.status, 200, r.text);
      assert.equal(language(r), 'de_DE', lang);
    }
    const p = await put(await stepToken(), { ...FULL, language: 'de_DE' });
    assert.equal(language(p), 'de_DE');
  });

  it('answers the least privileged role alike', async () => {
    const r = await loginRequest(server, { userName: 'WebService', password: 'WebService', parameters: { clientId: 11, roleId: 50004, organizationId: 11, language: 'it_IT' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(language(r), 'en_US');
    const p = await put(await stepToken('WebService', 'WebService'), { clientId: 11, roleId: 50004, organizationId: 11, language: 'it_IT' });
    assert.equal(p.status, 200, p.text);
    assert.equal(language(p), 'en_US');
  });

  it("falls back to the user's Language preference before the client's language", async () => {
    try {
      await setPreference('de_DE');
      assert.equal(language(await loginRequest(server)), 'de_DE', 'no language asked');
      assert.equal(language(await loginRequest(server, { parameters: { ...FULL, language: 'it_IT' } })), 'de_DE', 'an unknown one asked');
      assert.equal(language(await loginRequest(server, { parameters: { ...FULL, language: 'en_US' } })), 'en_US', 'a known one asked wins');
      assert.equal(language(await put(await stepToken(), { ...FULL, language: 'it_IT' })), 'de_DE');
      await setPreference('German (Germany)');
      assert.equal(language(await loginRequest(server)), 'de_DE', 'a preference may name the language');
      await setPreference('Klingon');
      assert.equal(language(await loginRequest(server)), 'en_US', 'a preference naming no language gives the base language');
      // Another user's preference is not this user's.
      const user = await loginRequest(server, { userName: 'GardenUser', password: 'GardenUser', parameters: { clientId: 11, roleId: 103, organizationId: 11 } });
      assert.equal(language(user), 'en_US');
    } finally {
      await setPreference(null);
    }
  });

  it("uses the client's language when the user has no preference; /auth/language answers the client's", async () => {
    try {
      await db().query(`UPDATE ad_client SET ad_language = 'de_DE' WHERE ad_client_id = 11`);
      assert.equal(language(await loginRequest(server, { parameters: { ...FULL, language: 'it_IT' } })), 'de_DE');
      await setPreference('en_US');
      assert.equal(language(await loginRequest(server)), 'en_US', "the user's preference comes first");
      const lang = await server.request('GET', '/api/v1/auth/language?client=11', { token: await stepToken() });
      assert.deepEqual(lang.body, { AD_Language: 'de_DE' });
      const other = await server.request('GET', '/api/v1/auth/language?client=999', { token: await stepToken() });
      assert.equal(other.status, 401, 'a client the user has no role in');
      assert.equal(other.body.detail, 'Invalid client');
    } finally {
      await setPreference(null);
      await db().query(`UPDATE ad_client SET ad_language = 'en_US' WHERE ad_client_id = 11`);
    }
  });
});
