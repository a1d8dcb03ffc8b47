import { availableParallelism } from 'node:os';
import type { Options } from '@node-rs/argon2';
import pLimit from 'p-limit';
import { constantTimeEquals, randomSecret } from './util.js';

/**
 * argon2id (algorithm 2) at 7 MiB, 5 passes, 1 lane: one of the settings OWASP gives as equal in
 * strength to 19 MiB and 2 passes, for the same CPU time, chosen because several logins hash at
 * once (one per CPU, below) and memory per hash adds up while they do.
 */
const ARGON2ID: Options = { algorithm: 2 as NonNullable<Options['algorithm']>, memoryCost: 7168, timeCost: 5, parallelism: 1 };
const CURRENT_PARAMS = '$argon2id$v=19$m=7168,t=5,p=1$';

/**
 * Hashes run at most one per CPU. They run on libuv's worker threads (4 by default): more hashes
 * at once than CPUs finish no sooner, but each holds its 7 MiB meanwhile and keeps a worker from
 * file, DNS and crypto jobs. Measured on 2 CPUs, 32 logins at a time: peak memory 141-142 MB
 * against 154-156 MB, logins per second the same.
 */
const hashing = pLimit(Math.max(1, availableParallelism()));
/** The native library loads on the first hash: loading it took a start some 20 ms that nothing needs before a login. */
let argon2: Promise<typeof import('@node-rs/argon2')> | null = null;
const library = () => (argon2 ??= import('@node-rs/argon2'));
const hash = (value: string, options: Options): Promise<string> => hashing(async () => (await library()).hash(value, options));
const verify = (phc: string, value: string): Promise<boolean> => hashing(async () => (await library()).verify(phc, value));

/** Hashes running and waiting now. */
export const hashingLoad = (): { running: number; waiting: number; limit: number } => ({ running: hashing.activeCount, waiting: hashing.pendingCount, limit: hashing.concurrency });

/** Whether a stored hash was made with other settings than today's, so it is worth re-hashing after a login. */
export const needsRehash = (stored: string): boolean => !stored.startsWith(CURRENT_PARAMS);

/** Longest password accepted anywhere: bounds the hashing work an attacker can request. */
export const MAX_PASSWORD_LENGTH = 1024;

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2ID);

let dummy: Promise<string> | null = null;
/** A hash of a random value, verified against when there is no account, so timing stays the same. */
export function dummyHash(): Promise<string> {
  dummy ??= hash(randomSecret(24), ARGON2ID);
  return dummy;
}

export const isPhc = (stored: string): boolean => stored.startsWith('$argon2');

/** A stored value that is not yet a hash (written before passwords were hashed on save). */
export const isClearText = (stored: string | null | undefined): stored is string => typeof stored === 'string' && stored !== '' && !isPhc(stored);

/** Checks a value against an argon2 hash of it (reset codes); no hash costs the same work and fails. */
export async function verifyHash(phc: string | null | undefined, value: string): Promise<boolean> {
  const target = phc && isPhc(phc) ? phc : await dummyHash();
  let ok = false;
  try {
    ok = await verify(target, value);
  } catch {
    ok = false;
  }
  return ok && target === phc;
}

/**
 * Checks a password against AD_User.Password. An argon2 PHC string is verified; any other
 * stored value is a legacy clear-text password, compared in constant time (the caller then
 * upgrades it to argon2id). A missing password never matches, after the same work.
 */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    await verify(await dummyHash(), password).catch(() => false);
    return false;
  }
  if (isPhc(stored)) {
    try {
      return await verify(stored, password);
    } catch {
      return false;
    }
  }
  // Same hashing work as the argon2 path, then a constant-time comparison.
  await verify(await dummyHash(), password).catch(() => false);
  return constantTimeEquals(stored, password);
}
