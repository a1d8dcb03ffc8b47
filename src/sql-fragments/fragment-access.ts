import type { AuthContext } from '../auth/context.js';
import { tableReadable } from '../access/access.js';
import type { Dictionary } from '../dictionary/model.js';
import { forbidden } from '../errors.js';
import { FragmentError, tokenizeFragment, type FromTable } from './fragment-check.js';

const secretNames = new WeakMap<Dictionary, Set<string>>();

/** Names of the columns no read may show (secure or encrypted, such as AD_User.Password). */
function secretColumns(dict: Dictionary): Set<string> {
  let names = secretNames.get(dict);
  if (!names) {
    names = new Set(dict.tables.flatMap((t) => t.columns.filter((c) => c.isSecure || c.isEncrypted).map((c) => c.dbName)));
    secretNames.set(dict, names);
  }
  return names;
}

/**
 * What dictionary SQL may name, checked when it is saved: no secret column (dictionary SQL must not
 * become a way around the serializer, which never shows them), and only tables the saving role
 * may read, wherever a FROM or JOIN names them.
 */
export function checkFragmentNames(dict: Dictionary, auth: AuthContext, text: string, clause: string): void {
  const secrets = secretColumns(dict);
  const tokens = tokenizeFragment(text);
  tokens.forEach((t, i) => {
    if (t.kind !== 'word' && t.kind !== 'quoted') return;
    const name = t.kind === 'word' ? t.text.toLowerCase() : t.text;
    if (secrets.has(name)) throw new FragmentError(`${clause}: ${t.text} is a secret column`);
    const previous = tokens[i - 1];
    const isTable = clause === 'FromClause' ? i === 0 || (previous?.kind === 'symbol' && previous.text === ',') : false;
    if (isTable || (previous?.kind === 'word' && /^(from|join)$/i.test(previous.text))) {
      const table = dict.byName.get(name);
      if (table && !tableReadable(auth, table)) throw new FragmentError(`${clause}: the role may not read ${table.name}`);
    }
  });
}

/** At read time, the tables a FROM clause reads directly must be readable by the caller's role (403). */
export function assertFromAccess(dict: Dictionary, auth: AuthContext, tables: FromTable[]): void {
  for (const t of tables) {
    const table = dict.byName.get(t.table);
    if (table && !tableReadable(auth, table)) throw forbidden('Access denied', `Access denied for table: ${table.name}`);
  }
}

/**
 * The save-time name check for a row being written: the System client maintains the dictionary of
 * every tenant and may name any table; a tenant's role only the tables it may read.
 */
export function checkSavedNames(e: { dict: Dictionary; auth: AuthContext }, text: string, clause: string): void {
  checkFragmentNames(e.dict, savingAuth(e.auth), text, clause);
}

/** The caller as the save-time checks see it: the System client reaches every table. */
export function savingAuth(auth: AuthContext): AuthContext {
  return auth.clientId === 0 ? { ...auth, userLevel: 'SCO' } : auth;
}
