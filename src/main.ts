import { loadConfig } from './config.js';
import { openDatabase, seededSnapshot } from './db/open.js';
import { createLogger, startServer } from './server.js';

/** Command line: serve (default) | migrate | snapshot. */
async function main(argv: string[]): Promise<void> {
  const command = argv[0] ?? 'serve';
  const config = loadConfig();
  const log = createLogger(config);
  switch (command) {
    case 'serve': {
      const server = await startServer(config, log);
      log.info({ url: server.url, database: config.databaseUrl ? 'postgresql' : 'pglite' }, 'Dictum is serving');
      const stop = (signal: string) => {
        log.info({ signal }, 'shutting down');
        server.close().then(
          () => process.exit(0),
          (e) => {
            log.error({ err: e }, 'shutdown failed');
            process.exit(1);
          },
        );
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
      return;
    }
    case 'migrate': {
      const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, cacheDir: config.cacheDir, log });
      await db.close();
      return;
    }
    case 'snapshot': {
      await seededSnapshot(config.cacheDir, log);
      return;
    }
    default:
      throw new Error(`Unknown command '${command}': use serve, migrate or snapshot`);
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  process.stderr.write(`dictum: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
