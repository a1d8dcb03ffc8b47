/**
 * Where a scheduler stands with the server manager, kept in AD_Scheduler.SchedulerState so that
 * every instance agrees: R (Started) is in the manager and fires; S (Scheduled) is in the manager
 * but stopped (its server was toggled off); X (Stopped) or nothing is not in the manager at all.
 */
export const SCHEDULER_STARTED = 'R';
export const SCHEDULER_STOPPED_IN_MANAGER = 'S';
export const SCHEDULER_NOT_MANAGED = 'X';

/** The states of a scheduler that has a server (added to the manager, started or not). */
export const IN_MANAGER_STATES: readonly string[] = [SCHEDULER_STARTED, SCHEDULER_STOPPED_IN_MANAGER];

export const isInManager = (state: string | null): boolean => state !== null && IN_MANAGER_STATES.includes(state);

/** The original's texts for scheduler-state (messages SchedulerStarted, SchedulerStopped, SchedulerNotSchedule). */
export function schedulerStateText(state: string | null): string {
  if (state === SCHEDULER_STARTED) return 'Scheduler Started';
  if (state === SCHEDULER_STOPPED_IN_MANAGER) return 'Scheduler Stopped';
  return 'Not Schedule';
}

/** The server id of a scheduler, as the original names it (`Scheduler100`). */
export const schedulerServerId = (id: number): string => `Scheduler${id}`;

/** The scheduler a server id names (`Scheduler100`, any case, or `scheduler-100`); null for another id. */
export function schedulerIdOfServer(serverId: string): number | null {
  const m = /^scheduler-?(\d{1,10})$/i.exec(serverId);
  return m ? Number(m[1]) : null;
}
