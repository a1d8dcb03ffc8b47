import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/errors.js';
import { LoginBodySchema, parsers as routeParsers, RefreshBodySchema, ResetRequestBodySchema } from '../../../src/auth/schemas.js';
import { SchemaCheck } from '../../../src/http/schema-validation.js';

// The checks the routes' schemas make (src/http/schema-validation.ts).
const parsers = { ...routeParsers, login: new SchemaCheck(LoginBodySchema), refresh: new SchemaCheck(RefreshBodySchema), resetRequest: new SchemaCheck(ResetRequestBodySchema) };

function fails(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ApiError);
    return e;
  }
  assert.fail('expected an error');
}

describe('authentication request bodies', () => {
  it('accept a one-step login with ids or names', () => {
    const body = parsers.login.parse({ userName: 'GardenAdmin', password: 'x', parameters: { clientId: 11, roleId: 'GardenWorld Admin', organizationId: 'HQ', warehouseId: 103, language: 'en_US' } });
    assert.equal(body.parameters?.roleId, 'GardenWorld Admin');
    assert.equal(parsers.login.parse({ userName: 'a', password: 'b' }).parameters, undefined);
  });

  it('name the missing or mistyped field in a 400', () => {
    const e = fails(() => parsers.login.parse({ password: 'x' }));
    assert.equal(e.status, 400);
    assert.match(e.detail, /userName is required/);
    const t = fails(() => parsers.login.parse({ userName: 'a', password: 'b', parameters: { clientId: true } }));
    assert.match(t.detail, /parameters\.clientId/);
    assert.match(fails(() => parsers.login.parse('text')).detail, /JSON object/);
    assert.match(fails(() => parsers.login.parse([])).detail, /JSON object/);
    assert.match(fails(() => parsers.login.parse(null)).detail, /JSON object/);
  });

  it('check refresh bodies: the token is required, ids are integers or digit strings', () => {
    assert.equal(parsers.refresh.parse({ refresh_token: 'a.b.c', clientId: 11, userId: '101' }).userId, '101');
    assert.match(fails(() => parsers.refresh.parse({})).detail, /refresh_token is required/);
    assert.equal(fails(() => parsers.refresh.parse({ refresh_token: 'x', clientId: 'eleven' })).status, 400);
  });

  it('use the caller-provided error when given', () => {
    const e = fails(() => parsers.resetVerify.parse({ email: 'a@b.c' }, () => new ApiError(400, 'Uniform', 'same')));
    assert.equal(e.title, 'Uniform');
    assert.equal(e.detail, 'same');
  });

  it('refuse a blank e-mail address for a reset request', () => {
    assert.equal(fails(() => parsers.resetRequest.parse({ email: '   ' })).status, 400);
    assert.equal(fails(() => parsers.resetRequest.parse({ email: '' })).status, 400);
    assert.equal(parsers.resetRequest.parse({ email: ' a@b.c ', language: 'de_DE' }).language, 'de_DE');
  });
});
