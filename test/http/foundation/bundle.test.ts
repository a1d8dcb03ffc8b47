import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { parse as parseCsv } from 'csv-parse/sync';
import { projectRoot } from '../../../src/paths.js';
import { freshDatabase, serverUrl, type FreshDatabase } from '../../helpers/database.js';
import { startServiceProcess, type InstanceProcess } from '../../helpers/instance-process.js';

/**
 * `npm start` runs the bundle (scripts/bundle.mjs) through its loader (scripts/bundle-loader.mjs),
 * while the other tests run the separate modules. A library the service imports on first use may
 * reach the bundle in another shape than Node's own loader gives (a CommonJS package without its
 * named exports), so every such import is used here once, through the bundle started as `npm start`
 * starts it, as a client would.
 */
const startScript = path.join(projectRoot, 'scripts', 'start.mjs');

/** The fields of an instance's "Dictum is serving" log line. */
const servingLine = (output: string): Record<string, unknown> => JSON.parse(output.split('\n').find((l) => l.includes('Dictum is serving'))!) as Record<string, unknown>;

describe('the bundled service', () => {
  let db: FreshDatabase;
  let instance: InstanceProcess;
  let token: string;

  const call = async (method: string, p: string, body?: unknown) => {
    const r = await fetch(`${instance.url}${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const bytes = Buffer.from(await r.arrayBuffer());
    return { status: r.status, type: r.headers.get('content-type') ?? '', bytes, text: bytes.toString('utf8') };
  };
  const json = (r: { text: string }) => JSON.parse(r.text) as Record<string, any>;
  const file = (r: { text: string }, member: string) => Buffer.from(json(r)[member] as string, 'base64');

  before(async () => {
    db = await freshDatabase();
    instance = await startServiceProcess(startScript, { DATABASE_URL: db.databaseUrl ?? '', DICTUM_DATA_DIR: db.dataDir });
    const r = await fetch(`${instance.url}/api/v1/auth/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'GardenAdmin', password: 'GardenAdmin', parameters: { clientId: 11, roleId: 102, organizationId: 11, warehouseId: 103 } }),
    });
    assert.equal(r.status, 200);
    token = ((await r.json()) as { token: string }).token;
  });
  after(async () => {
    instance?.child.kill('SIGTERM');
    if (instance) await new Promise((resolve) => instance.child.once('exit', resolve));
    await db?.drop();
  });

  it('serves a model as YAML', async () => {
    const r = await call('GET', '/api/v1/models/ad_user/yaml');
    assert.equal(r.status, 200, r.text);
    assert.match(r.type, /^application\/yaml/);
    assert.ok(parseYaml(r.text).paths, 'an OpenAPI document');
  });

  it('renders reports as CSV, XLSX and PDF', async () => {
    const report = (type?: string) => call('POST', '/api/v1/processes/rv_orderdetail', { C_BPartner_ID: '117,118', ...(type ? { 'report-type': type } : {}) });
    const csv = await report('CSV');
    assert.equal(csv.status, 200, csv.text);
    const rows = parseCsv(file(csv, 'exportFile')) as string[][];
    assert.ok(rows.length > 1, 'a header and rows');
    const xlsx = await report('XLSX');
    assert.equal(file(xlsx, 'exportFile').subarray(0, 2).toString('latin1'), 'PK', xlsx.text.slice(0, 300));
    const pdf = await report();
    assert.equal(file(pdf, 'reportFile').subarray(0, 5).toString('latin1'), '%PDF-', pdf.text.slice(0, 300));
  });

  it('exports and imports records as CSV', async () => {
    const imported = await call('POST', '/api/v1/processes/rest_importbpartners', { FileName: { fileName: 'partners.csv', fileContent: Buffer.from('Value,Name\nBUNDLE-1,Bundled One\n').toString('base64') } });
    assert.equal(imported.status, 200, imported.text);
    assert.equal(json(imported).summary, 'Business partners imported from partners.csv: 1');
    const exported = await call('POST', '/api/v1/processes/rest_exportrecords', { AD_Table_ID: 291, Filter: "Value eq 'BUNDLE-1'" });
    assert.equal(exported.status, 200, exported.text);
    const rows = parseCsv(file(exported, 'exportFile'), { columns: true }) as Record<string, string>[];
    assert.deepEqual(rows.map((x) => [x.Value, x.Name]), [['BUNDLE-1', 'Bundled One']]);
  });

  it('draws a chart', async () => {
    const r = await call('GET', '/api/v1/charts/50002');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.type, 'image/png');
    assert.equal(r.bytes.subarray(1, 4).toString('latin1'), 'PNG');
  });

  it('keeps the code V8 compiled, and the next start takes it', async () => {
    // The first instance, serving, wrote a cache unless it had one that V8 took (bundle-loader.mjs).
    assert.match(String(servingLine(instance.output()).codeCache), /^(absent|rejected|accepted)$/);
    const other = await freshDatabase();
    const next = await startServiceProcess(startScript, { DATABASE_URL: other.databaseUrl ?? '', DICTUM_DATA_DIR: other.dataDir });
    try {
      assert.equal(servingLine(next.output()).codeCache, 'accepted');
      const r = await fetch(`${next.url}/api/v1/health`);
      assert.equal(r.status, 200);
    } finally {
      next.child.kill('SIGTERM');
      await new Promise((resolve) => next.child.once('exit', resolve));
      await other.drop();
    }
  });

  // V8 checks a code cache against its flags, and the embedded driver sets one (its WASM tiering
  // budget): start.mjs sets it on a server too, so that both kinds of instance take one cache.
  it('an embedded instance takes the code cache a server instance wrote', { skip: !serverUrl }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-bundle-'));
    const embedded = await startServiceProcess(startScript, { DATABASE_URL: '', DICTUM_DATA_DIR: dataDir });
    try {
      assert.equal(servingLine(embedded.output()).database, 'pglite');
      assert.equal(servingLine(embedded.output()).codeCache, 'accepted');
    } finally {
      embedded.child.kill('SIGTERM');
      await new Promise((resolve) => embedded.child.once('exit', resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
