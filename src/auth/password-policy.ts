import { MAX_PASSWORD_LENGTH } from './passwords.js';

/** What a new password must satisfy (tuned by PASSWORD_RESET_MIN_PASSWORD_LENGTH). */
export interface PasswordPolicy {
  minLength: number;
}

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = { minLength: 8 };

/** Who the password is for: it may not simply repeat the user name or the e-mail address. */
export interface PasswordOwner {
  userName: string;
  email: string | null;
}

/**
 * The rules a new password breaks, as sentences; an empty list means it is accepted.
 * Rules: a minimum length (in characters, not bytes), at most MAX_PASSWORD_LENGTH, not blank,
 * at least two kinds of characters among letters, digits and others, and not the user name
 * or the e-mail address (ignoring case).
 */
export function passwordViolations(password: string, owner: PasswordOwner, policy: PasswordPolicy = DEFAULT_PASSWORD_POLICY): string[] {
  const out: string[] = [];
  const length = [...password].length;
  const min = Math.max(1, Math.floor(policy.minLength));
  if (password.trim() === '') out.push('The password must not be blank');
  if (length < min) out.push(`The password must have at least ${min} characters`);
  if (length > MAX_PASSWORD_LENGTH) out.push(`The password must have at most ${MAX_PASSWORD_LENGTH} characters`);
  const kinds = [/\p{L}/u, /\p{Nd}/u, /[^\p{L}\p{Nd}]/u].filter((re) => re.test(password)).length;
  if (kinds < 2) out.push('The password must mix at least two kinds of characters: letters, digits, other signs');
  const lower = password.toLowerCase();
  if (lower === owner.userName.toLowerCase() || (owner.email && lower === owner.email.trim().toLowerCase())) {
    out.push('The password must not be the user name or the e-mail address');
  }
  return out;
}
