import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { afterAction, docActionOfBody, isAccepted, parseDocAction } from '../../../src/documents/engine/doc-status.js';
import { movementTypeOf } from '../../../src/documents/inout-rules.js';

describe('document statuses and actions', () => {
  it('accepts the transitions of the original engine and no others', () => {
    assert.equal(isAccepted('DR', 'CO'), true);
    assert.equal(isAccepted('DR', 'CL'), false);
    assert.equal(isAccepted('CO', 'CL'), true);
    assert.equal(isAccepted('CO', 'CO'), false);
    assert.equal(isAccepted('CL', 'RE'), true);
    assert.equal(isAccepted('CL', 'VO'), false);
    assert.equal(isAccepted('VO', 'CO'), false);
    assert.equal(isAccepted('RE', 'VO'), false);
    assert.equal(isAccepted('IN', 'CO'), false);
    assert.equal(isAccepted('WP', 'CL'), true);
  });

  it('gives the status and next action after each action', () => {
    assert.deepEqual(afterAction('CO', 'CO'), { status: 'CO', next: 'CL', processed: true });
    assert.deepEqual(afterAction('CO', 'WP'), { status: 'WP', next: 'CO', processed: false });
    assert.deepEqual(afterAction('VO', 'CO'), { status: 'VO', next: '--', processed: true });
    assert.deepEqual(afterAction('RC', 'CO'), { status: 'RE', next: '--', processed: true });
    assert.deepEqual(afterAction('RE', 'CO'), { status: 'IP', next: 'CO', processed: false });
  });

  it('reads doc-action as a string or an object with an id, any case', () => {
    assert.equal(parseDocAction('co'), 'CO');
    assert.equal(parseDocAction({ id: 'VO' }), 'VO');
    assert.equal(parseDocAction(''), undefined);
    assert.equal(docActionOfBody({ Name: 'x', 'Doc-Action': 'CL' }), 'CL');
    assert.equal(docActionOfBody({ Name: 'x' }), undefined);
    assert.equal(docActionOfBody([1]), undefined);
  });
});

describe('movement types', () => {
  it('follow the document base type and the side', () => {
    assert.equal(movementTypeOf('MMS', true), 'C-');
    assert.equal(movementTypeOf('MMR', false), 'V+');
    assert.equal(movementTypeOf('MMR', true), 'C+');
    assert.equal(movementTypeOf('MMS', false), 'V-');
  });
});
