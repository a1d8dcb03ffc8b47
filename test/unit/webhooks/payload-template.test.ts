import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { columnList, renderTemplate, selectColumns } from '../../../src/webhooks/payload-template.js';
import { deliveryBody, deliveryData } from '../../../src/webhooks/outbox.js';

describe('payload templates', () => {
  const values = new Map<string, any>([['name', 'Joe "J"'], ['c_bpartner_id', 117], ['description', null], ['isactive', true]]);

  it('fill quoted and unquoted variables, omitting quoted nulls and keeping unquoted ones as null', () => {
    const out = renderTemplate('{"name": "@Name@", "id": @C_BPartner_ID@, "desc": "@Description@", "raw": @Description@, "active": @IsActive@, "missing": "@Nope@"}', values);
    assert.deepEqual(out, { name: 'Joe "J"', id: 117, raw: null, active: true });
  });

  it('throw when the result is not JSON', () => {
    assert.throws(() => renderTemplate('{"a": @Name', values));
  });

  it('narrow a record by include and exclude lists; a template ignores them', () => {
    const rec = { id: 1, uid: 'u', Name: 'n', Value: 'v', Description: 'd', 'model-name': 'c_bpartner' };
    assert.deepEqual(selectColumns(rec, columnList('name, value'), columnList('value')), { id: 1, uid: 'u', Name: 'n', 'model-name': 'c_bpartner' });
    assert.deepEqual(deliveryData({ template: null, include: null, exclude: 'Description' }, rec), { id: 1, uid: 'u', Name: 'n', Value: 'v', 'model-name': 'c_bpartner' });
    assert.deepEqual(deliveryData({ template: '{"n": "@Name@"}', include: 'Value', exclude: 'Name' }, rec), { n: 'n' });
    assert.deepEqual(deliveryData({ template: '{"bp": @C_BPartner_ID@}', include: null, exclude: null }, { C_BPartner_ID: { id: 117, identifier: 'x' } }), { bp: 117 });
    assert.deepEqual(deliveryData({ template: '{"k": @C_BPartner_ID@, "u": "@C_BPartner_UU@"}', include: null, exclude: null }, rec, { key: 'C_BPartner_ID', uuid: 'C_BPartner_UU' }), { k: 1, u: 'u' });
  });

  it('wrap standard payloads in the envelope and send others raw', () => {
    const at = new Date('2026-01-02T03:04:05.000Z');
    assert.deepEqual(JSON.parse(deliveryBody({ isStandard: true }, 'C_BPartner.TAN', at, { a: 1 })), { type: 'C_BPartner.TAN', timestamp: '2026-01-02T03:04:05.000Z', data: { a: 1 } });
    assert.equal(deliveryBody({ isStandard: false }, 'C_BPartner.TAN', at, { a: 1 }), '{"a":1}');
  });
});
