/** pino's level names, and the java.util.logging names the original accepts, as pino levels. */
const LEVELS: Record<string, string> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  info: 'info',
  debug: 'debug',
  trace: 'trace',
  silent: 'silent',
  off: 'silent',
  severe: 'error',
  warning: 'warn',
  config: 'debug',
  fine: 'debug',
  finer: 'trace',
  finest: 'trace',
  all: 'trace',
};

/** The pino level a requested level name means (case-insensitive), or null when it is not one. */
export function logLevelOf(name: string): string | null {
  return LEVELS[name.toLowerCase()] ?? null;
}

export const ACCEPTED_LEVEL_NAMES = Object.keys(LEVELS);
