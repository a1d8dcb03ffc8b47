import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import type { Db, Queryable } from '../db/types.js';
import { insertRow, ts, tsMillis } from './util.js';
import { notify } from '../db/notify.js';

export const ALG = 'ES256';
/** The issuer claim of the original API, kept for clients that check it. */
export const ISSUER = 'idempiere.org';
/** NOTIFY channel: a signing key was added or retired; every instance reloads its key set. */
export const KEYS_CHANNEL = 'dictum_signing_keys';
/** The least time between two reads of the key table prompted by tokens whose kid is unknown. */
export const UNKNOWN_KID_RELOAD_MS = 1000;

interface StoredKey {
  kid: string;
  publicJwk: JWK;
  publicKey: CryptoKey;
  privateJwk: JWK | null;
  validTo: number | null;
  isCurrent: boolean;
}

interface KeyRow {
  kid: string;
  algorithm: string | null;
  publickey: string;
  privatekey: string | null;
  validto: unknown;
  iscurrent: string | null;
}

/** Generates an ES256 key pair and stores it as the current signing key (caller holds the lock). */
async function insertNewKey(q: Queryable): Promise<string> {
  const { publicKey, privateKey } = await generateKeyPair(ALG, { extractable: true });
  const pub = await exportJWK(publicKey);
  const priv = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(pub);
  await insertRow(q, 'REST_SigningKey', {
    kid,
    algorithm: ALG,
    publickey: JSON.stringify({ ...pub, kid, alg: ALG, use: 'sig' }),
    privatekey: JSON.stringify({ ...priv, kid, alg: ALG }),
    validfrom: ts(Date.now()),
    validto: null,
    iscurrent: 'Y',
  });
  return kid;
}

/** Creates the first signing key unless one is in use; safe when several instances start at once. */
export async function ensureSigningKey(db: Db): Promise<void> {
  await db.tx(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('dictum.signing_key'))`);
    const { rows } = await tx.query(`SELECT 1 FROM rest_signingkey WHERE iscurrent = 'Y' AND validto IS NULL AND isactive = 'Y' LIMIT 1`);
    if (!rows.length) await insertNewKey(tx);
  });
}

/**
 * Adds a new current signing key and retires the previous one. Tokens signed with the old key
 * stay valid until they expire: retired keys are still used for verification and published.
 */
export async function rotateSigningKey(db: Db): Promise<string> {
  return db.tx((tx) => rotateSigningKeyIn(tx));
}

/** The rotation in the caller's transaction (the process Rotate Signing Key); instances reload when it commits. */
export async function rotateSigningKeyIn(tx: Queryable): Promise<string> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('dictum.signing_key'))`);
  await tx.query(`UPDATE rest_signingkey SET iscurrent = 'N', validto = $1, updated = $1 WHERE iscurrent = 'Y' AND validto IS NULL`, [ts(Date.now())]);
  const kid = await insertNewKey(tx);
  await notify(tx, KEYS_CHANNEL, kid);
  return kid;
}

/**
 * The signing and verification keys of this instance, loaded from REST_SigningKey and kept in
 * step with the other instances through NOTIFY. Private keys never leave this class.
 */
export class SigningKeys {
  #keys = new Map<string, StoredKey>();
  #current: { kid: string; key: CryptoKey } | null = null;
  #unlisten: (() => Promise<void>) | null = null;
  /** When the last read of the key table started. */
  #lastReload = 0;
  /** The loads run one after another, so that an older read never replaces a newer one. */
  #loads: Promise<void> = Promise.resolve();
  /** The reload shared by the verifications that meet an unknown kid meanwhile. */
  #unknownKidReload: Promise<void> | null = null;

  /** @param retentionMs how long a retired key stays usable for verification and published. */
  constructor(
    private readonly db: Db,
    private readonly retentionMs: () => number,
  ) {}

