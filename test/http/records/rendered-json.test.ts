import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ident } from '../../../src/db/sql.js';
import { projection, renderedStatementText, RENDERED, statementText } from '../../../src/records/read/projection.js';
import { queryPacked } from '../../../src/records/read/packed-row.js';
import { serializeRecord } from '../../../src/records/serialize.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { login } from '../../helpers/login.js';

/**
 * Plain reads pass on records that the database renders as JSON text; reads with $expand or
 * showlabel build objects. Both must give the same record: checked here for every row of every
 * seeded table (up to a page per table), so every column kind and reference is compared.
 */
describe('records rendered by the database', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = await login(server);
  });
  after(async () => {
    await server.close();
  });

  it('equal the records built as objects, for every seeded table', async () => {
    const dict = server.services.dictionary.current;
    const db = server.services.db;
    let compared = 0;
    let tables = 0;
    for (const table of dict.tables) {
      const key = table.keyColumn ?? table.uuColumn;
      if (!key || !table.isActive) continue;
      const proj = projection(dict, table, undefined, 't');
      const tail = `FROM ${ident(table.dbName)} t ORDER BY t.${ident(key.dbName)} LIMIT 40`;
      const rows = await queryPacked(db, statementText(proj, tail), [], proj.items).catch((e: Error) => assert.fail(`${table.name} (objects): ${e.message}`));
      if (!rows.length) continue;
      const texts = (await db.query<Record<string, string>>(renderedStatementText(proj, tail), []).catch((e: Error) => assert.fail(`${table.name}: ${e.message}`))).rows.map((r) => r[RENDERED]!);
      assert.equal(texts.length, rows.length, table.name);
      rows.forEach((row, i) => {
        const expected = serializeRecord(dict, table, row, { columns: proj.output });
        let actual: unknown;
        assert.doesNotThrow(() => (actual = JSON.parse(texts[i]!)), `${table.name}: not JSON: ${texts[i]!.slice(0, 300)}`);
        assert.deepEqual(actual, JSON.parse(JSON.stringify(expected)), `${table.name} row ${i}`);
        // Same members in the same order, not only the same content.
        assert.deepEqual(Object.keys(actual as object), Object.keys(expected), `${table.name} row ${i}: member order`);
      });
      compared += rows.length;
      tables++;
    }
    assert.ok(tables > 50, `compared ${tables} tables`);
    assert.ok(compared > 1000, `compared ${compared} records in ${tables} tables`);
  });

  it('serves plain reads as the rendered text, reads with $expand as objects, with the same records', async () => {
    const plain = await server.request('GET', '/api/v1/models/c_bpartner?$orderby=Name&$top=5', { token });
    assert.equal(plain.status, 200);
    assert.match(plain.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(Object.keys(plain.body), ['page-count', 'records-size', 'skip-records', 'row-count', 'records', 'array-count']);
    assert.equal(plain.headers.get('x-array-count'), '5');
    const expanded = await server.request('GET', '/api/v1/models/c_bpartner?$orderby=Name&$top=5&$expand=AD_User($select=Name)', { token });
    assert.equal(expanded.status, 200);
    plain.body.records.forEach((r: Record<string, unknown>, i: number) => {
      const { AD_User: _, ...rest } = expanded.body.records[i];
      assert.deepEqual(r, rest);
    });

    const one = await server.request('GET', '/api/v1/models/c_bpartner/117?showsql=true', { token });
    assert.equal(one.status, 200);
    assert.equal(one.body.id, 117);
    const keys = Object.keys(one.body);
    assert.deepEqual(keys.slice(-2), ['model-name', 'sql-command'], 'showsql members follow the record');
    const withSql = await server.request('GET', "/api/v1/models/c_bpartner?$filter=Value eq 'JoeBlock'&showsql=true", { token });
    assert.equal(withSql.status, 200);
    assert.deepEqual(Object.keys(withSql.body), ['page-count', 'records-size', 'skip-records', 'row-count', 'sql-command', 'records', 'array-count']);
    assert.equal(withSql.body.records[0].Value, 'JoeBlock');
  });
});
