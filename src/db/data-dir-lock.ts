import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Exit code of a command refused because another process holds the embedded data folder. */
export const DATA_DIR_LOCKED_EXIT_CODE = 3;

/** Another live process has the embedded database open: a second writer would corrupt it. */
export class DataDirLockedError extends Error {
  readonly exitCode = DATA_DIR_LOCKED_EXIT_CODE;
}

interface LockContent {
  pid: number;
  host: string;
  since: string;
}

export const LOCK_FILE_NAME = 'dictum.lock';

/** Folders this process holds, so that it refuses to open one twice too (tests start servers in one process). */
const heldHere = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(file: string): LockContent | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockContent>;
    return typeof parsed.pid === 'number' ? { pid: parsed.pid, host: String(parsed.host ?? ''), since: String(parsed.since ?? '') } : null;
  } catch {
    return null;
  }
}

/** Whether the process named in a lock may still hold it; a lock of another host is assumed live (its processes cannot be seen). */
function holderIsLive(lock: LockContent, dir: string): boolean {
  if (lock.host !== os.hostname()) return true;
  // The same pid is this process: live only when this process opened the folder (a container restarted keeps pid 1).
  if (lock.pid === process.pid) return heldHere.has(dir);
  return alive(lock.pid);
}

/**
 * Takes the lock of an embedded data folder: a file holding this process's id, created only when
 * absent. A lock whose process has ended (a crash, a kill) is taken over; one whose process still
 * runs is waited for up to `waitMs` (a restart whose predecessor is still closing the database),
 * then refused. Returns the release.
 */
export async function lockDataDir(dataDir: string, o: { waitMs?: number } = {}): Promise<() => void> {
  const dir = path.resolve(dataDir);
  const file = path.join(dir, LOCK_FILE_NAME);
  fs.mkdirSync(dir, { recursive: true });
  const mine: LockContent = { pid: process.pid, host: os.hostname(), since: new Date().toISOString() };
  const deadline = Date.now() + (o.waitMs ?? 5_000);
  for (;;) {
    try {
      fs.writeFileSync(file, `${JSON.stringify(mine)}\n`, { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const held = readLock(file);
      if (held && holderIsLive(held, dir)) {
        if (Date.now() < deadline && held.pid !== process.pid) {
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
        throw new DataDirLockedError(
          `The data folder ${dir} is in use by process ${held.pid} on ${held.host} since ${held.since}: ` +
            `one process at a time may open an embedded database (stop it, or use DATABASE_URL to share a PostgreSQL server; ` +
            `remove ${file} only if that process is gone)`,
        );
      }
      // Stale (its process is gone, or the file is unreadable): take it over.
      fs.rmSync(file, { force: true });
    }
  }
  heldHere.add(dir);
  const releaseOnExit = () => release();
  process.once('exit', releaseOnExit);
  let released = false;
  function release(): void {
    if (released) return;
    released = true;
    process.removeListener('exit', releaseOnExit);
    heldHere.delete(dir);
    const now = readLock(file);
    // Removes only its own lock: one taken over meanwhile belongs to another process.
    if (now && now.pid === mine.pid && now.since === mine.since) fs.rmSync(file, { force: true });
  }
  return release;
}
