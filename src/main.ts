import { loadConfig } from './config.js';
import { openDatabase, seededSnapshot } from './db/open.js';
import { schemaCommand } from './dictionary/schema-command.js';
import { distributedCommand } from './distribution/command.js';
import { createLogger, openLogFiles, startServer } from './server.js';
import { clearRoleType } from './auth/clear-role-type.js';
import { codeCacheOutcome, signalServing } from './start-signal.js';
import { parseCommandLine, USAGE_EXIT_CODE, UsageError } from './cli/command-line.js';
import { DataDirLockedError } from './db/data-dir-lock.js';
import { warnOfDemoPasswords } from './auth/demo-passwords.js';

/** Command line: serve (default) | migrate | snapshot | schema [--apply | --distributed [--json] [--strict]] | clear-role-type <AD_Role_ID>; --help, --version. */
async function main(argv: string[]): Promise<void> {
  const parsed = parseCommandLine(argv);
  if (parsed.kind !== 'run') {
    process.stdout.write(parsed.text);
    return;
  }
  const command = parsed.command;
  const config = loadConfig();
  // Only serve writes log files: the other commands are short and log to standard output.
  const files = command === 'serve' ? openLogFiles(config) : null;
  const log = createLogger(config, files);
  switch (command) {
    case 'serve': {
      const server = await startServer(config, log, files);
      log.info({ url: server.url, database: config.databaseUrl ? 'postgresql' : 'pglite', codeCache: codeCacheOutcome() }, 'Dictum is serving');
      signalServing();
      warnOfDemoPasswords(server.services, log);
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
      const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, cacheDir: config.cacheDir, waitMs: config.dbWaitMs, log });
      await db.close();
      return;
    }
    case 'snapshot': {
      await seededSnapshot(config.cacheDir, log);
      return;
    }
    case 'schema': {
      const v = parsed.values;
      if (v.apply === true && v.distributed === true) throw new UsageError('schema takes --apply or --distributed, not both');
      if ((v.json === true || v.strict === true) && v.distributed !== true) throw new UsageError('--json and --strict go with schema --distributed');
      const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, cacheDir: config.cacheDir, waitMs: config.dbWaitMs, log });
      try {
        if (v.distributed === true) {
          const blockers = await distributedCommand(db, v.json === true, (line) => process.stdout.write(`${line}\n`));
          // Printing is the point (CI runs it for the report); --strict makes remaining blockers fail.
          if (blockers > 0 && v.strict === true) process.exitCode = 1;
          return;
        }
        const remaining = await schemaCommand(db, parsed.values.apply === true, (line) => process.stdout.write(`${line}\n`));
        // Like diff: 1 when differences remain, so that a deployment script can stop on them.
        if (remaining > 0) process.exitCode = 1;
      } finally {
        await db.close();
      }
      return;
    }
    case 'clear-role-type': {
      const id = parsed.positionals[0];
      if (!id || !/^\d+$/.test(id)) throw new UsageError('clear-role-type needs a role id: clear-role-type 0');
      const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, cacheDir: config.cacheDir, waitMs: config.dbWaitMs, log });
      try {
        const was = await clearRoleType(db, Number(id));
        if (was === undefined) throw new Error(`There is no role ${id}`);
        process.stdout.write(was === null ? `Role ${id}: Role Type already blank; the role may log in over REST\n` : `Role ${id}: Role Type ${was} cleared; the role may log in over REST\n`);
      } finally {
        await db.close();
      }
      return;
    }
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  process.stderr.write(`dictum: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(e instanceof UsageError ? USAGE_EXIT_CODE : e instanceof DataDirLockedError ? e.exitCode : 1);
});
