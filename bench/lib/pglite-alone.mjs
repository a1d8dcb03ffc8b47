// The floor of an embedded start on this machine: a Node process that opens PGlite on a data
// directory through the service's own driver (the same WebAssembly tiering budget, shared buffers
// and first statement), prints "ready" and exits. The start-up benchmark times it beside the
// service's start. Usage: node bench/lib/pglite-alone.mjs DATA_DIR   (after npm run build)
import { DEFAULT_PGLITE_SHARED_BUFFERS_MB } from '../../dist/src/config.js';
import { openPglite } from '../../dist/src/db/pglite-db.js';

const db = await openPglite({ dataDir: process.argv[2], sharedBuffersMb: DEFAULT_PGLITE_SHARED_BUFFERS_MB });
process.stdout.write('ready\n');
await db.close();
