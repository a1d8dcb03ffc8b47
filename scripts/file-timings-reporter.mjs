// A second test reporter (set TEST_TIMINGS=<file> for scripts/run-tests.mjs): the wall time of each
// test file, slowest first, so that the files that make the suite long can be found.
export default async function* fileTimings(source) {
  const files = new Map();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, nesting, details } = event.data;
    if (!file || nesting !== 0) continue;
    const entry = files.get(file) ?? { ms: 0, tests: 0, failed: 0 };
    entry.ms += details?.duration_ms ?? 0;
    entry.tests += 1;
    if (event.type === 'test:fail') entry.failed += 1;
    files.set(file, entry);
  }
  const rows = [...files.entries()].sort((a, b) => b[1].ms - a[1].ms);
  const total = rows.reduce((s, [, e]) => s + e.ms, 0);
  yield `# total of the files' top-level durations: ${(total / 1000).toFixed(1)} s\n`;
  for (const [file, e] of rows) {
    yield `${(e.ms / 1000).toFixed(1).padStart(8)} s  ${String(e.tests).padStart(4)} top-level${e.failed ? ` ${e.failed} failed` : ''}  ${file.replace(/^.*\/dist\//, 'dist/')}\n`;
  }
}
