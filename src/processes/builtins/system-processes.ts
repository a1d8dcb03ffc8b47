import { ACCESS_CHANNEL } from '../../events/cache-notifications.js';
import { DICTIONARY_CHANNEL } from '../../dictionary/cache.js';
import { SYSCONFIG_CHANNEL } from '../../sysconfig/sysconfig.js';
import { expireRefreshTokens } from '../../auth/refresh.js';
import { rotateSigningKeyIn } from '../../auth/jwt-keys.js';
import { lockSchemaChanges } from '../../db/migrate.js';
import { loadDictionary } from '../../dictionary/load.js';
import { synchroniseSchema } from '../../dictionary/sync.js';
import { differenceLine } from '../../dictionary/schema-command.js';
import type { ProcessCall, ProcessImplementations, ProcessOutcome } from '../runner.js';

/** Expire Refresh Tokens (REST_ExpireRefreshTokens): parameters AD_User_ID and REST_AllTokens. */
async function expireTokens(c: ProcessCall): Promise<ProcessOutcome> {
  const user = c.param('AD_User_ID')?.value;
  const r = await expireRefreshTokens(c.tx, { clientId: c.auth.clientId, userId: typeof user === 'number' ? user : null, allTokens: c.param('REST_AllTokens')?.value === true });
  c.log({ msg: 'revoked', number: r.revoked });
  c.log({ msg: 'deleted', number: r.deleted });
  return { summary: r.summary };
}

/**
 * Cache Reset: every instance drops its cached dictionary, SysConfig values and role access. The
 * notifications are sent in the run's transaction and so arrive when it commits.
 */
async function cacheReset(c: ProcessCall): Promise<ProcessOutcome> {
  for (const channel of [DICTIONARY_CHANNEL, SYSCONFIG_CHANNEL, ACCESS_CHANNEL]) await c.tx.notify(channel, '');
  return { summary: 'Caches reset: dictionary, system configuration, role access' };
}

/**
 * Synchronize Column: brings the physical schema up to the dictionary (the `schema --apply`
 * command), holding off migrations and other synchronisations meanwhile. Run on an AD_Column
 * record it reports that column's table; the whole schema is synchronised either way, since a
 * column's change can need its table's indexes too.
 */
async function columnSync(c: ProcessCall): Promise<ProcessOutcome> {
  await lockSchemaChanges(c.tx);
  const dict = await loadDictionary(c.tx);
  const applied = await synchroniseSchema(c.tx, dict);
  for (const d of applied) c.log({ msg: differenceLine(d) });
  await c.tx.notify(DICTIONARY_CHANNEL, 'ad_column');
  return { summary: applied.length ? `Schema synchronised: ${applied.length} change${applied.length === 1 ? '' : 's'} applied` : 'The database already matches the dictionary' };
}

/** Rotate Signing Key: a new current key; tokens signed with the old one stay valid until they expire. */
async function rotateKey(c: ProcessCall): Promise<ProcessOutcome> {
  const kid = await rotateSigningKeyIn(c.tx);
  c.log({ msg: `new signing key ${kid}` });
  return { summary: `Signing key rotated; new key id ${kid}` };
}

/** Java Version (the upstream collection's sample process): the runtime of this server. */
async function runtimeVersion(): Promise<ProcessOutcome> {
  return { summary: `Node.js ${process.version} (${process.platform} ${process.arch})` };
}

export function registerSystemProcesses(impls: ProcessImplementations): void {
  impls.register('com.trekglobal.idempiere.rest.api.process.ExpireRefreshTokens', expireTokens);
  impls.register('org.compiere.process.CacheReset', cacheReset);
  impls.register('org.compiere.process.ColumnSync', columnSync);
  impls.register('dictum.process.RotateSigningKey', rotateKey);
  impls.register('org.idempiere.process.JavaVersion', runtimeVersion);
}
