import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PeriodicTask } from '../../../src/servers/periodic-task.js';
import { ServerRegistry } from '../../../src/servers/server-registry.js';
import { sleep } from '../../helpers/wait.js';

describe('periodic task (a housekeeping server)', () => {
  it('runs every interval while started, not while stopped, and on request either way', async () => {
    let passes = 0;
    const task = new PeriodicTask({ key: 'k', name: 'K', description: 'counts', intervalMs: 30, pass: async () => `pass ${++passes}` });
    assert.equal(task.started(), false);
    assert.equal(task.nextRun(), null);
    await task.start();
    assert.ok(task.nextRun()!.getTime() > Date.now() - 5);
    assert.match(task.info(), /counts every 30 ms/);
    for (let i = 0; i < 150 && passes < 2; i++) await sleep(20);
    await task.stop();
    const timed = passes;
    assert.ok(timed >= 2, `ran ${timed} times on its timer`);
    assert.equal(task.nextRun(), null);
    assert.equal(task.info(), 'stopped');
    await sleep(80);
    assert.equal(passes, timed, 'no pass while stopped');
    await task.runNow();
    assert.equal(passes, timed + 1);
    assert.notEqual(task.lastRun(), null);
  });

  it('never runs two passes at once, and reports passes and failures to its server log', async () => {
    let running = 0;
    let most = 0;
    let fail = false;
    const task = new PeriodicTask({
      key: 'slow',
      name: 'Slow',
      description: 'waits',
      intervalMs: 60_000,
      pass: async () => {
        most = Math.max(most, ++running);
        await sleep(20);
        running--;
        if (fail) throw new Error('disk full');
        return 'did something';
      },
    });
    const server = new ServerRegistry().add(task);
    await Promise.all([task.runNow(), task.runNow(), task.runNow()]);
    assert.equal(most, 1);
    fail = true;
    await task.runNow();
    assert.deepEqual(server.logs().map((l) => [l.summary, l.error]), [['failed: disk full', true], ['did something', false]]);
    assert.equal(task.statistics(), 'passes: 2, failed: 1');
  });
});
