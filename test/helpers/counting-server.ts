import { after, before } from 'node:test';
import { countKeptIdentifierTables } from '../../src/records/read/identifier-cache.js';
import { login } from './login.js';
import { startTestServer, type TestServer } from './server.js';
import type { RecordedStatement } from './statements.js';

/**
 * A server for a suite that counts statements, started before its tests and closed after them,
 * with the small tables counted so that a first request leaves their identifiers kept, as in a
 * running service. Answers getters of the server and of an administrator's token.
 */
export function countingServer(): { server: () => TestServer; token: () => string } {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = await login(server);
    await countKeptIdentifierTables(server.services.dictionary.current);
  });
  after(async () => {
    await server.close();
  });
  return { server: () => server, token: () => token };
}

/**
 * A request's own statements: without transaction control (not a round trip of its own here) and
 * the service's periodic expiry of sessions, which may run while the request does.
 */
export const ownStatements = (statements: RecordedStatement[]): RecordedStatement[] =>
  statements.filter((s) => !/^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/i.test(s.text.trim()) && !/\bad_session\b/.test(s.text));

/** The statements named (prepared name, else the start of the text), for an assertion's message; printed with SHOW_STATEMENTS. */
export function describeStatements(statements: RecordedStatement[]): string {
  if (process.env.SHOW_STATEMENTS) for (const s of statements) console.log(s.name ?? '', s.text.replace(/\s+/g, ' ').slice(0, 160));
  return `${statements.length} statements: ${statements.map((s) => s.name ?? s.text.replace(/\s+/g, ' ').slice(0, 50)).join(' | ')}`;
}
