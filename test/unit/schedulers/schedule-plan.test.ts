import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { latestDue, nextDue, periodMs, scheduleProblem } from '../../../src/schedulers/schedule-plan.js';

const freq = (frequency: number | null, frequencyType: string | null) => ({ scheduleType: 'F', frequency, frequencyType, cronPattern: null });
const cron = (cronPattern: string) => ({ scheduleType: 'C', frequency: null, frequencyType: null, cronPattern });

describe('schedule planning', () => {
  it('counts frequencies from the epoch, so every instance finds the same firing', () => {
    assert.equal(periodMs(freq(5, 'M')), 300_000);
    assert.equal(periodMs(freq(1, 'H')), 3_600_000);
    assert.equal(periodMs(freq(2, 'D')), 172_800_000);
    const now = new Date('2026-01-01T10:07:30Z');
    assert.equal(latestDue(freq(5, 'M'), now)?.toISOString(), '2026-01-01T10:05:00.000Z');
    assert.equal(nextDue(freq(5, 'M'), now)?.toISOString(), '2026-01-01T10:10:00.000Z');
  });
  it('reads cron patterns in UTC, with seconds when given', () => {
    const now = new Date('2026-01-01T10:07:31.500Z');
    assert.equal(latestDue(cron('0 3 * * *'), now)?.toISOString(), '2026-01-01T03:00:00.000Z');
    assert.equal(nextDue(cron('0 3 * * *'), now)?.toISOString(), '2026-01-02T03:00:00.000Z');
    assert.equal(latestDue(cron('*/2 * * * * *'), now)?.toISOString(), '2026-01-01T10:07:30.000Z');
  });
  it('names what keeps a schedule from running', () => {
    assert.equal(scheduleProblem(freq(5, 'M')), null);
    assert.match(scheduleProblem(freq(0, 'M'))!, /frequency/);
    assert.match(scheduleProblem(cron('not a pattern'))!, /cron pattern/);
    assert.match(scheduleProblem({ scheduleType: 'W', frequency: null, frequencyType: null, cronPattern: null })!, /not supported/);
    assert.equal(latestDue(cron('bad'), new Date()), null);
  });
});
