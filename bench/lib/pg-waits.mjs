// What PostgreSQL's backends of the benchmark database are doing during a measurement, sampled
// from pg_stat_activity: running (active, no wait event), waiting on a lock (heavyweight locks:
// rows, tables, transaction ids), waiting otherwise (lightweight locks, I/O), or waiting for the
// service (idle in a transaction: the next statement has not arrived). Averages of backends per
// sample tell whether PostgreSQL or the service is where requests wait.

/** Classifies one pg_stat_activity row. */
export function backendState({ state, wait_event_type: waitType }) {
  if (state === 'active') return waitType === 'Lock' ? 'lock' : waitType ? 'otherWait' : 'running';
  if (state === 'idle in transaction' || state === 'idle in transaction (aborted)') return 'inTransaction';
  return 'idle';
}

/** Average backends per sample in each state, from lists of rows (one list a sample). */
export function summarizeSamples(samples) {
  const out = { running: 0, lock: 0, otherWait: 0, inTransaction: 0, idle: 0, samples: samples.length };
  for (const rows of samples) for (const r of rows) out[backendState(r)]++;
  if (samples.length) for (const k of ['running', 'lock', 'otherWait', 'inTransaction', 'idle']) out[k] = Math.round((out[k] / samples.length) * 100) / 100;
  return out;
}

/** Samples the backends of `database` every intervalMs on `client` until stop() (which answers summarizeSamples). */
export function sampleBackends(client, database, intervalMs = 100) {
  const samples = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        const r = await client.query(
          "SELECT state, wait_event_type FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
          [database],
        );
        samples.push(r.rows);
      } catch {
        // a failed sample is left out
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return summarizeSamples(samples);
    },
  };
}
