// The floor of an embedded start on this machine: a Node process that opens PGlite on a data
// directory as the service does (the same WebAssembly tiering budget and shared buffers), runs one
// statement, prints "ready" and exits. The start-up benchmark times it beside the service's start.
// Usage: node bench/lib/pglite-alone.mjs DATA_DIR
import v8 from 'node:v8';

v8.setFlagsFromString('--wasm-tiering-budget=13000000');
const { PGlite } = await import('@electric-sql/pglite');
const db = await PGlite.create({ dataDir: process.argv[2], startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'] });
await db.query('SELECT 1');
process.stdout.write('ready\n');
await db.close();
