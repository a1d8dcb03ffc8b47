import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { projectRoot } from '../../../src/paths.js';

const read = (file: string): string => fs.readFileSync(path.join(projectRoot, file), 'utf8');
const run = (cmd: string, args: string[], timeout = 60_000) => spawnSync(cmd, args, { cwd: projectRoot, encoding: 'utf8', timeout });

/** The flags and allocator settings `npm start` runs with, as package.json writes them. */
function startSettings(): { flags: string[]; env: Record<string, string> } {
  const start = JSON.parse(read('package.json')).scripts.start as string;
  const words = start.split(/\s+/);
  return {
    flags: words.filter((w) => w.startsWith('--')),
    env: Object.fromEntries(words.filter((w) => /^[A-Z_]+=/.test(w)).map((w) => w.split('=') as [string, string])),
  };
}

/** Whether a Docker daemon answers (the client alone is not enough to build or run). */
const dockerWorks = (): boolean => run('docker', ['info', '--format', '{{.ServerVersion}}'], 15_000).status === 0;
const composeWorks = (): boolean => run('docker', ['compose', 'version'], 15_000).status === 0;

describe('the Dockerfile', () => {
  const text = read('Dockerfile');
  const lines = text.split('\n').filter((l) => !l.trimStart().startsWith('#'));

  it('builds in one stage and runs from another, as an unprivileged user', () => {
    const froms = lines.filter((l) => /^FROM /.test(l));
    assert.ok(froms.length >= 2, 'multi-stage');
    assert.match(froms[0]!, / AS build$/);
    assert.match(text, /npm prune --omit=dev/, 'the image keeps the production dependencies only');
    const users = lines.filter((l) => /^USER /.test(l));
    assert.deepEqual(users, ['USER node']);
    assert.ok(lines.findIndex((l) => l === 'USER node') > lines.findIndex((l) => l === froms.at(-1)), 'the user is set in the final stage');
  });

  it('checks the health endpoint and starts with the flags and allocator settings of npm start', () => {
    assert.match(text, /^HEALTHCHECK .*\n\s+CMD .*\/api\/v1\/health/m);
    const entry = lines.find((l) => l.startsWith('ENTRYPOINT '))!;
    const settings = startSettings();
    assert.ok(settings.flags.length >= 2);
    for (const flag of settings.flags) assert.ok(JSON.parse(entry.slice('ENTRYPOINT '.length)).includes(flag), `${flag} in ENTRYPOINT`);
    assert.match(entry, /scripts\/start\.mjs/);
    for (const [name, value] of Object.entries(settings.env)) assert.match(text, new RegExp(`^\\s+${name}=${value}\\b`, 'm'), `${name}=${value} in ENV`);
  });

  it('leaves the local build, data and dependencies out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['node_modules', 'dist', 'data', '.cache', '.git']) assert.ok(ignored.includes(entry), entry);
  });
});

describe('the compose file', () => {
  const doc = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, any>; volumes: Record<string, unknown> };

  it('runs PostgreSQL, three instances on it and Caddy in front of them', () => {
    assert.deepEqual(Object.keys(doc.services).sort(), ['caddy', 'dictum-1', 'dictum-2', 'dictum-3', 'postgres']);
    assert.match(doc.services.postgres.image, /^postgres:\d+/);
    assert.ok(doc.services.postgres.volumes.some((v: string) => v.startsWith('pgdata:')), 'the database outlives its container');
    const ids = new Set<string>();
    for (const name of ['dictum-1', 'dictum-2', 'dictum-3']) {
      const s = doc.services[name];
      assert.equal(s.build, '.');
      assert.match(s.environment.DATABASE_URL, /^postgres:\/\/[^@]+@postgres:5432\//, `${name} uses the postgres service`);
      assert.ok(Number(s.environment.DICTUM_DB_WAIT_SECONDS) > 0, `${name} waits for the database`);
      assert.deepEqual(s.depends_on, ['postgres']);
      assert.equal(s.ports, undefined, `${name} is reached through the proxy only`);
      ids.add(s.environment.DICTUM_NODE_ID);
    }
    assert.equal(ids.size, 3, 'each instance has its own node id');
    assert.deepEqual(doc.services.caddy.ports, ['80:80', '443:443']);
    for (const v of ['pgdata', 'caddy-data', 'caddy-config']) assert.ok(v in doc.volumes, v);
  });

  it('gives Caddy a configuration that balances over the three instances by their health', () => {
    const mount = doc.services.caddy.volumes.find((v: string) => v.endsWith(':/etc/caddy/Caddyfile:ro'));
    assert.ok(mount, 'the Caddyfile is mounted read-only');
    const caddyfile = read(mount.split(':')[0]);
    assert.match(caddyfile, /reverse_proxy dictum-1:8080 dictum-2:8080 dictum-3:8080/);
    assert.match(caddyfile, /health_uri \/api\/v1\/health/);
  });

  it('is valid for docker compose', (t) => {
    if (!composeWorks()) return t.skip('docker compose is not installed here; the YAML checks above stand in for it');
    const r = run('docker', ['compose', 'config', '--quiet']);
    assert.equal(r.status, 0, r.stderr);
  });
});

describe('the image', () => {
  it('builds, starts and turns healthy', { timeout: 900_000 }, async (t) => {
    if (!dockerWorks()) return t.skip('no working Docker daemon here (docker info fails)');
    const tag = `dictum-test:${process.pid}`;
    const built = run('docker', ['build', '-t', tag, '.'], 840_000);
    assert.equal(built.status, 0, built.stderr.slice(-4000));
    const started = run('docker', ['run', '-d', '--rm', tag]);
    assert.equal(started.status, 0, started.stderr);
    const id = started.stdout.trim();
    try {
      let health = '';
      for (let i = 0; i < 120 && health !== 'healthy'; i++) {
        await new Promise((r) => setTimeout(r, 1000));
        health = run('docker', ['inspect', '--format', '{{.State.Health.Status}}', id]).stdout.trim();
      }
      assert.equal(health, 'healthy');
      assert.equal(run('docker', ['exec', id, 'id', '-un']).stdout.trim(), 'node');
    } finally {
      run('docker', ['rm', '-f', id]);
      run('docker', ['rmi', tag]);
    }
  });
});
