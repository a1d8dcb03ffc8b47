import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { transform } from 'esbuild';
import { projectRoot } from '../../../src/paths.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';

// A client generated from the public document by a standard generator (openapi-typescript, run
// on the TypeScript 5 it needs from scripts/openapi-client) and used through openapi-fetch: the
// program below must type-check against the generated paths (and one with a wrongly typed body
// must not), then it logs in, reads and writes records against the running server.

const generatorDir = path.dirname(createRequire(path.join(projectRoot, 'scripts', 'openapi-client', 'package.json')).resolve('openapi-typescript/package.json'));
const tsc = path.join(projectRoot, 'node_modules', '.bin', 'tsc');

const PROGRAM = `import createClient from 'openapi-fetch';
import type { components, paths } from './api.js';

type BPartner = components['schemas']['C_BPartner'];
const client = createClient<paths>({ baseUrl: process.env.DICTUM_URL! });

const login = await client.POST('/api/v1/auth/tokens', {
  body: { userName: 'GardenAdmin', password: 'GardenAdmin', parameters: { clientId: 11, roleId: 102, organizationId: 11 } },
});
if (!login.data) throw new Error('login: ' + JSON.stringify(login.error));
const headers = { Authorization: 'Bearer ' + login.data.token };

const list = await client.GET('/api/v1/models/c_bpartner', { params: { query: { $top: 2, $orderby: 'C_BPartner_ID' } }, headers });
if (!list.data) throw new Error('list: ' + JSON.stringify(list.error));
const first: BPartner = list.data.records![0]!;
const id: number = first.id!;

const one = await client.GET('/api/v1/models/c_bpartner/{id}', { params: { path: { id } }, headers });
const name: string | undefined = one.data?.Name;

const description = 'Written through the typed client';
const put = await client.PUT('/api/v1/models/c_bpartner/{id}', { params: { path: { id } }, body: { Description: description }, headers });
if (!put.data) throw new Error('update: ' + JSON.stringify(put.error));

const created = await client.POST('/api/v1/models/c_bpartner', { body: { Name: 'Typed Client Ltd', Value: 'TYPED-CLIENT' }, headers });
if (!created.data) throw new Error('create: ' + JSON.stringify(created.error));
const group = created.data.C_BP_Group_ID?.identifier;

const missing = await client.GET('/api/v1/models/c_bpartner/{id}', { params: { path: { id: 99999999 } }, headers });
console.log(JSON.stringify({ count: list.data.records!.length, id, name, updated: put.data.Description, createdId: created.data.id, group, missingStatus: missing.response.status, missingTitle: missing.error?.title }));
`;

/** The same calls with a body of the wrong type: the generated types must refuse it. */
const WRONG = PROGRAM.replace("body: { Description: description }", 'body: { Description: 42 }');

const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, files: ['program.ts'] };

describe('a typed client generated from the OpenAPI document', () => {
  let server: TestServer;
  let dir = '';
  before(async () => {
    server = await startTestServer();
    // Inside the project, so that the program finds openapi-fetch and @types/node.
    fs.mkdirSync(path.join(projectRoot, 'dist'), { recursive: true });
    dir = fs.mkdtempSync(path.join(projectRoot, 'dist', 'typed-client-'));
  });
  after(async () => {
    await server?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  // Asynchronous: the program talks to the server of this very process.
  const run = (cmd: string, args: string[], env: Record<string, string> = {}) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(cmd, args, { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
        resolve({ status: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr: stderr || (err ? String(err) : '') }),
      );
    });

  it('is generated from the public document, type-checks, logs in, reads and writes', async () => {
    const doc = await fetch(`${server.url}/api/v1/openapi.json`);
    assert.equal(doc.status, 200, 'the document needs no token');
    fs.writeFileSync(path.join(dir, 'openapi.json'), await doc.text());

    const gen = await run(process.execPath, [path.join(generatorDir, 'bin', 'cli.js'), 'openapi.json', '-o', 'api.d.ts']);
    assert.equal(gen.status, 0, gen.stderr + gen.stdout);
    const types = fs.readFileSync(path.join(dir, 'api.d.ts'), 'utf8');
    assert.match(types, /"\/api\/v1\/models\/c_bpartner\/\{id\}": \{/);

    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    fs.writeFileSync(path.join(dir, 'program.ts'), WRONG);
    const refused = await run(tsc, ['-p', 'tsconfig.json']);
    assert.notEqual(refused.status, 0, 'a number where the schema says string is a type error');
    assert.match(refused.stdout, /program\.ts\(\d+,\d+\): error TS2322/);

    fs.writeFileSync(path.join(dir, 'program.ts'), PROGRAM);
    const checked = await run(tsc, ['-p', 'tsconfig.json']);
    assert.equal(checked.status, 0, checked.stdout + checked.stderr);

    const js = await transform(PROGRAM, { loader: 'ts', format: 'esm', target: 'node20' });
    fs.writeFileSync(path.join(dir, 'program.mjs'), js.code);
    const ran = await run(process.execPath, ['program.mjs'], { DICTUM_URL: server.url });
    assert.equal(ran.status, 0, ran.stderr);
    const out = JSON.parse(ran.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    assert.equal(out.count, 2);
    assert.equal(typeof out.name, 'string');
    assert.equal(out.updated, 'Written through the typed client');
    assert.equal(out.missingStatus, 404);
    assert.equal(typeof out.missingTitle, 'string');

    // What the program wrote is there, read back without it.
    const { admin } = await demoRoleTokens(server);
    const back = await server.request('GET', `/api/v1/models/c_bpartner/${String(out.id)}`, { token: admin });
    assert.equal(back.body.Description, 'Written through the typed client');
    const created = await server.request('GET', `/api/v1/models/c_bpartner/${String(out.createdId)}`, { token: admin });
    assert.equal(created.status, 200);
    assert.equal(created.body.Name, 'Typed Client Ltd');
    assert.equal(created.body.C_BP_Group_ID.identifier, out.group);
  });
});
