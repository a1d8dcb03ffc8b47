import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../../src/paths.js';
import { hashPassword } from '../../../src/auth/passwords.js';
import { usersWithDemoPasswords } from '../../../src/auth/demo-passwords.js';
import { cacheDir, freshDatabase } from '../../helpers/database.js';
import { startServiceProcess, type InstanceProcess } from '../../helpers/instance-process.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { sleep } from '../../helpers/wait.js';

const main = path.join(projectRoot, 'dist', 'src', 'main.js');

/** Runs a command of the built service on an embedded data folder. */
function dictum(dataDir: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: '', DICTUM_DATA_DIR: dataDir, DICTUM_CACHE_DIR: cacheDir, LOG_LEVEL: 'silent' };
  const r = spawnSync(process.execPath, [main, ...args], { env, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the command line of the built service', () => {
  it('answers --help, --version and usage errors without opening a database', () => {
    const nowhere = path.join(os.tmpdir(), 'dictum-never-created');
    const help = dictum(nowhere, '--help');
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^Usage: dictum \[command\] \[options\]/);
    assert.match(help.stdout, /^  clear-role-type <AD_Role_ID>$/m);
    const v = dictum(nowhere, '--version');
    assert.equal(v.status, 0);
    assert.equal(v.stdout, `dictum ${JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')).version}\n`);
    const bad = dictum(nowhere, 'migrate', '--force');
    assert.equal(bad.status, 2);
    assert.equal(bad.stdout, '');
    assert.equal(bad.stderr, "dictum: Unknown option '--force' of migrate: use dictum migrate (--help lists the options)\n");
    assert.equal(fs.existsSync(nowhere), false);
  });
});

describe('one process at a time on an embedded data folder; the demo password warning', () => {
  let dataDir: string;
  let instance: InstanceProcess;
  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-cli-'));
    // Listening on every interface with the seeded demo users: the warning is due.
    instance = await startServiceProcess(main, { DATABASE_URL: '', DICTUM_DATA_DIR: dataDir, HOST: '0.0.0.0', DICTUM_LOG_DIR: '' });
  });
  after(() => {
    instance.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('warns that the demo users keep their documented passwords while it listens beyond this machine', async () => {
    const warning = () => instance.output().split('\n').find((l) => l.includes('documented passwords'));
    for (let i = 0; i < 300 && !warning(); i++) await sleep(100);
    const line = warning();
    assert.ok(line, instance.output());
    const entry = JSON.parse(line!);
    assert.equal(entry.level, 40);
    assert.deepEqual(entry.users, ['GardenAdmin', 'GardenUser', 'SuperUser', 'WebService']);
    assert.equal(entry.host, '0.0.0.0');
  });

  it('refuses a second process on the same folder with a clear message and exit code 3', () => {
    const r = dictum(dataDir, 'migrate');
    assert.equal(r.status, 3, r.stderr);
    assert.match(r.stderr, new RegExp(`^dictum: The data folder ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is in use by process ${instance.child.pid} on `));
  });

  it('takes over the lock left by a process that was killed', async () => {
    instance.child.kill('SIGKILL');
    await new Promise((r) => (instance.child.exitCode !== null || instance.child.signalCode !== null ? r(null) : instance.child.once('exit', r)));
    assert.equal(fs.existsSync(path.join(dataDir, 'dictum.lock')), true, 'a killed process leaves its lock');
    const r = dictum(dataDir, 'migrate');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(fs.existsSync(path.join(dataDir, 'dictum.lock')), false, 'the command released the lock it took over');
  });
});

describe('demo users with their documented passwords', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('are found by verifying the stored hashes, and no longer once a password is changed', async () => {
    assert.deepEqual(await usersWithDemoPasswords(server.services.db), ['GardenAdmin', 'GardenUser', 'SuperUser', 'WebService']);
    await server.services.db.query(`UPDATE ad_user SET password = $1 WHERE name = 'GardenUser'`, [await hashPassword('a-better-secret-42')]);
    assert.deepEqual(await usersWithDemoPasswords(server.services.db), ['GardenAdmin', 'SuperUser', 'WebService']);
  });
});

describe('a start before the database is up', () => {
  it('waits and retries with log lines, for a bounded time, then fails', () => {
    const started = Date.now();
    const r = spawnSync(process.execPath, [main, 'migrate'], {
      // Nothing listens on port 1: every connection is refused.
      env: { ...process.env, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', DICTUM_DB_WAIT_SECONDS: '2', LOG_LEVEL: 'info' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const elapsed = Date.now() - started;
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /^dictum: .*ECONNREFUSED/m);
    const retries = r.stdout.split('\n').filter((l) => l.includes('the database is not reachable yet (ECONNREFUSED)'));
    assert.ok(retries.length >= 2, r.stdout);
    assert.ok(elapsed >= 2_000, `gave up after ${elapsed} ms`);
  });

  it('goes on once the database comes up while it waits', { skip: process.env.DATABASE_URL ? false : 'needs PostgreSQL (DATABASE_URL)' }, async () => {
    const fresh = await freshDatabase();
    const target = new URL(fresh.databaseUrl!);
    // A port that refuses connections for a while, then forwards them to the real server.
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const late = new URL(fresh.databaseUrl!);
    late.host = `127.0.0.1:${port}`;
    const proxy = net.createServer((c) => {
      const up = net.connect(Number(target.port || 5432), target.hostname);
      c.pipe(up).pipe(c);
      c.on('error', () => up.destroy());
      up.on('error', () => c.destroy());
    });
    try {
      const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, [main, 'migrate'], { env: { ...process.env, DATABASE_URL: late.toString(), DICTUM_DB_WAIT_SECONDS: '30', LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          // The database comes up once the start has found it down.
          if (out.includes('not reachable yet') && !proxy.listening) proxy.listen(port, '127.0.0.1');
        });
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        child.on('exit', (code) => resolve({ code, out }));
      });
      assert.equal(r.code, 0, r.out);
      assert.match(r.out, /the database is not reachable yet \(ECONNREFUSED\)/);
    } finally {
      proxy.close();
      await fresh.drop();
    }
  });
});
