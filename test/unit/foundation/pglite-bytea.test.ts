import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { types } from '@electric-sql/pglite';
import { serializers } from '../../../src/db/pglite-db.js';
import { OID } from '../../../src/db/type-parsers.js';

describe('bytea parameters on embedded PGlite', () => {
  const ours = serializers[OID.bytea]!;
  const theirs = (types.serializers as Record<number, (v: unknown) => string>)[types.BYTEA]!;

  it('writes the same hex text as PGlite, for every byte value, a view into a larger buffer and no bytes', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const big = randomBytes(4096);
    const view = new Uint8Array(big.buffer, big.byteOffset + 7, 100);
    for (const v of [all, big, view, new Uint8Array(0), Buffer.from('plain text')]) assert.equal(ours(v), theirs(v));
    assert.equal(ours(Uint8Array.of(0, 255, 16)), '\\x00ff10');
  });
});
