import { loadConfig } from './config.js';
import { openDatabase, seededSnapshot } from './db/open.js';
import { schemaCommand } from './dictionary/schema-command.js';
import { createLogger, startServer } from './server.js';

/** Command line: serve (default) | migrate | snapshot | schema [--apply]. */
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
    case 'schema': {
      const options = argv.slice(1);
      const unknown = options.find((o) => o !== '--apply');
      if (unknown) throw new Error(`Unknown option '${unknown}' of schema: use schema or schema --apply`);
      const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, cacheDir: config.cacheDir, log });
      try {
        const remaining = await schemaCommand(db, options.includes('--apply'), (line) => process.stdout.write(`${line}\n`));
        // Like diff: 1 when differences remain, so that a deployment script can stop on them.
        if (remaining > 0) process.exitCode = 1;
      } finally {
        await db.close();
      }
      return;
    }
    default:
      throw new Error(`Unknown command '${command}': use serve, migrate, snapshot or schema [--apply]`);
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  process.stderr.write(`dictum: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
