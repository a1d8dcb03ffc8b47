import type { JobQueue } from '../queue/job-queue.js';
import type { SchedulerRunner } from '../schedulers/scheduler-runner.js';
import type { PeriodicTask } from './periodic-task.js';
import type { ServerRegistry } from './server-registry.js';

/**
 * Makes the background services of an instance its server instances: the job worker, the scheduler
 * runner and the session cleaner (the webhook dispatcher and upload cleaner add themselves with their routes).
 */
export function registerServers(servers: ServerRegistry, queue: JobQueue, schedulers: SchedulerRunner, queueGraceMs: number, sessionCleaner: PeriodicTask): void {
  let drained = 0;
  let lastDrain: Date | null = null;
  const worker = servers.add({
    key: 'job-worker',
    name: 'Job queue worker',
    started: () => queue.running,
    start: () => queue.start(),
    stop: () => queue.stop(queueGraceMs),
    runNow: async () => {
      lastDrain = new Date();
      const n = await queue.drain();
      drained += n;
      worker.log(`ran ${n} due item${n === 1 ? '' : 's'} on request`);
    },
    lastRun: () => lastDrain,
    nextRun: () => null,
    info: () => (queue.running ? 'claiming due work as it is queued' : 'stopped'),
    statistics: () => `items run on request: ${drained}`,
  });
  const runner = servers.add({
    key: 'scheduler-runner',
    name: 'Scheduler runner',
    started: () => schedulers.started,
    start: async () => schedulers.start(),
    stop: () => schedulers.stop(),
    runNow: () => schedulers.runNow(),
    lastRun: () => schedulers.lastRun,
    nextRun: () => (schedulers.lastRun ? new Date(schedulers.lastRun.getTime() + schedulers.tickMs) : null),
    info: () => (schedulers.started ? `checking managed schedulers every ${schedulers.tickMs} ms` : 'stopped'),
    statistics: () => `passes: ${schedulers.runs}, firings queued: ${schedulers.fired}`,
  });
  schedulers.report = (summary, reference, error) => runner.log(summary, reference, error);
  servers.add(sessionCleaner);
}
