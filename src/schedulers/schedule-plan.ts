import { Cron } from 'croner';

/** The AD_Schedule columns that say when a scheduler fires. */
export interface ScheduleSpec {
  scheduleType: string | null;
  frequency: number | null;
  frequencyType: string | null;
  cronPattern: string | null;
}

const UNIT_MS: Record<string, number> = { M: 60_000, H: 3_600_000, D: 86_400_000 };

/** A firing missed by more than this (every instance down) is skipped, not caught up. */
export const MISSED_FIRING_GRACE_MS = 60_000;

/** The period of a frequency schedule in milliseconds (FrequencyType M, H or D; minutes by default). */
export function periodMs(s: ScheduleSpec): number | null {
  if (s.frequency === null || !(s.frequency > 0)) return null;
  const unit = UNIT_MS[s.frequencyType ?? 'M'];
  return unit ? s.frequency * unit : null;
}

function cronOf(s: ScheduleSpec): Cron | null {
  if (!s.cronPattern?.trim()) return null;
  try {
    return new Cron(s.cronPattern.trim(), { paused: true, timezone: 'UTC' });
  } catch {
    return null;
  }
}

/**
 * The latest firing time at or before `now`, the same on every instance (frequencies count from the
 * epoch, cron patterns in UTC), so that instances that compute it apart claim the same firing.
 * Null when the schedule is not understood.
 */
export function latestDue(s: ScheduleSpec, now: Date): Date | null {
  if (s.scheduleType === 'C') return cronOf(s)?.previousRuns(1, now)[0] ?? null;
  const p = periodMs(s);
  if (p === null) return null;
  return new Date(Math.floor(now.getTime() / p) * p);
}

/** The next firing time after `now`. */
export function nextDue(s: ScheduleSpec, now: Date): Date | null {
  if (s.scheduleType === 'C') return cronOf(s)?.nextRun(now) ?? null;
  const p = periodMs(s);
  if (p === null) return null;
  return new Date((Math.floor(now.getTime() / p) + 1) * p);
}

/** Whether a schedule is one this service runs: a frequency or a valid cron pattern. */
export function scheduleProblem(s: ScheduleSpec): string | null {
  if (s.scheduleType === 'C') return cronOf(s) ? null : `the cron pattern '${s.cronPattern ?? ''}' is not valid`;
  if (s.scheduleType === 'F' || s.scheduleType === null) return periodMs(s) !== null ? null : 'the frequency is missing or not positive';
  return `schedule type ${s.scheduleType} is not supported (use F or C)`;
}
