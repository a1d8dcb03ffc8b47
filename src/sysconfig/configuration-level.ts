import { badRequest } from '../errors.js';
import type { ModelEvent, ModelEvents } from '../events/model-events.js';

/**
 * SysConfig rows land at the level their key allows (AD_SysConfig.ConfigurationLevel of the
 * key's System row: S System, C Client, O Organization). A row created without an organisation
 * applies to the whole client (org 0) rather than to the login organisation, so a setting that
 * looks saved also takes effect; a row below the level its key allows is refused.
 */
export function registerConfigurationLevelRules(events: ModelEvents): void {
  events.onPrepareNew('AD_SysConfig', (e) => {
    for (const row of e.rows) if (row.ad_org_id === undefined || row.ad_org_id === null) row.ad_org_id = 0;
  });
  const check = async (e: ModelEvent): Promise<void> => {
    if (e.type === 'before-change' && !['name', 'ad_org_id', 'ad_client_id', 'configurationlevel'].some((c) => e.changed.has(c))) return;
    const clientId = Number(e.row.ad_client_id ?? 0);
    const orgId = Number(e.row.ad_org_id ?? 0);
    if (clientId === 0 && orgId === 0) return;
    const { rows } = await e.tx.query<{ configurationlevel: string | null }>(
      `SELECT configurationlevel FROM ad_sysconfig WHERE name = $1 AND ad_client_id = 0 AND ad_org_id = 0`,
      [e.row.name],
    );
    // A key the System does not define takes the level its row gives (a client row: client level at least).
    const level = rows[0]?.configurationlevel ?? (typeof e.row.configurationlevel === 'string' && e.row.configurationlevel !== 'S' ? e.row.configurationlevel : 'C');
    if (!rows[0] && e.row.configurationlevel === 'S') e.row.configurationlevel = 'C';
    if (level === 'S') throw badRequest('Validation Errors', `${String(e.row.name)} is a System setting: it cannot be set for a client or an organization`);
    if (level === 'C' && orgId !== 0) throw badRequest('Validation Errors', `${String(e.row.name)} is a client setting: it cannot be set for an organization (AD_Org_ID must be 0)`);
  };
  events.on('before-new', 'AD_SysConfig', check);
  events.on('before-change', 'AD_SysConfig', check);
}
