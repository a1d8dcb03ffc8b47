/**
 * Isolation matrix: two clients (GardenWorld and a second client made in the test's database) x
 * the demo roles x the tables of the dictionary x read, list, create, update, delete, document
 * action, process run, attachment, upload and export, with every expected answer following from
 * the access rules written as data (access-rules.ts). Counts leaks (a role sees a row of the other
 * client) and escalations (a write the rules do not allow succeeds or changes a row); both must be 0.
 * CI samples PROOF_TABLES tables per access level with PROOF_SEED; PROOF_ALL=1 takes every table.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { Table } from '../../../src/dictionary/model.js';
import { insertSeedRows } from '../../../src/seed/insert-rows.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { ACTORS, DENIED, GARDEN_WORLD, HIDDEN, OTHER_CLIENT, OTHER_ORG, OTHER_ROLE, OTHER_USER, REFUSED, mayWrite, type Actor } from './access-rules.js';

const ALL = process.env.PROOF_ALL === '1';
const PER_LEVEL = Number(process.env.PROOF_TABLES ?? 5);
const SEED = Number(process.env.PROOF_SEED ?? 20261128);
/** Tables always in the matrix: the documents, master data and security tables. */
const CORE = ['c_bpartner', 'c_order', 'c_invoice', 'c_payment', 'm_inout', 'm_product', 'gl_journal', 'ad_user', 'ad_role', 'ad_user_roles', 'm_warehouse', 'c_bankstatement', 'fact_acct', 'r_request'];
/** First id of the second client's copies of rows (the proof part's id range). */
const FIRST_COPY_ID = 1_113_100;
const q = encodeURIComponent;

interface Subject {
  table: Table;
  /** A row of each client, with its organisation. */
  rows: Record<number, { id: number; org: number | null } | undefined>;
  /** The column an update changes, when the table has one. */
  change: string | null;
  /** Other endpoints that show the table's rows: window slugs (first tab) and view names. */
  windows: string[];
  views: string[];
}

type Outcome = 'checked' | 'leak' | 'escalation';

