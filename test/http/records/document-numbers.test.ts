import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assignDocumentNumbers } from '../../../src/records/write/document-number.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

describe('document numbers', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  const order = () => server.services.dictionary.current.byName.get('c_order')!;
  const numberOf = async (tx: Parameters<typeof assignDocumentNumbers>[0]) => {
    const row: Record<string, unknown> = { c_doctypetarget_id: 132 };
    await assignDocumentNumbers(tx, order(), row, 11);
    return Number(row.documentno);
  };
  const counter = async () =>
    Number((await server.services.db.query<{ n: number }>(`SELECT s.currentnext AS n FROM c_doctype d JOIN ad_sequence s ON s.ad_sequence_id = d.docnosequence_id WHERE d.c_doctype_id = 132`)).rows[0]!.n);

  it('come from the document type sequence, one after another', async () => {
    const start = await counter();
    const a = await server.services.db.tx((tx) => numberOf(tx));
    const b = await server.services.db.tx((tx) => numberOf(tx));
    assert.equal(a, start);
    assert.equal(b, start + 1);
    assert.equal(await counter(), start + 2);
  });

  it('on a PostgreSQL server, a document being created does not hold up the next one', { skip: !process.env.DATABASE_URL }, async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let first = 0;
    const slow = server.services.db.tx(async (tx) => {
      first = await numberOf(tx);
      await held;
    });
    while (!first) await new Promise((r) => setTimeout(r, 5));
    const second = await Promise.race([server.services.db.tx((tx) => numberOf(tx)), new Promise<number>((r) => setTimeout(() => r(-1), 3000))]);
    release();
    await slow;
    assert.equal(second, first + 1, 'the second number came while the first transaction was still open');
  });

  it('on embedded PGlite, a rolled-back create gives its number back', { skip: !!process.env.DATABASE_URL }, async () => {
    const start = await counter();
    await assert.rejects(
      server.services.db.tx(async (tx) => {
        await numberOf(tx);
        throw new Error('the create fails');
      }),
    );
    assert.equal(await counter(), start);
  });
});
