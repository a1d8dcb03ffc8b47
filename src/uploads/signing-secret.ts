import { hkdfSync } from 'node:crypto';
import type { Db } from '../db/types.js';

/**
 * The key of presigned upload URLs, derived (HKDF) from the private part of the oldest stored
 * token signing key: every instance derives the same key, and it is as secret as that key (no
 * role reads REST_SigningKey). Pruning that signing key ends the presigned URLs given out before.
 */
export class UploadSigningSecret {
  #value: Promise<string> | null = null;
  constructor(private readonly db: Db) {}

  get(): Promise<string> {
    this.#value ??= this.#load().catch((e: unknown) => {
      this.#value = null;
      throw e;
    });
    return this.#value;
  }

  async #load(): Promise<string> {
    const { rows } = await this.db.query<{ privatekey: string }>('SELECT privatekey FROM rest_signingkey ORDER BY rest_signingkey_id LIMIT 1');
    if (!rows[0]) throw new Error('No signing key is stored');
    const jwk = JSON.parse(rows[0].privatekey) as { d?: string };
    if (!jwk.d) throw new Error('The signing key has no private part');
    return Buffer.from(hkdfSync('sha256', Buffer.from(jwk.d, 'base64url'), Buffer.alloc(0), 'dictum upload presigned URL', 32)).toString('hex');
  }
}
