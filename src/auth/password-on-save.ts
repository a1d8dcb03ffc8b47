import { USER_LOCK_COLUMNS, USER_SECRET_COLUMNS } from '../access/security-tables.js';
import { badRequest, forbidden } from '../errors.js';
import type { ModelEvent, ModelEvents } from '../events/model-events.js';
import type { SysConfig } from '../sysconfig/sysconfig.js';
import { passwordViolations } from './password-policy.js';
import { hashPassword } from './passwords.js';
import { RESET_DEFAULTS } from './password-reset.js';

/**
 * Every password written to AD_User through the record engine (create, update, batch, nested
 * details) is checked against the password policy and stored as an argon2id hash, as the
 * reset flow stores it; the clear text never reaches the table. Changing the secrets or the
 * lock of another user's account takes the client administrator's right; users may change
 * their own password.
 */
export function registerPasswordRules(events: ModelEvents, sysConfig: SysConfig): void {
  const minLength = async (e: ModelEvent, clientId: number): Promise<number> => {
    const v = await sysConfig.getInt('PASSWORD_RESET_MIN_PASSWORD_LENGTH', RESET_DEFAULTS.PASSWORD_RESET_MIN_PASSWORD_LENGTH, clientId, 0, e.tx);
    return Number.isFinite(v) && v > 0 ? v : RESET_DEFAULTS.PASSWORD_RESET_MIN_PASSWORD_LENGTH;
  };

  const onSave = async (e: ModelEvent): Promise<void> => {
    const isNew = e.type === 'before-new';
    if (!isNew) assertMayChangeAccount(e);
    const touched = isNew ? e.row.password !== undefined && e.row.password !== null && e.row.password !== '' : e.changed.has('password');
    if (!touched) return;
    if (isNew && !e.auth.isClientAdministrator) throw forbidden('Access denied', 'Only a client administrator may create an account with a password');
    const value = e.row.password;
    if (value === null || value === undefined || value === '') {
      // No password: the account cannot log in.
      e.row.password = null;
      return;
    }
    if (typeof value !== 'string') throw badRequest('Validation Errors', 'Password must be a string');
    const violations = passwordViolations(value, { userName: String(e.row.name ?? ''), email: typeof e.row.email === 'string' ? e.row.email : null }, { minLength: await minLength(e, Number(e.row.ad_client_id ?? e.auth.clientId)) });
    if (violations.length) throw badRequest('Password policy violated', `${violations.join('; ')} (policy: PASSWORD_RESET_MIN_PASSWORD_LENGTH and the password rules of docs/auth.md)`);
    e.row.password = await hashPassword(value);
    if ('salt' in e.row) e.row.salt = null;
    if ('datepasswordchanged' in e.row || e.table.byName.has('datepasswordchanged')) e.row.datepasswordchanged = new Date().toISOString();
  };

  events.on('before-new', 'AD_User', onSave);
  events.on('before-change', 'AD_User', onSave);
}

/** Secrets and lock columns of another user's account change only with the administrator's right. */
function assertMayChangeAccount(e: ModelEvent): void {
  if (e.auth.isClientAdministrator) return;
  const own = Number(e.row.ad_user_id) === e.auth.userId;
  for (const col of e.changed) {
    if (USER_LOCK_COLUMNS.has(col) || (USER_SECRET_COLUMNS.has(col) && !(own && col === 'password'))) {
      throw forbidden('Access denied', own ? `Only a client administrator may change ${col} of an account` : "Only a client administrator may change another user's password or lock");
    }
  }
}
