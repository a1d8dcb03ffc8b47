import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { systemLogin } from '../../helpers/login.js';
import { demoRoleTokens } from '../../helpers/demo-roles.js';

describe('tasks', () => {
  let server: TestServer;
  let system: string;
  let dir: string;
  const marker = path.join(os.tmpdir(), `dictum-task-${process.pid}-${Date.now()}`);
  const createTask = async (name: string, command: string): Promise<number> => {
    const r = await server.request('POST', '/api/v1/models/ad_task', { token: system, body: { Name: name, OS_Command: command, AccessLevel: '4', EntityType: 'U' } });
    assert.equal(r.status, 201, r.text);
    return r.body.id as number;
  };
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-task-logs-'));
    // The time limit leaves a started program room on a busy machine; the sleeper outlasts it.
    server = await startTestServer({ DICTUM_TASK_TIMEOUT_MS: '4000', DICTUM_LOG_DIR: dir, LOG_LEVEL: 'info' });
    system = await systemLogin(server);
  });
  after(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(marker, { force: true });
  });

  it('lists the tasks and shows one by slug', async () => {
    const list = await server.request('GET', '/api/v1/tasks', { token: system });
    assert.equal(list.status, 200, list.text);
    const java = list.body.tasks.find((t: { slug: string }) => t.slug === 'java-version');
    assert.deepEqual(java, { id: 100, uid: java.uid, slug: 'java-version', name: 'Java Version', description: 'Show the Java version', help: null, os_command: 'java -version' });
    const one = await server.request('GET', '/api/v1/tasks/java-version', { token: system });
    assert.equal(one.body.id, 100);
    const none = await server.request('GET', '/api/v1/tasks/no-such-task', { token: system });
    assert.equal(none.status, 404);
    assert.equal(none.body.title, 'Invalid task name');
    const run = await server.request('POST', '/api/v1/tasks/no-such-task', { token: system });
    assert.equal(run.status, 404);
  });

  it('runs the dictionary command without a shell, with its output, a timeout and a log line', async () => {
    await createTask('Say Hello', `${process.execPath} -e "process.stdout.write('hello task')"`);
    const r = await server.request('POST', '/api/v1/tasks/say-hello', { token: system, body: { command: 'rm -rf /' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.isError, false);
    assert.equal(r.body.exitCode, 0);
    assert.equal(r.body.output, 'hello task');
    const logged = fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('');
    assert.match(logged, /"output":"hello task"[^\n]*"msg":"task Say Hello: Finished"/);
    // Shell syntax is not interpreted: the words are arguments of echo, and no file appears.
    await createTask('Echo Injection', `echo hi; touch ${marker}`);
    const inj = await server.request('POST', '/api/v1/tasks/echo-injection', { token: system });
    assert.equal(inj.body.output.trim(), `hi; touch ${marker}`);
    assert.equal(fs.existsSync(marker), false);
    await createTask('Sleeper', `${process.execPath} -e "setTimeout(() => {}, 60000)"`);
    const slow = await server.request('POST', '/api/v1/tasks/sleeper', { token: system });
    assert.equal(slow.body.isError, true);
    assert.match(slow.body.summary, /Stopped after 4000 ms/);
    await createTask('Missing Program', 'no-such-program-xyz --flag');
    const missing = await server.request('POST', '/api/v1/tasks/missing-program', { token: system });
    assert.equal(missing.body.isError, true);
    assert.match(missing.body.summary, /not installed/);
  });

  it('lets no role but System run, read or write tasks', async () => {
    const { admin, user, ws } = await demoRoleTokens(server);
    for (const token of [admin, user, ws]) {
      for (const [method, p] of [['GET', '/api/v1/tasks'], ['GET', '/api/v1/tasks/java-version'], ['POST', '/api/v1/tasks/java-version']] as const) {
        const r = await server.request(method, p, { token });
        assert.equal(r.status, 403, `${method} ${p}: ${r.text}`);
      }
      const created = await server.request('POST', '/api/v1/models/ad_task', { token, body: { Name: 'Backdoor', OS_Command: `touch ${marker}`, AccessLevel: '4', EntityType: 'U' } });
      assert.ok(created.status === 403 || created.status === 401, `create: ${created.text}`);
      const changed = await server.request('PUT', '/api/v1/models/ad_task/100', { token, body: { OS_Command: `touch ${marker}` } });
      assert.ok(changed.status >= 400 && changed.status < 500, `change: ${changed.text}`);
      const deleted = await server.request('DELETE', '/api/v1/models/ad_task/100', { token });
      assert.ok(deleted.status >= 400 && deleted.status < 500, `delete: ${deleted.text}`);
    }
    const { rows } = await server.services.db.query<{ n: string; cmd: string }>(`SELECT count(*) FILTER (WHERE name = 'Backdoor') AS n, max(os_command) FILTER (WHERE ad_task_id = 100) AS cmd FROM ad_task`);
    assert.equal(Number(rows[0]!.n), 0);
    assert.equal(rows[0]!.cmd, 'java -version');
  });
});
