import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';
import { recordStatements } from '../../helpers/statements.js';
import { idOf } from './document-helpers.js';
import { countKeptIdentifierTables } from '../../../src/records/read/identifier-cache.js';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../../../src/paths.js';

/** The benchmark's request bodies (plain JavaScript, outside the compiled tree). */
const scenarios = (await import(pathToFileURL(path.join(projectRoot, 'bench', 'lib', 'scenarios.mjs')).href)) as {
  booksFixtures: (post: (path: string, body: unknown) => Promise<Record<string, any>>) => Promise<{ invoiceId: number; paymentId: number; orderId: number; receiptLineId: number }>;
  allocationBody: (ids: { invoiceId: number; paymentId: number }) => unknown;
  matchedInvoiceBody: (ids: { orderId: number; receiptLineId: number }) => unknown;
};
const { allocationBody, booksFixtures, matchedInvoiceBody } = scenarios;

/**
 * The statements of the benchmark's two books scenarios (bench/lib/scenarios.mjs), each one
 * request: a payment allocated to an invoice, and a vendor invoice from a receipt line with its
 * matches. The counts measured when this test was written, so that no change adds round trips
 * unnoticed.
 */
// 29 since completing keeps the partners' open balance and credit status (TotalOpenBalance, SOCreditStatus): two statements.
// 28 since a record locked for writing says in the same statement whether the role may read it.
const MAX_ALLOCATION = 28;
// 44: a completed invoice also looks for its payment term's schedule (C_InvoicePaySchedule) and keeps its
// partner's open balance and credit status. A vendor invoice looks for landed costs to distribute (one
// statement; their allocations are read for the posting only when there are some), and a record locked
// for writing says in the same statement whether the role may read it (one fewer): 44. 43 since the
// document type and its period are read in one statement.
const MAX_MATCHED_INVOICE = 43;

describe('statements of an allocation and of a matched vendor invoice, created and completed', () => {
  let server: TestServer;
  let token: string;
  let ids: { invoiceId: number; paymentId: number; orderId: number; receiptLineId: number };
  before(async () => {
    server = await startTestServer();
    token = await login(server);
    await countKeptIdentifierTables(server.services.dictionary.current);
    ids = await booksFixtures(async (path: string, body: unknown) => {
      const r = await server.request('POST', path, { token, body });
      assert.equal(r.status, 201, `${path}: ${r.text}`);
      return r.body;
    });
  });
  after(async () => {
    await server.close();
  });

  /** Statements of one request after a first one warmed the caches; transaction control and the background's left out. */
  const counted = async (path: string, body: unknown) => {
    const first = await server.request('POST', path, { token, body });
    assert.equal(first.status, 201, first.text);
    const { result, statements } = await recordStatements(server.services.db, () => server.request('POST', path, { token, body }));
    assert.equal(result.status, 201, result.text);
    assert.equal(idOf(result.body.DocStatus), 'CO');
    const own = statements.filter((s) => !/^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/i.test(s.text.trim()) && !/\bad_session\b/.test(s.text));
    if (process.env.SHOW_STATEMENTS) for (const s of own) console.log(s.name ?? '', s.text.replace(/\s+/g, ' ').slice(0, 160));
    return { result, own };
  };

  it(`a payment allocated to an invoice takes at most ${MAX_ALLOCATION} statements`, async () => {
    const { own } = await counted('/api/v1/models/c_allocationhdr', allocationBody(ids));
    process.stdout.write(`# allocation: ${own.length} statements\n`);
    assert.ok(own.length <= MAX_ALLOCATION, `${own.length} statements: ${own.map((s) => s.name ?? s.text.replace(/\s+/g, ' ').slice(0, 50)).join(' | ')}`);
  });

  it(`a vendor invoice from a receipt line, with its matches, takes at most ${MAX_MATCHED_INVOICE} statements`, async () => {
    const { result, own } = await counted('/api/v1/models/c_invoice', matchedInvoiceBody(ids));
    process.stdout.write(`# matched vendor invoice: ${own.length} statements\n`);
    const line = result.body.C_InvoiceLine[0];
    const matches = await server.request('GET', `/api/v1/models/m_matchinv?$filter=${encodeURIComponent(`C_InvoiceLine_ID eq ${line.id}`)}`, { token });
    assert.deepEqual(matches.body.records.map((m: Record<string, unknown>) => [idOf(m.M_InOutLine_ID), m.Qty, idOf(m.Posted)]), [[ids.receiptLineId, 1, 'Y']], 'matched to the receipt line and posted');
    assert.ok(own.length <= MAX_MATCHED_INVOICE, `${own.length} statements: ${own.map((s) => s.name ?? s.text.replace(/\s+/g, ' ').slice(0, 50)).join(' | ')}`);
  });
});
