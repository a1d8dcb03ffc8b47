import fs from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { projectRoot } from '../paths.js';

/** A wrong command line: the process says why, shows where help is, and exits with 2 (as getopt-style tools do). */
export class UsageError extends Error {}

export const USAGE_EXIT_CODE = 2;

type Options = NonNullable<ParseArgsConfig['options']>;

interface CommandSpec {
  name: string;
  /** Positional arguments, as shown in the usage line. */
  args: string;
  summary: string;
  options: Options;
  /** One help line per option. */
  optionHelp: Record<string, string>;
  positionals: { min: number; max: number };
}

export const COMMANDS: CommandSpec[] = [
  {
    name: 'serve',
    args: '',
    summary: 'serve the API (the default command); PORT, HOST, DATABASE_URL and the rest of the environment configure it',
    options: {},
    optionHelp: {},
    positionals: { min: 0, max: 0 },
  },
  {
    name: 'migrate',
    args: '',
    summary: 'apply pending database migrations and exit',
    options: {},
    optionHelp: {},
    positionals: { min: 0, max: 0 },
  },
  {
    name: 'snapshot',
    args: '',
    summary: 'build the seeded database snapshot into the cache folder (DICTUM_CACHE_DIR) and exit',
    options: {},
    optionHelp: {},
    positionals: { min: 0, max: 0 },
  },
  {
    name: 'schema',
    args: '',
    summary: 'compare the database with the dictionary; exit code 1 while differences remain',
    options: { apply: { type: 'boolean' }, distributed: { type: 'boolean' }, json: { type: 'boolean' }, strict: { type: 'boolean' } },
    optionHelp: {
      apply: 'add missing columns and rebuild differing indexes (never drops a column)',
      distributed: 'instead: report how each table would be placed on Citus by AD_Client_ID and what blocks it',
      json: 'with --distributed: the report as JSON',
      strict: 'with --distributed: exit code 1 while blockers remain (else 0)',
    },
    positionals: { min: 0, max: 0 },
  },
  {
    name: 'clear-role-type',
    args: '<AD_Role_ID>',
    summary: 'clear a role\'s Role Type so that it may log in over REST (the System role 0 ships as WebUI)',
    options: {},
    optionHelp: {},
    positionals: { min: 1, max: 1 },
  },
];

const GLOBAL_OPTIONS: Options = { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' } };

export type ParsedCommandLine =
  | { kind: 'help'; text: string }
  | { kind: 'version'; text: string }
  | { kind: 'run'; command: string; positionals: string[]; values: Record<string, unknown> };

export function version(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

const usageLine = (c: CommandSpec): string => `dictum ${c.name}${Object.keys(c.options).map((o) => ` [--${o}]`).join('')}${c.args ? ` ${c.args}` : ''}`;

/** The help of one command, or of them all. */
export function helpText(command?: CommandSpec): string {
  if (command) {
    const lines = [`Usage: ${usageLine(command)}`, '', command.summary, '', 'Options:'];
    for (const [name, text] of Object.entries(command.optionHelp)) lines.push(`  ${`--${name}`.padEnd(16)} ${text}`);
    lines.push(`  ${'-h, --help'.padEnd(16)} show this help`);
    return `${lines.join('\n')}\n`;
  }
  const lines = ['Usage: dictum [command] [options]', '', 'Commands:'];
  for (const c of COMMANDS) {
    lines.push(`  ${usageLine(c).slice('dictum '.length)}`);
    lines.push(`      ${c.summary}`);
    for (const [name, text] of Object.entries(c.optionHelp)) lines.push(`      --${name}: ${text}`);
  }
  lines.push('', 'Options:', '  -h, --help       show this help (after a command: that command\'s help)', '  -v, --version    show the version', '');
  lines.push('Configuration is read from the environment: see the README, section Configuration.');
  return `${lines.join('\n')}\n`;
}

const known = (): string => COMMANDS.map((c) => c.name).join(', ');

/** Reads the command line (the arguments after the script), or throws UsageError. */
export function parseCommandLine(argv: string[]): ParsedCommandLine {
  const first = argv[0];
  if (first === undefined || first.startsWith('-')) {
    // Options before any command: --help and --version, or the default command's options.
    const { values } = parse(argv, GLOBAL_OPTIONS, 'dictum');
    if (values.help) return { kind: 'help', text: helpText() };
    if (values.version) return { kind: 'version', text: `dictum ${version()}\n` };
    return { kind: 'run', command: 'serve', positionals: [], values: {} };
  }
  const spec = COMMANDS.find((c) => c.name === first);
  if (!spec) throw new UsageError(`Unknown command '${first}': use ${known()} (dictum --help lists them with their options)`);
  const { values, positionals } = parse(argv.slice(1), { ...spec.options, help: { type: 'boolean', short: 'h' } }, spec.name);
  if (values.help) return { kind: 'help', text: helpText(spec) };
  if (positionals.length < spec.positionals.min || positionals.length > spec.positionals.max) {
    throw new UsageError(`${spec.name} takes ${spec.args ? spec.args : 'no arguments'}: ${usageLine(spec)}`);
  }
  return { kind: 'run', command: spec.name, positionals, values };
}

function parse(args: string[], options: Options, where: string): { values: Record<string, unknown>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: { ...values }, positionals };
  } catch (e) {
    // parseArgs' message names the option; the usage line says what is allowed.
    const spec = COMMANDS.find((c) => c.name === where);
    const detail = (e instanceof Error ? e.message : String(e)).split('. ')[0];
    throw new UsageError(`${detail} of ${where}: use ${spec ? usageLine(spec) : 'dictum [command] [options]'} (--help lists the options)`);
  }
}
