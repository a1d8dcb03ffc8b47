import type { Tx } from '../db/types.js';
import { hashPassword, isClearText } from './passwords.js';

/**
 * Replaces every clear-text password still stored in AD_User (written before passwords were
 * hashed on save) by its argon2id hash; the accounts keep logging in with the same password.
 */
export async function hashClearTextPasswords(tx: Tx): Promise<number> {
  const { rows } = await tx.query<{ ad_user_id: number; password: string | null }>(
    `SELECT ad_user_id, password FROM ad_user WHERE password IS NOT NULL AND password <> '' AND password NOT LIKE '$argon2%'`,
  );
  let n = 0;
  for (const r of rows) {
    if (!isClearText(r.password)) continue;
    await tx.query(`UPDATE ad_user SET password = $2, salt = NULL WHERE ad_user_id = $1`, [r.ad_user_id, await hashPassword(r.password)]);
    n++;
  }
  return n;
}
