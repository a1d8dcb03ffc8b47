import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePgbenchOutput, percentile, pgArgs, pgbenchScript, rewriteStatement, sqlLiteral, statementLabels } from '../lib/pgbench.mjs';
import { socketDir, withHostPort } from '../lib/database.mjs';

test('literals are quoted like untyped parameters', () => {
  assert.equal(sqlLiteral('11'), "'11'");
  assert.equal(sqlLiteral("O'Brien"), "'O''Brien'");
  assert.equal(sqlLiteral(null), 'NULL');
  assert.equal(sqlLiteral(Buffer.from([1, 255])), "'\\x01ff'::bytea");
});

test('placeholders are replaced outside quotes and comments only, on one line', () => {
  const sql = `SELECT "a$1", 'x $2 ''$1''' AS t, $1 -- $2 here\nFROM t WHERE b = $2 /* $1 */ AND c = ANY($10::bigint[])`;
  const out = rewriteStatement(sql, (n) => `<${n}>`);
  assert.equal(out, `SELECT "a$1", 'x $2 ''$1''' AS t, <1> FROM t WHERE b = <2> AND c = ANY(<10>::bigint[])`);
  assert.equal(rewriteStatement("x LIKE $1 ESCAPE '\\' AND y = $2", (n) => `p${n}`), "x LIKE p1 ESCAPE '\\' AND y = p2");
});

test('a pgbench script sets variables and writes the bound values in', () => {
  const script = pgbenchScript(
    [
      { text: 'SELECT count(*) FROM t WHERE c IN (0, $1) AND o = ANY($2::bigint[])', params: ['11', '{0,11}'] },
      { text: 'SELECT * FROM t WHERE id = $1\n AND c IN (0, $2) LIMIT $3', params: ['2000017', '11', '50'] },
    ],
    { 2000017: { name: 'id', set: 'random(2000000, 2000099)' } },
  );
  assert.equal(
    script,
    "\\set id random(2000000, 2000099)\nSELECT count(*) FROM t WHERE c IN (0, '11') AND o = ANY('{0,11}'::bigint[]);\nSELECT * FROM t WHERE id = :id AND c IN (0, '11') LIMIT '50';\n",
  );
});

test('a colon in a value is written as a Unicode escape, which pgbench does not read as a variable; one in the text is refused', () => {
  assert.equal(pgbenchScript([{ text: 'SELECT $1', params: ['a:b\\c'] }]), "SELECT U&'a\\003Ab\\005Cc';\n");
  assert.throws(() => pgbenchScript([{ text: "SELECT 'a:b'", params: [] }]), /variable/);
  assert.throws(() => pgbenchScript([{ text: 'SELECT $2', params: ['x'] }]), /\$2/);
});

test('pgbench output and percentiles are read', () => {
  const out = `transaction type: x.sql
number of transactions actually processed: 3669
number of failed transactions: 0 (0.000%)
latency average = 8.731 ms
initial connection time = 12.0 ms
tps = 366.512 (without initial connection time)
`;
  assert.deepEqual(parsePgbenchOutput(out), { tps: 366.512, transactions: 3669, failed: 0, meanMs: 8.731 });
  assert.throws(() => parsePgbenchOutput('nothing'), /tps/);
  const v = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.equal(percentile(v, 50), 50);
  assert.equal(percentile(v, 99), 99);
  assert.equal(percentile([], 50), 0);
});

test('connection arguments come from the URL', () => {
  assert.deepEqual(pgArgs('postgres://bob:s%40cret@127.0.0.1:5433/dictum_bench'), { args: ['-h', '127.0.0.1', '-p', '5433', '-U', 'bob'], db: 'dictum_bench', env: { PGPASSWORD: 's@cret' } });
});

test('a URL naming a Unix socket directory gives pgbench that directory as its host', () => {
  const url = 'postgres://postgres@localhost/dictum_bench?host=%2Fvar%2Frun%2Fpostgresql';
  assert.deepEqual(pgArgs(url), { args: ['-h', '/var/run/postgresql', '-U', 'postgres'], db: 'dictum_bench', env: {} });
  assert.equal(socketDir(url), '/var/run/postgresql');
  assert.equal(socketDir('postgres://postgres@127.0.0.1:5432/dictum_bench'), null);
  const relay = new URL(withHostPort(url, '127.0.0.1', 40000));
  assert.equal(relay.host, '127.0.0.1:40000');
  assert.equal(relay.searchParams.get('host'), null, 'the recording relay is reached over TCP');
});

test('the statements of a read are named page, count and statement N', () => {
  const st = (text) => ({ text, params: [] });
  assert.deepEqual(statementLabels([st('SELECT json_build_array(1) FROM t LIMIT 50'), st('SELECT count(*) AS n FROM t')]), ['page', 'count']);
  assert.deepEqual(statementLabels([st(' select COUNT(*) from t'), st('SELECT a FROM t'), st('SELECT b FROM d')]), ['count', 'page', 'statement 3']);
});