  async start(): Promise<void> {
    this.#unlisten = await this.db.listen(KEYS_CHANNEL, () => {
      this.load().catch(() => undefined);
    });
    await ensureSigningKey(this.db);
    await this.load();
  }

  async stop(): Promise<void> {
    if (this.#unlisten) await this.#unlisten();
    this.#unlisten = null;
  }

  /** Reads the key set again, after any load already under way. */
  load(): Promise<void> {
    const run = this.#loads.catch(() => undefined).then(() => this.#read());
    this.#loads = run;
    return run;
  }

  async #read(): Promise<void> {
    this.#lastReload = Date.now();
    const { rows } = await this.db.query<KeyRow>(
      `SELECT kid, algorithm, publickey, privatekey, validto, iscurrent FROM rest_signingkey WHERE isactive = 'Y' ORDER BY validfrom DESC, rest_signingkey_id DESC`,
    );
    const next = new Map<string, StoredKey>();
    let current: StoredKey | null = null;
    for (const r of rows) {
      if ((r.algorithm ?? ALG) !== ALG) continue;
      const publicJwk = JSON.parse(r.publickey) as JWK;
      const prev = this.#keys.get(r.kid);
      const stored: StoredKey = {
        kid: r.kid,
        publicJwk,
        publicKey: prev?.publicKey ?? ((await importJWK(publicJwk, ALG)) as CryptoKey),
        privateJwk: r.privatekey ? (JSON.parse(r.privatekey) as JWK) : null,
        validTo: tsMillis(r.validto),
        isCurrent: r.iscurrent === 'Y' && r.validto === null,
      };
      next.set(r.kid, stored);
      if (stored.isCurrent && !current && stored.privateJwk) current = stored;
    }
    this.#keys = next;
    if (current && this.#current?.kid !== current.kid) {
      this.#current = { kid: current.kid, key: (await importJWK(current.privateJwk!, ALG)) as CryptoKey };
    }
  }

  #usable(k: StoredKey, now = Date.now()): boolean {
    return k.validTo === null || now - k.validTo < this.retentionMs();
  }

  /** Makes sure a signing key is loaded (call it before a transaction that signs). */
  async ready(): Promise<void> {
    if (!this.#current) await this.load();
  }

  /** Signs claims with the current key (loaded by start or ready); expiresAt in milliseconds since the epoch. */
  async sign(claims: JWTPayload, expiresAt: number, subject?: string): Promise<string> {
    const cur = this.#current;
    if (!cur) throw new Error('No signing key is available');
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: ALG, kid: cur.kid, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt / 1000));
    if (subject !== undefined) jwt.setSubject(subject);
    return jwt.sign(cur.key);
  }

  /**
   * Verifies signature, issuer and expiry. An unknown kid may be a key that another instance has
   * just added: the verification waits for a load under way, then for a reload of its own;
   * errors come from jose (JWTExpired carries the verified payload).
   */
  async verify(token: string): Promise<JWTPayload> {
    const { payload } = await jwtVerify(
      token,
      async (header) => {
        const kid = header.kid ?? '';
        let k = this.#keys.get(kid);
        if (!k) {
          await this.#loads.catch(() => undefined);
          k = this.#keys.get(kid);
        }
        if (!k) {
          await this.#reloadForUnknownKid();
          k = this.#keys.get(kid);
        }
        if (!k || !this.#usable(k)) throw new Error('unknown signing key');
        return k.publicKey;
      },
      { issuer: ISSUER, algorithms: [ALG] },
    );
    return payload;
  }

  /**
   * One reload for all the unknown kids met meanwhile, started at least UNKNOWN_KID_RELOAD_MS
   * after the previous read: tokens with made-up kids cannot make the key table read more often,
   * and a key added just after the previous read is still found.
   */
  #reloadForUnknownKid(): Promise<void> {
    if (!this.#unknownKidReload) {
      const wait = Math.max(0, this.#lastReload + UNKNOWN_KID_RELOAD_MS - Date.now());
      this.#unknownKidReload = (async () => {
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        await this.load();
      })().finally(() => {
        this.#unknownKidReload = null;
      });
    }
    return this.#unknownKidReload;
  }

  /** The public key set: the current key and retired keys still within the token lifetime. */
  jwks(): { keys: JWK[] } {
    const keys: JWK[] = [];
    for (const k of this.#keys.values()) {
      if (!this.#usable(k)) continue;
      const { kty, crv, x, y } = k.publicJwk;
      keys.push({ kty, crv, x, y, kid: k.kid, alg: ALG, use: 'sig' });
    }
    return { keys };
  }

  get currentKid(): string | null {
    return this.#current?.kid ?? null;
  }
}