describe('isolation matrix over every table and endpoint', () => {
  let server: TestServer;
  const tokens: Record<string, string> = {};
  const subjects: Subject[] = [];
  /** Tally by operation and actor: checks made, leaks, escalations. */
  const tally = new Map<string, { checks: number; leaks: number; escalations: number }>();
  const findings: string[] = [];
  let nextId = FIRST_COPY_ID;

  const db = () => server.services.db;
  const rowText = async (t: Table, id: number) => (await db().query<{ j: string }>(`SELECT row_to_json(proof_row)::text AS j FROM ${t.dbName} proof_row WHERE ${t.keyColumn!.dbName} = $1`, [id])).rows[0]?.j ?? null;
  const count = async (t: Table, client: number) => Number((await db().query<{ n: string }>(`SELECT count(*) AS n FROM ${t.dbName} WHERE ad_client_id = $1`, [client])).rows[0]!.n);

  const note = (op: string, actor: string, outcome: Outcome, detail: string) => {
    const key = `${op}\u0000${actor}`;
    const t = tally.get(key) ?? { checks: 0, leaks: 0, escalations: 0 };
    tally.set(key, t);
    t.checks++;
    if (outcome === 'leak') t.leaks++;
    if (outcome === 'escalation') t.escalations++;
    if (outcome !== 'checked' && findings.length < 40) findings.push(`${outcome}: ${actor} ${op} ${detail}`);
  };
  const as = (actor: string, method: string, path: string, body?: unknown) => server.request(method, path, { token: tokens[actor], body });

  /** A copy of a GardenWorld row in the second client (same values, new id and UUID), or null when the table refuses one. */
  async function copyToOtherClient(t: Table, sourceId: number): Promise<{ id: number; org: number | null } | null> {
    // The client's and organisation's own rows are made in `before`, with the other rows of the second client.
    if (t.dbName === 'ad_client') return { id: OTHER_CLIENT, org: 0 };
    if (t.dbName === 'ad_org') return { id: OTHER_ORG, org: OTHER_ORG };
    const row = (await db().query<Record<string, unknown>>(`SELECT * FROM ${t.dbName} WHERE ${t.keyColumn!.dbName} = $1`, [sourceId])).rows[0]!;
    const id = nextId++;
    row[t.keyColumn!.dbName] = id;
    if (t.uuColumn && t.uuColumn.dbName in row) row[t.uuColumn.dbName] = randomUUID();
    row.ad_client_id = OTHER_CLIENT;
    const org = 'ad_org_id' in row ? (Number(row.ad_org_id) === 0 ? 0 : OTHER_ORG) : null;
    if (org !== null) row.ad_org_id = org;
    const names = Object.keys(row);
    try {
      await db().query(`INSERT INTO ${t.dbName} (${names.map((n) => `"${n}"`).join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})`, names.map((n) => row[n]));
      return { id, org };
    } catch (e) {
      if (process.env.PROOF_DEBUG) console.log(`no copy of ${t.dbName}: ${String(e)}`);
      return null;
    }
  }

  before(async () => {
    server = await startTestServer();
    const dict = server.services.dictionary.current;
    const now = new Date().toISOString();
    const put = (table: string, rows: Record<string, unknown>[]) => insertSeedRows(db(), dict.byName.get(table.toLowerCase())!, rows, now);
    await put('AD_Client', [{ AD_Client_ID: OTHER_CLIENT, AD_Org_ID: 0, Value: 'ProofCo', Name: 'Proof Company', AD_Language: 'en_US' }]);
    await put('AD_Org', [{ AD_Org_ID: OTHER_ORG, AD_Client_ID: OTHER_CLIENT, Value: 'PHQ', Name: 'Proof HQ' }]);
    await put('AD_Role', [{ AD_Role_ID: OTHER_ROLE, AD_Client_ID: OTHER_CLIENT, AD_Org_ID: 0, Name: 'Proof Admin', UserLevel: ' CO', IsAccessAllOrgs: 'Y', IsClientAdministrator: 'Y', IsManual: 'N' }]);
    await put('AD_User', [{ AD_User_ID: OTHER_USER, AD_Client_ID: OTHER_CLIENT, AD_Org_ID: 0, Name: 'ProofAdmin', Password: 'ProofAdmin1!' }]);
    await put('AD_User_Roles', [{ AD_User_ID: OTHER_USER, AD_Role_ID: OTHER_ROLE, AD_Client_ID: OTHER_CLIENT, AD_Org_ID: 0, AD_User_Roles_UU: randomUUID() }]);

    // The demo roles' facts the expectations rest on are what the seed holds.
    for (const a of Object.values(ACTORS).filter((x) => x.client === GARDEN_WORLD)) {
      const r = (await db().query<{ userlevel: string; isclientadministrator: string }>('SELECT userlevel, isclientadministrator FROM ad_role WHERE ad_role_id = $1', [a.role])).rows[0]!;
      assert.equal(r.userlevel, a.userLevel, `role ${a.role}`);
      assert.equal(r.isclientadministrator === 'Y', a.clientAdministrator, `role ${a.role}`);
      const orgs = (await db().query<{ ad_org_id: number }>(`SELECT ad_org_id FROM ad_role_orgaccess WHERE ad_role_id = $1 AND isactive = 'Y' AND isreadonly = 'N' ORDER BY 1`, [a.role])).rows.map((o) => Number(o.ad_org_id));
      assert.deepEqual(orgs, [...a.writableOrgs!].sort((x, y) => x - y), `organisations of role ${a.role}`);
    }
    tokens['GardenWorld admin'] = await login(server);
    tokens['GardenWorld user'] = await login(server, { userName: 'GardenUser', password: 'GardenUser', roleId: 103 });
    tokens['GardenWorld web service'] = await login(server, { userName: 'WebService', password: 'WebService', roleId: 50004 });
    tokens['Other admin'] = await login(server, { userName: 'ProofAdmin', password: 'ProofAdmin1!', clientId: OTHER_CLIENT, roleId: OTHER_ROLE, organizationId: OTHER_ORG, warehouseId: 0 });

    // Tables with a client and a numeric key; CI takes a seeded sample per access level.
    const candidates = [...dict.byName.values()].filter((t, i, all) => all.indexOf(t) === i && !t.isView && t.byName.has('ad_client_id') && t.keyColumn && t.keyColumn.dbName === `${t.dbName}_id`);
    let chosen = candidates;
    if (!ALL) {
      // The sample is drawn from tables GardenWorld has rows in, which the second client gets copies of.
      const withRows: Table[] = [];
      for (const t of candidates) if ((await db().query(`SELECT 1 FROM ${t.dbName} WHERE ad_client_id = $1 LIMIT 1`, [GARDEN_WORLD])).rows.length) withRows.push(t);
      const byLevel = new Map<string, Table[]>();
      for (const t of withRows) byLevel.set(t.accessLevel, [...(byLevel.get(t.accessLevel) ?? []), t]);
      const picked = new Set(candidates.filter((t) => CORE.includes(t.dbName)));
      let seed = SEED;
      for (const tables of byLevel.values()) {
        const sample = fc.sample(fc.shuffledSubarray(tables, { minLength: Math.min(PER_LEVEL, tables.length), maxLength: Math.min(PER_LEVEL, tables.length) }), { seed: seed++, numRuns: 1 })[0]!;
        for (const t of sample) picked.add(t);
      }
      chosen = [...picked];
    }
    const windowSlugs = new Map<number, string>();
    for (const w of (await as('GardenWorld admin', 'GET', '/api/v1/windows')).body.windows as { id: number; slug: string }[]) windowSlugs.set(w.id, w.slug);
    const views = (await as('GardenWorld admin', 'GET', '/api/v1/views')).body.views as { name: string; tableName: string }[];
    for (const table of chosen.sort((a, b) => a.dbName.localeCompare(b.dbName))) {
      const key = table.keyColumn!.dbName;
      const own = (await db().query<{ id: number; org: number | null }>(`SELECT ${key} AS id, ${table.byName.has('ad_org_id') ? 'ad_org_id' : 'NULL'} AS org FROM ${table.dbName} WHERE ad_client_id = $1 ORDER BY ${key} LIMIT 1`, [GARDEN_WORLD])).rows[0];
      const ownRow = own ? { id: Number(own.id), org: own.org === null ? null : Number(own.org) } : undefined;
      const other = ownRow ? ((await copyToOtherClient(table, ownRow.id)) ?? undefined) : undefined;
      const change = ['description', 'name', 'help', 'comments', 'value'].map((c) => table.byName.get(c)).find((c) => c && c.isUpdateable)?.name ?? null;
      const tabs = await db().query<{ ad_window_id: number }>(`SELECT DISTINCT ad_window_id FROM ad_tab WHERE ad_table_id = $1 AND tablevel = 0 AND isactive = 'Y'`, [table.id]);
      const windows = tabs.rows.map((r) => windowSlugs.get(Number(r.ad_window_id))).filter((w): w is string => w !== undefined);
      subjects.push({ table, rows: { [GARDEN_WORLD]: ownRow, [OTHER_CLIENT]: other }, change, windows, views: views.filter((v) => v.tableName === table.dbName).map((v) => v.name) });
    }
    assert.ok(subjects.filter((s) => s.rows[OTHER_CLIENT]).length >= 10, 'the second client has rows in many tables');
  });
  after(async () => {
    await server?.close();
  });

  it('never shows an actor a row of the other client, through any endpoint', async () => {
    for (const [name, actor] of Object.entries(ACTORS)) {
      const otherClient = actor.client === GARDEN_WORLD ? OTHER_CLIENT : GARDEN_WORLD;
      for (const s of subjects) {
        const foreign = s.rows[otherClient];
        const t = s.table;
        const list = await as(name, 'GET', `/api/v1/models/${t.modelName}?$filter=${q(`AD_Client_ID eq ${otherClient}`)}&$top=5`);
        const listLeaks = list.status === 200 && Array.isArray(list.body.records) && list.body.records.length > 0;
        note('list', name, listLeaks || list.status >= 500 ? 'leak' : 'checked', `${t.dbName}: ${list.status} ${list.text.slice(0, 160)}`);
        if (!foreign) continue;
        const paths: [string, string][] = [
          ['read', `/api/v1/models/${t.modelName}/${foreign.id}`],
          ['read', `/api/v1/models/${t.modelName}/${foreign.id}/${s.change ?? 'Created'}`],
          ['attachment', `/api/v1/models/${t.modelName}/${foreign.id}/attachments`],
          ['export', `/api/v1/models/${t.modelName}/${foreign.id}/print?$report_type=csv`],
          ['archive', `/api/v1/models/${t.modelName}/${foreign.id}/archives`],
          ...s.windows.map((w): [string, string] => ['window read', `/api/v1/windows/${w}/${foreign.id}`]),
          ...s.views.map((v): [string, string] => ['view read', `/api/v1/views/${v}/${foreign.id}`]),
        ];
        for (const [op, path] of paths) {
          const r = await as(name, 'GET', path);
          note(op, name, HIDDEN.includes(r.status) ? 'checked' : 'leak', `${path}: ${r.status} ${r.text.slice(0, 160)}`);
        }
        // The same row through the list with an explicit id, and through an expansion.
        const byId = await as(name, 'GET', `/api/v1/models/${t.modelName}?$filter=${q(`${t.keyColumn!.name} eq ${foreign.id}`)}`);
        note('list', name, byId.status === 200 && byId.body.records?.length ? 'leak' : 'checked', `${t.dbName} by id: ${byId.text.slice(0, 160)}`);
      }
    }
  });

  it('refuses every write into the other client and changes nothing there', async () => {
    for (const [name, actor] of Object.entries(ACTORS)) {
      const otherClient = actor.client === GARDEN_WORLD ? OTHER_CLIENT : GARDEN_WORLD;
      for (const s of subjects) {
        const t = s.table;
        const foreign = s.rows[otherClient];
        const before = await count(t, otherClient);
        const create = await as(name, 'POST', `/api/v1/models/${t.modelName}`, { AD_Client_ID: otherClient, ...(s.change ? { [s.change]: 'proof' } : {}) });
        const created = (await count(t, otherClient)) !== before;
        note('create', name, created || !REFUSED.includes(create.status) ? 'escalation' : 'checked', `${t.dbName}: ${create.status} ${create.text.slice(0, 160)}`);
        if (!foreign) continue;
        const was = await rowText(t, foreign.id);
        const writes: [string, string, string, unknown][] = [
          ['update', 'PUT', `/api/v1/models/${t.modelName}/${foreign.id}`, { [s.change ?? 'IsActive']: s.change ? 'proof' : false }],
          ['document action', 'PUT', `/api/v1/models/${t.modelName}/${foreign.id}`, { 'doc-action': 'CO' }],
          ['attachment', 'POST', `/api/v1/models/${t.modelName}/${foreign.id}/attachments`, { name: 'proof.txt', data: Buffer.from('proof').toString('base64') }],
          ['process run', 'POST', `/api/v1/processes/${processSlug}`, { 'record-id': foreign.id, 'model-name': t.modelName }],
          ['delete', 'DELETE', `/api/v1/models/${t.modelName}/${foreign.id}`, undefined],
        ];
        for (const [op, method, path, body] of writes) {
          const r = await as(name, method, path, body);
          const now = await rowText(t, foreign.id);
          note(op, name, now !== was || !HIDDEN.includes(r.status) ? 'escalation' : 'checked', `${t.dbName} ${foreign.id}: ${r.status} ${r.text.slice(0, 160)}`);
        }
      }
    }
  });

  it('refuses a write in the own client that the rules do not allow the role, and changes nothing', async () => {
    for (const [name, actor] of Object.entries(ACTORS)) {
      for (const s of subjects) {
        const t = s.table;
        const own = s.rows[actor.client];
        if (!own || mayWrite(actor, t, own.org)) continue;
        const was = await rowText(t, own.id);
        const writes: [string, string, unknown][] = [
          ['update', 'PUT', { [s.change ?? 'IsActive']: s.change ? 'proof' : false }],
          ['delete', 'DELETE', undefined],
        ];
        for (const [op, method, body] of writes) {
          const r = await as(name, method, `/api/v1/models/${t.modelName}/${own.id}`, body);
          const now = await rowText(t, own.id);
          note(`${op} (own client)`, name, now !== was || !DENIED.includes(r.status) ? 'escalation' : 'checked', `${t.dbName} ${own.id} org ${own.org}: ${r.status} ${r.text.slice(0, 160)}`);
        }
        if (!ownClientCreateDenied(actor, t)) continue;
        const before = await count(t, actor.client);
        const create = await as(name, 'POST', `/api/v1/models/${t.modelName}`, { AD_Org_ID: own.org ?? 0, ...(s.change ? { [s.change]: 'proof' } : {}) });
        const created = (await count(t, actor.client)) !== before;
        note('create (own client)', name, created || !DENIED.includes(create.status) ? 'escalation' : 'checked', `${t.dbName}: ${create.status} ${create.text.slice(0, 160)}`);
      }
    }
  });

  it('keeps uploads to the actor that made them', async () => {
    const made = await as('Other admin', 'POST', '/api/v1/uploads', { fileName: 'proof.txt', contentType: 'text/plain', fileSize: 5, chunkSize: 5 });
    assert.equal(made.status, 201, made.text);
    const id = made.body.uploadId as string;
    for (const name of Object.keys(ACTORS).filter((n) => ACTORS[n]!.client === GARDEN_WORLD)) {
      for (const [method, path] of [['GET', `/api/v1/uploads/${id}`], ['GET', `/api/v1/uploads/${id}/file`], ['DELETE', `/api/v1/uploads/${id}`], ['POST', `/api/v1/uploads/${id}/copy`]] as const) {
        const r = await as(name, method, path, method === 'POST' ? { tableName: 'C_BPartner', recordId: 117 } : undefined);
        note('upload', name, HIDDEN.includes(r.status) || (method === 'POST' && r.status === 400) ? 'checked' : method === 'GET' ? 'leak' : 'escalation', `${method} ${path}: ${r.status} ${r.text.slice(0, 160)}`);
      }
      const listed = await as(name, 'GET', '/api/v1/uploads');
      note('upload', name, JSON.stringify(listed.body ?? '').includes(id) ? 'leak' : 'checked', `list: ${listed.status}`);
    }
    const still = await as('Other admin', 'GET', `/api/v1/uploads/${id}`);
    assert.equal(still.status, 200, 'the owner still has its upload');
  });

  it('prints the matrix: 0 leaks and 0 escalations', () => {
    const rows = [...tally.entries()].map(([k, v]): [string, string, typeof v] => [k.split('\u0000')[0]!, k.split('\u0000')[1]!, v]).sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]));
    const total = rows.reduce((s, [, , v]) => ({ checks: s.checks + v.checks, leaks: s.leaks + v.leaks, escalations: s.escalations + v.escalations }), { checks: 0, leaks: 0, escalations: 0 });
    const line = (op: string, actor: string, v: { checks: number; leaks: number; escalations: number }) => `${op.padEnd(22)} ${actor.padEnd(24)} ${String(v.checks).padStart(6)} ${String(v.leaks).padStart(6)} ${String(v.escalations).padStart(11)}`;
    console.log(`isolation matrix: ${subjects.length} tables (${subjects.filter((s) => s.rows[OTHER_CLIENT]).length} with rows in both clients)${ALL ? ', all tables' : `, seed ${SEED}`}\n${line('operation', 'actor', { checks: 0, leaks: 0, escalations: 0 }).replace(/ +0 +0 +0$/, '  checks  leaks escalations')}\n${rows.map(([op, actor, v]) => line(op, actor, v)).join('\n')}\n${line('total', '', total)}`);
    assert.deepEqual(findings, []);
    assert.ok(total.checks > 500, `${total.checks} checks`);
  });

  let processSlug = 'nosuch';
  before(async () => {
    // A process of the reports kind, which takes the record it is run for.
    const list = await as('GardenWorld admin', 'GET', `/api/v1/processes?$filter=${q("IsReport eq true")}&$top=1`);
    processSlug = list.body?.processes?.[0]?.slug ?? processSlug;
  });
});

/** A create in the own client is refused by the table's level or its being administrator's or documents' alone. */
function ownClientCreateDenied(actor: Actor, t: Table): boolean {
  return !mayWrite(actor, t, null);
}
