import fs from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';

type Destination = ReturnType<typeof pino.destination>;

export interface LogFileEntry {
  fileName: string;
  fileSize: number;
}

const FILE_PATTERN = /^dictum-[A-Za-z0-9._-]+\.log$/;

/** A file name of this folder: only names this class writes, so no request can reach another path. */
export function isLogFileName(name: string): boolean {
  return FILE_PATTERN.test(name) && !name.includes('..');
}

/**
 * This instance's log folder: one current file that pino writes through, rotated on request, when it
 * outgrows its size limit or when the day changes. Each instance writes files of its own (the node id
 * is part of the name), so instances may share a folder.
 */
export class LogFiles {
  readonly #dir: string;
  readonly #prefix: string;
  readonly #maxBytes: number;
  #current: string;
  #dest: Destination;
  #day: string;
  #written = 0;
  #seq = 0;
  #timer: NodeJS.Timeout | null = null;

  constructor(dir: string, nodeId: string, maxBytes: number) {
    this.#dir = path.resolve(dir);
    this.#prefix = `dictum-${nodeId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    this.#maxBytes = maxBytes;
    fs.mkdirSync(this.#dir, { recursive: true });
    this.#day = new Date().toISOString().slice(0, 10);
    this.#current = this.#nextName();
    this.#dest = pino.destination({ dest: path.join(this.#dir, this.#current), sync: true, mkdir: true });
    // Size and day are checked now and then, not on every line.
    this.#timer = setInterval(() => this.#maybeRotate(), 10_000);
    this.#timer.unref();
  }

  get dir(): string {
    return this.#dir;
  }

  /** The stream pino's multistream writes to. */
  readonly stream = {
    write: (line: string): void => {
      this.#written += Buffer.byteLength(line);
      this.#dest.write(line);
    },
  };

  #nextName(): string {
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    return `${this.#prefix}-${stamp}-${String(++this.#seq).padStart(3, '0')}.log`;
  }

  #maybeRotate(): void {
    const day = new Date().toISOString().slice(0, 10);
    if (day !== this.#day || this.#written >= this.#maxBytes) this.rotate();
  }

  currentFileName(): string {
    return this.#current;
  }

  /** Starts a new current file; the old one stays in the folder. */
  rotate(): string {
    this.#day = new Date().toISOString().slice(0, 10);
    this.#current = this.#nextName();
    this.#written = 0;
    this.#dest.reopen(path.join(this.#dir, this.#current));
    return this.#current;
  }

  /** The files of this folder, newest first. */
  list(): LogFileEntry[] {
    return fs
      .readdirSync(this.#dir)
      .filter(isLogFileName)
      .map((fileName) => ({ fileName, fileSize: fs.statSync(path.join(this.#dir, fileName)).size }))
      .sort((a, b) => (a.fileName < b.fileName ? 1 : -1));
  }

  /** The path of a file of the folder, or null when no such file is there. */
  pathOf(fileName: string): string | null {
    if (!isLogFileName(fileName)) return null;
    return this.list().some((f) => f.fileName === fileName) ? path.join(this.#dir, fileName) : null;
  }

  /** Deletes this instance's files except the current one; answers how many went. */
  deleteOld(): number {
    let n = 0;
    for (const f of this.list()) {
      if (f.fileName === this.#current || !f.fileName.startsWith(`${this.#prefix}-`)) continue;
      fs.rmSync(path.join(this.#dir, f.fileName), { force: true });
      n++;
    }
    return n;
  }

  close(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#dest.flushSync();
    this.#dest.end();
  }
}
