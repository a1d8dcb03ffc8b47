import assert from 'node:assert/strict';

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits (bounded, about three seconds) until a condition holds, e.g. a reload that a notification starts. */
export async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 150 && !check(); i++) await sleep(20);
  assert.ok(check(), what);
}
