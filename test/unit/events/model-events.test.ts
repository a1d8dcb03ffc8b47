import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ModelEvents, type ModelEvent } from '../../../src/events/model-events.js';
import type { Table } from '../../../src/dictionary/model.js';

const eventOf = (dbName: string): ModelEvent => ({ type: 'before-new', table: { dbName } as Table, row: {}, old: null, changed: new Set() }) as unknown as ModelEvent;

describe('ModelEvents.emit', () => {
  it('runs the handlers of a table in order without a promise when none of them waits', () => {
    const events = new ModelEvents();
    const seen: string[] = [];
    events.on('before-new', 'C_Order', () => void seen.push('order'));
    events.on('before-new', null, () => void seen.push('any'));
    events.on('before-new', 'C_Invoice', () => void seen.push('invoice'));
    assert.equal(events.emit(eventOf('c_order')), undefined);
    assert.deepEqual(seen, ['order', 'any']);
  });

  it('waits for a handler that returns a promise before the next one runs', async () => {
    const events = new ModelEvents();
    const seen: string[] = [];
    events.on('before-new', null, async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.push('slow');
    });
    events.on('before-new', null, () => void seen.push('next'));
    const waiting = events.emit(eventOf('c_order'));
    assert.ok(waiting instanceof Promise);
    assert.deepEqual(seen, []);
    await waiting;
    assert.deepEqual(seen, ['slow', 'next']);
  });

  it('gives a rejected promise for a handler that throws, and runs no later handler', async () => {
    const events = new ModelEvents();
    const seen: string[] = [];
    events.on('before-new', null, () => {
      throw new Error('refused');
    });
    events.on('before-new', null, () => void seen.push('after'));
    const waiting = events.emit(eventOf('c_order'));
    assert.ok(waiting instanceof Promise);
    await assert.rejects(waiting, /refused/);
    assert.deepEqual(seen, []);
  });
});
