import { socketDir, withHostPort } from './database.mjs';
import { startRecorder } from './pg-recorder.mjs';
import { freePort, login, startDictum } from './server.mjs';
import { pgbenchScript, runPgbench } from './pgbench.mjs';

const TRANSACTION_CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|START|SAVEPOINT|RELEASE|SET|SHOW|DISCARD)\b/i;
// The relay sees every connection: the instance's own background work (webhook and job queues,
// schedulers, sessions, node heartbeats) is not the completion's.
const BACKGROUND = /webhook dispatcher|dictum\.queue_item|dictum\.node|FROM ad_scheduler|FROM ad_session WHERE processed/;

/** A numeric command line option `--name <n>`, else `def`. */
export function numberOption(name, def) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
}

/**
 * The statements of one document completion, learnt by an instance behind the recording relay:
 * `warm(at, token)` runs first (caches warm), then only what `measured(at, token)` runs is kept
 * (without transaction control and the instance's background work).
 */
export async function recordCompletion({ root, url, warm, measured }) {
  const u = new URL(url);
  const dir = socketDir(url);
  const recorder = await startRecorder(dir ? { path: `${dir}/.s.PGSQL.${u.port || 5432}` } : { host: u.hostname, port: Number(u.port || 5432) });
  let recording;
  try {
    recording = await startDictum({ root, databaseUrl: withHostPort(url, '127.0.0.1', recorder.port), port: await freePort(), waitMs: 600_000 });
    const token = await login(recording.baseUrl);
    const run = await warm(recording, token);
    recorder.clear();
    await measured(recording, token, run);
    return recorder.statements().filter((s) => !TRANSACTION_CONTROL.test(s.text) && !BACKGROUND.test(s.text));
  } finally {
    if (recording) await recording.stop();
    await recorder.close();
  }
}

/** pgbench replaying the statements (values bound, in a transaction that rolls back) for `seconds`: ms a replay, and the ratio to `serviceMs`. */
export async function replayRatio({ url, statements, name, seconds, workDir, serviceMs }) {
  const replay = await runPgbench({ databaseUrl: url, script: `BEGIN;\n${pgbenchScript(statements)}ROLLBACK;\n`, name, seconds, clients: 1, threads: 1, workDir, log: false });
  const replayMs = replay.transactions ? 1000 / replay.tps : NaN;
  return { replay, replayMs, ratio: replayMs / serviceMs };
}
