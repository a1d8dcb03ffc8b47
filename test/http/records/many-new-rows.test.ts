import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';

/** Texts a line may carry: quotes, backslashes, control characters, letters outside ASCII, JSON and pgbench-like colons. */
const TEXTS = ['plain', 'quote " and \\ backslash', 'tab\tand newline\n', 'control \u0001 char', 'accents é ñ and 中文', "single ' quote", '{"json": [1, "a"]}', 'colon :name', '  padded  ', ''];
/** Amounts as a client sends them: binary fractions, many digits, negative, zero. */
const AMOUNTS = [0.1 + 0.2, 123456789.123456, -5.25, 0, 1e-7, 42];

describe('new rows of many lines', () => {
  let server: TestServer;
  let token: string;
  const create = async (lines: Record<string, unknown>[]) => {
    const r = await server.request('POST', '/api/v1/models/c_bankstatement', { token, body: { C_BankAccount_ID: 100, C_BankStatementLine: lines } });
    assert.equal(r.status, 201, r.text);
    return r.body as { id: number; C_BankStatementLine: Record<string, unknown>[] };
  };
  const stored = async (id: number) =>
    (
      await server.services.db.query<Record<string, unknown>>(
        `SELECT line, memo, description, referenceno, stmtamt::text AS stmtamt, trxamt::text AS trxamt, chargeamt::text AS chargeamt, eftamt::text AS eftamt,
                c_charge_id, statementlinedate::text AS day, isactive, ismanual, c_currency_id
           FROM c_bankstatementline WHERE c_bankstatement_id = $1 ORDER BY line`,
        [id],
      )
    ).rows;
  const lines = (texts: string[]) =>
    texts.map((memo, i) => ({
      ReferenceNo: `REF-${i}`,
      Memo: memo,
      StmtAmt: AMOUNTS[i % AMOUNTS.length],
      TrxAmt: AMOUNTS[(i + 1) % AMOUNTS.length],
      C_Charge_ID: 100,
      EftAmt: i,
      Description: i % 2 ? null : `description ${i}`,
    }));
  /** The same lines, the last one leaving Description out (its default then applies): the lines no longer all set the same columns. */
  const unevenly = (texts: string[]) => lines(texts).map((l, i, all) => (i === all.length - 1 ? { ...l, Description: undefined } : l));

  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('stores the values lines give alike whether every line sets every column or not', async () => {
    const even = await create(lines(TEXTS));
    const uneven = await create(unevenly(TEXTS));
    const a = await stored(even.id);
    const b = await stored(uneven.id);
    assert.equal(a.length, TEXTS.length);
    assert.deepEqual(
      a.map((r) => r.memo),
      TEXTS,
      'texts are stored as given',
    );
    assert.deepEqual(a.slice(0, -1), b.slice(0, -1), 'lines given alike are stored alike');
    assert.deepEqual(
      a.map((r) => [Number(r.stmtamt), Number(r.trxamt)]),
      TEXTS.map((_, i) => [AMOUNTS[i % AMOUNTS.length], AMOUNTS[(i + 1) % AMOUNTS.length]]),
      'amounts are stored as the client sent them',
    );
    assert.equal(a[0]!.stmtamt, '0.30000000000000004');
    assert.equal(a[4]!.stmtamt, '0.0000001');
    assert.deepEqual(
      even.C_BankStatementLine.map((l) => [l.Memo ?? null, l.StmtAmt, l.Line]),
      uneven.C_BankStatementLine.map((l) => [l.Memo ?? null, l.StmtAmt, l.Line]),
      'the answers show the lines alike',
    );
  });

  it('stores text outside the basic plane as given', async () => {
    const texts = ['emoji 😀', 'plain', 'math 𝔸'];
    const s = await create(lines(texts));
    assert.deepEqual(
      (await stored(s.id)).map((r) => r.memo),
      texts,
    );
  });
});
