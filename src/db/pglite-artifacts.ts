import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import v8 from 'node:v8';

/**
 * PGlite's two large files, read and compiled ahead of opening the database. Given to PGlite,
 * they spare it doing the same once it is asked to open: `npm start` begins this before it loads
 * the service's code, so V8 compiles the WebAssembly on its background threads while the main
 * thread compiles and runs JavaScript (without it, the main thread waits for that compile).
 */
export interface PgliteArtifacts {
  /** pglite.wasm, compiled. */
  wasmModule: WebAssembly.Module;
  /** pglite.data, the files PostgreSQL reads beside its data directory (share/, lib/). */
  fsBundle: Pick<Blob, 'arrayBuffer'>;
}

/**
 * How much a WebAssembly function runs before V8 recompiles it with its optimising compiler. Node 20's
 * V8 does so after a small budget (1.8 million), so starting PostgreSQL in WASM set the optimiser to
 * work on dozens of its functions at once and the first request waited for them (Node 24's default
 * is 13 million). At 50 million an embedded restart answered some 50 ms sooner than at 13 million
 * on a 2-core machine, while list reads ran at the same rate from their first seconds on (measured
 * in docs/benchmarks.md): the functions that stay hot are still optimised, a moment later. A budget
 * given on the command line is left alone.
 */
const WASM_TIERING_BUDGET = 50_000_000;

/**
 * The process's loads. Global symbols and not module variables, because `npm start` imports this
 * module on its own before it loads the bundle, which holds its own copy of it.
 */
const MODULE = Symbol.for('dictum.pglite.wasmModule');
const DATA = Symbol.for('dictum.pglite.fsBundle');
const TIERING = Symbol.for('dictum.pglite.tieringBudget');
type Holder = { [MODULE]?: Promise<WebAssembly.Module> | null; [DATA]?: Promise<Buffer<ArrayBuffer>> | null; [TIERING]?: boolean };
const holder = globalThis as Holder;

/** Sets V8's WASM tiering budget once, before anything of PGlite's is compiled. */
export function setWasmTieringBudget(): void {
  if (holder[TIERING]) return;
  holder[TIERING] = true;
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((a) => a.startsWith('--wasm-tiering-budget'));
  if (!given) v8.setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
}

/** A file of PGlite's build (pglite.wasm, pglite.data). */
function pgliteFile(name: string): string {
  return path.join(path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), name);
}

async function read(name: string): Promise<Buffer<ArrayBuffer>> {
  return fs.readFileSync(pgliteFile(name)) as Buffer<ArrayBuffer>;
}

/** A failure surfaces where the promise is taken; until then nothing else waits on it. */
function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

/**
 * Starts reading and compiling PGlite's files unless that is under way. The compiled module is
 * kept for the life of the process (as PGlite itself does: every instance shares its code); the
 * data file is read anew for each open and let go of once given to PGlite.
 */
export function startPgliteArtifacts(): void {
  setWasmTieringBudget();
  // Read at once (a few milliseconds from the page cache): an asynchronous read would go one chunk
  // per turn of the event loop, and the loop does not turn while the service's code loads.
  holder[MODULE] ??= quiet(read('pglite.wasm').then((bytes) => WebAssembly.compile(bytes)));
  holder[DATA] ??= quiet(read('pglite.data'));
}

/** The artifacts for one open. A load that failed is forgotten, so that the next open tries again and reports its own error. */
export async function takePgliteArtifacts(): Promise<PgliteArtifacts> {
  startPgliteArtifacts();
  const module = holder[MODULE]!;
  const data = holder[DATA]!;
  holder[DATA] = null;
  try {
    const bytes = await data;
    // PGlite takes the bundle as a Blob and asks it for its bytes alone: given them as they were
    // read, it copies the 6 MB once (into its file system) instead of three times.
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    return { wasmModule: await module, fsBundle: { arrayBuffer: async () => whole } };
  } catch (e) {
    if (holder[MODULE] === module) holder[MODULE] = null;
    throw e;
  }
}
