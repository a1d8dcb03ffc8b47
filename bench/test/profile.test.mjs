import assert from 'node:assert/strict';
import { test } from 'node:test';
import { areaOf, formatProfile, summarizeProfile } from '../lib/profile.mjs';

test('self time is summed by area and by function', () => {
  const profile = {
    nodes: [
      { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 } },
      { id: 2, callFrame: { functionName: 'listRecords', url: 'file:///w/dist/src/records/read/reader.js', lineNumber: 9 } },
      { id: 3, callFrame: { functionName: 'parse', url: 'file:///w/node_modules/pg-protocol/dist/parser.js', lineNumber: 0 } },
      { id: 4, callFrame: { functionName: '(garbage collector)', url: '', lineNumber: -1 } },
      { id: 5, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 } },
    ],
    samples: [2, 2, 3, 4, 5, 5],
    timeDeltas: [0, 1000, 1000, 1000, 1000, 1000],
  };
  const s = summarizeProfile(profile);
  assert.equal(s.totalMs, 6);
  assert.equal(s.busyMs, 4);
  assert.equal(s.areas.find((a) => a.name === 'idle'), undefined);
  assert.equal(s.areas[0].share, 0.5);
  const areas = Object.fromEntries(s.areas.map((a) => [a.name, a.ms]));
  assert.equal(areas['service: records'], 2);
  assert.equal(areas['npm: pg-protocol'], 1);
  assert.equal(areas['garbage collection'], 1);
  assert.equal(s.functions[0].name, 'listRecords read/reader.js:10');
  assert.match(formatProfile({ file: 'x.cpuprofile', ...s }), /service: records/);
  assert.equal(areaOf({ functionName: 'x', url: 'node:internal/streams/readable' }), 'node: internal');
  assert.equal(areaOf({ functionName: 'y', url: 'file:///a/node_modules/@fastify/ajv-compiler/index.js' }), 'npm: @fastify/ajv-compiler');
});

test('a window keeps only the samples taken within it', () => {
  const profile = {
    startTime: 1000,
    nodes: [
      { id: 1, callFrame: { functionName: 'early', url: 'file:///w/dist/src/a.js', lineNumber: 0 } },
      { id: 2, callFrame: { functionName: 'timed', url: 'file:///w/dist/src/b.js', lineNumber: 0 } },
      { id: 3, callFrame: { functionName: 'late', url: 'file:///w/dist/src/c.js', lineNumber: 0 } },
    ],
    // Samples at 2000, 3000, 4000, 5000 and 6000 µs.
    samples: [1, 2, 2, 3, 3],
    timeDeltas: [1000, 1000, 1000, 1000, 1000],
  };
  const s = summarizeProfile(profile, 15, { from: 2500, to: 4500 });
  assert.equal(s.totalMs, 2);
  assert.deepEqual(s.functions.map((f) => f.name), ['timed src/b.js:1']);
  assert.equal(summarizeProfile(profile).totalMs, 5);
});
