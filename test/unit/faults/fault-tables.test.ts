import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  classifyOutcome,
  countOutcomes,
  faultTable,
  formatTable,
  memoryTarget,
  newViolations,
  percentile,
  soakMinutes,
  soakTable,
  type SoakMinute,
} from '../../../bench/faults/tables.js';

describe('fault suite: outcome of a kill', () => {
  it('accepts all or nothing for a cut request, all for an answered one, nothing for a refused one', () => {
    assert.deepEqual(classifyOutcome('ok', 'all'), { outcome: 'committed', violation: null });
    assert.deepEqual(classifyOutcome('cut', 'all'), { outcome: 'committed, answer lost', violation: null });
    assert.deepEqual(classifyOutcome('cut', 'none'), { outcome: 'rolled back', violation: null });
    assert.deepEqual(classifyOutcome('refused', 'none'), { outcome: 'refused', violation: null });
    assert.deepEqual(classifyOutcome('cut', 'none', true), { outcome: 'rolled back, retried to success', violation: null });
    assert.deepEqual(classifyOutcome('ok', 'all', true), { outcome: 'committed, retried to success', violation: null });
  });

  it('names every other combination a violation', () => {
    assert.equal(classifyOutcome('ok', 'none').violation, 'lost: answered success, nothing written');
    assert.equal(classifyOutcome('refused', 'all').violation, 'written though refused');
    for (const answer of ['ok', 'refused', 'cut'] as const) {
      assert.equal(classifyOutcome(answer, 'partial').violation, 'partial write');
      assert.equal(classifyOutcome(answer, 'doubled', true).violation, 'done twice');
    }
  });
});

describe('fault suite: table and books', () => {
  it('counts outcomes, most frequent first, and prints kills, outcomes and violations per scenario', () => {
    assert.equal(countOutcomes(['rolled back', 'committed', 'rolled back']), 'rolled back 2, committed 1');
    const results = [
      { scenario: 'order completion', kills: 3, outcomes: ['rolled back', 'committed', 'rolled back'], violations: [], books: 0 },
      { scenario: 'batch of 300 creates', kills: 2, outcomes: ['partial write', 'committed'], violations: ['partial write'], books: 2 },
    ];
    assert.equal(
      faultTable(results),
      [
        'scenario              kills  outcomes                      violations',
        '--------------------  -----  ----------------------------  ----------',
        'order completion          3  rolled back 2, committed 1             0',
        'batch of 300 creates      2  committed 1, partial write 1           3',
      ].join('\n'),
    );
    assert.equal(faultTable(results, true).split('\n')[2], '| order completion | 3 | rolled back 2, committed 1 | 0 |');
  });

  it('finds new violations of the books by their difference, not by the numbers a shipment moves', () => {
    const v = (subject: number, expected: string, actual: string) => ({ check: 'on-hand', subject: { product: subject }, expected, actual });
    const before = [v(128, '0', '100')];
    assert.deepEqual(newViolations(before, [v(128, '-5', '95')]), [], 'the opening stock moved by a shipment is the same difference');
    assert.deepEqual(newViolations(before, [v(128, '-5', '100')]), [v(128, '-5', '100')], 'a changed difference is new');
    assert.deepEqual(newViolations(before, [v(128, '0', '100'), v(133, '1', '2')]), [v(133, '1', '2')]);
  });
});

describe('soak: minutes and memory', () => {
  it('takes percentiles by nearest rank', () => {
    assert.equal(percentile([], 50), null);
    assert.equal(percentile([5, 1, 3, 2, 4], 50), 3);
    assert.equal(percentile(Array.from({ length: 100 }, (_, i) => i + 1), 99), 99);
    assert.equal(percentile([7], 99), 7);
  });

  it('groups requests and memory samples by minute; a failed check is an error but no request', () => {
    const minutes = soakMinutes(
      [
        { atMs: 1000, ms: 10, error: false },
        { atMs: 2000, ms: 30, error: true },
        { atMs: 3000, ms: null, error: true },
        { atMs: 61_000, ms: 20, error: false },
      ],
      [
        { atMs: 5000, rss: [100 * 1024 * 1024, 200 * 1024 * 1024] },
        { atMs: 10_000, rss: [110 * 1024 * 1024, 200 * 1024 * 1024] },
        { atMs: 65_000, rss: [120 * 1024 * 1024, 0] },
      ],
      3,
    );
    assert.deepEqual(minutes[0], { minute: 1, requests: 2, errors: 2, p50: 10, p99: 30, rssMb: [105, 200] });
    assert.deepEqual(minutes[1], { minute: 2, requests: 1, errors: 0, p50: 20, p99: 20, rssMb: [120, 0] });
    assert.deepEqual(minutes[2], { minute: 3, requests: 0, errors: 0, p50: null, p99: null, rssMb: [] });
    assert.match(soakTable(minutes), /^minute {2}requests {2}errors {2}p50 ms {2}p99 ms {2}RSS MB #1 {2}RSS MB #2\n/);
  });

  it('meets the memory target while the last ten minutes stay within 10% of the tenth', () => {
    const run = (rss: (m: number) => number): SoakMinute[] => Array.from({ length: 30 }, (_, i) => ({ minute: i + 1, requests: 1, errors: 0, p50: 1, p99: 1, rssMb: [rss(i + 1)] }));
    assert.deepEqual(memoryTarget(run(() => 150)), { reference: 10, worstDrift: 0, met: true });
    assert.deepEqual(memoryTarget(run((m) => (m > 20 ? 160 : 150))), { reference: 10, worstDrift: 0.067, met: true }, '160 is 6.7% over 150');
    assert.equal(memoryTarget(run((m) => (m >= 25 ? 170 : 150))).met, false, '170 is 13% over 150');
    assert.equal(memoryTarget(run((m) => (m === 12 ? 400 : 150))).met, true, 'minutes before the last ten do not count');
    assert.equal(memoryTarget(run(() => 150).slice(0, 4)).reference, 2, 'a short run compares with its middle minute');
  });

  it('pads columns and right-aligns numbers', () => {
    assert.equal(formatTable(['a', 'n'], [['x', 1], ['yy', 10]]), 'a    n\n--  --\nx    1\nyy  10');
  });
});
