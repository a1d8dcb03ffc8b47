import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { COMMANDS, helpText, parseCommandLine, UsageError, version } from '../../../src/cli/command-line.js';
import { DataDirLockedError, LOCK_FILE_NAME, lockDataDir } from '../../../src/db/data-dir-lock.js';
import { isLoopback } from '../../../src/auth/demo-passwords.js';
import { projectRoot } from '../../../src/paths.js';

const usage = (argv: string[]): string => {
  try {
    parseCommandLine(argv);
  } catch (e) {
    assert.ok(e instanceof UsageError, String(e));
    return e.message;
  }
  assert.fail(`${argv.join(' ')} was accepted`);
};

describe('the command line', () => {
  it('serves by default, and reads each command with its options and arguments', () => {
    assert.deepEqual(parseCommandLine([]), { kind: 'run', command: 'serve', positionals: [], values: {} });
    assert.deepEqual(parseCommandLine(['schema', '--apply']), { kind: 'run', command: 'schema', positionals: [], values: { apply: true } });
    assert.equal((parseCommandLine(['schema']) as { values: Record<string, unknown> }).values.apply, undefined);
    assert.deepEqual(parseCommandLine(['clear-role-type', '0']), { kind: 'run', command: 'clear-role-type', positionals: ['0'], values: {} });
  });

  it('answers --help and -h with every command and its options, and --version from package.json', () => {
    for (const flag of ['--help', '-h']) {
      const r = parseCommandLine([flag]);
      assert.equal(r.kind, 'help');
      for (const c of COMMANDS) assert.match((r as { text: string }).text, new RegExp(`^  ${c.name}\\b`, 'm'));
      assert.match((r as { text: string }).text, /--apply: add missing columns/);
    }
    const pkg = JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));
    assert.equal(version(), pkg.version);
    assert.deepEqual(parseCommandLine(['--version']), { kind: 'version', text: `dictum ${pkg.version}\n` });
    assert.deepEqual(parseCommandLine(['-v']), { kind: 'version', text: `dictum ${pkg.version}\n` });
    const schemaHelp = parseCommandLine(['schema', '--help']);
    assert.deepEqual(schemaHelp, { kind: 'help', text: helpText(COMMANDS.find((c) => c.name === 'schema')) });
    assert.match((schemaHelp as { text: string }).text, /^Usage: dictum schema \[--apply\] \[--distributed\] \[--json\] \[--strict\]$/m);
  });

  it('refuses unknown commands, unknown options and wrong arguments with the usage', () => {
    assert.match(usage(['nope']), /^Unknown command 'nope': use serve, migrate, snapshot, schema, clear-role-type/);
    assert.match(usage(['--bogus']), /^Unknown option '--bogus' of dictum/);
    assert.match(usage(['serve', '--port', '80']), /^Unknown option '--port' of serve: use dictum serve /);
    assert.match(usage(['schema', '--drop']), /^Unknown option '--drop' of schema: use dictum schema \[--apply\] \[--distributed\] \[--json\] \[--strict\]/);
    assert.deepEqual(parseCommandLine(['schema', '--distributed', '--json']), { kind: 'run', command: 'schema', positionals: [], values: { distributed: true, json: true } });
    assert.match(usage(['schema', '--apply=yes']), /^Option '--apply' does not take an argument of schema/);
    assert.match(usage(['clear-role-type']), /^clear-role-type takes <AD_Role_ID>/);
    assert.match(usage(['clear-role-type', '1', '2']), /^clear-role-type takes <AD_Role_ID>/);
    assert.match(usage(['migrate', 'now']), /^migrate takes no arguments/);
  });
});

describe('the lock of an embedded data folder', () => {
  const folder = () => fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-lock-'));

  it('refuses a second open while held, and frees the folder on release', async () => {
    const dir = folder();
    const release = await lockDataDir(dir);
    const lock = JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8'));
    assert.equal(lock.pid, process.pid);
    await assert.rejects(lockDataDir(dir), (e: unknown) => e instanceof DataDirLockedError && e.exitCode === 3 && e.message.includes(`in use by process ${process.pid}`));
    release();
    assert.equal(fs.existsSync(path.join(dir, LOCK_FILE_NAME)), false);
    (await lockDataDir(dir))();
    fs.rmSync(dir, { recursive: true });
  });

  it('waits for another live process that holds it, then refuses; takes over the lock of an ended one', async () => {
    const dir = folder();
    const file = path.join(dir, LOCK_FILE_NAME);
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      fs.writeFileSync(file, JSON.stringify({ pid: child.pid, host: os.hostname(), since: '2026-01-01T00:00:00.000Z' }));
      const started = Date.now();
      await assert.rejects(lockDataDir(dir, { waitMs: 300 }), new RegExp(`in use by process ${child.pid} .* since 2026-01-01`));
      assert.ok(Date.now() - started >= 300, 'it waited for the holder first');
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
    // The holder is gone (as after a crash): its lock is stale.
    const release = await lockDataDir(dir, { waitMs: 0 });
    assert.equal(JSON.parse(fs.readFileSync(file, 'utf8')).pid, process.pid);
    release();
    // An unreadable lock file is stale too; this process's own id left by an earlier life (a restarted container) as well.
    fs.writeFileSync(file, 'garbage');
    (await lockDataDir(dir, { waitMs: 0 }))();
    fs.writeFileSync(file, JSON.stringify({ pid: process.pid, host: os.hostname(), since: 'earlier' }));
    (await lockDataDir(dir, { waitMs: 0 }))();
    fs.rmSync(dir, { recursive: true });
  });
});

describe('loopback addresses', () => {
  it('tells the addresses of this machine only from the others', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) assert.equal(isLoopback(h), true, h);
    for (const h of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.2', 'example.org', '::ffff:10.0.0.1']) assert.equal(isLoopback(h), false, h);
  });
});
