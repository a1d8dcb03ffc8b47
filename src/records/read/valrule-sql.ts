import type { SqlBuilder } from '../../db/sql.js';
import { badRequest, notFound } from '../../errors.js';
import type { Dictionary, ValRule } from '../../dictionary/model.js';
import type { AuthContext } from '../../auth/context.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function findValRule(dict: Dictionary, idOrUuid: string): ValRule {
  let rule: ValRule | undefined;
  if (/^\d+$/.test(idOrUuid)) rule = dict.valRules.get(Number(idOrUuid));
  else if (UUID.test(idOrUuid)) rule = [...dict.valRules.values()].find((r) => r.uu?.toLowerCase() === idOrUuid.toLowerCase());
  else throw badRequest('Invalid $valrule', `Expected an AD_Val_Rule_ID or AD_Val_Rule_UU: ${idOrUuid}`);
  if (!rule || !rule.isActive) throw notFound('Invalid validation rule', `No validation rule matches: ${idOrUuid}`);
  return rule;
}

/** Session values a validation rule may name, as the original's login context does. */
export function sessionContext(auth: AuthContext): Map<string, string> {
  const today = new Date().toISOString().slice(0, 10);
  return new Map([
    ['#AD_Client_ID', String(auth.clientId)],
    ['AD_Client_ID', String(auth.clientId)],
    ['#AD_Org_ID', String(auth.orgId)],
    ['#AD_User_ID', String(auth.userId)],
    ['#AD_Role_ID', String(auth.roleId)],
    ['#M_Warehouse_ID', String(auth.warehouseId)],
    ['#AD_Language', auth.language],
    ['#Date', today],
  ]);
}

/**
 * A rule's SQL (dictionary data, written by administrators) with every @Variable@ turned into
 * a parameter: values come from $context first, then from the session; a variable that has
 * no value is an error rather than a silently empty condition.
 */
export function valRuleSql(rule: ValRule, context: Map<string, string>, auth: AuthContext, sql: SqlBuilder): string {
  if (!rule.code || rule.type !== 'S') throw badRequest('Invalid $valrule', `Validation rule ${rule.id} has no SQL code`);
  const session = sessionContext(auth);
  const lowerContext = new Map([...context].map(([k, v]) => [k.toLowerCase(), v]));
  return `(${rule.code.replace(/@([#$]?\w+)@/g, (_m, name: string) => {
    const v = context.get(name) ?? lowerContext.get(name.toLowerCase()) ?? session.get(name) ?? session.get(`#${name}`);
    if (v === undefined) throw badRequest('Invalid $context', `The validation rule needs a value for ${name}`);
    return sql.param(v);
  })})`;
}
