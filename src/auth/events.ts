import type { ModelEvent, ModelEvents } from '../events/model-events.js';
import { endUserSessions } from './sessions.js';

/**
 * Writes to AD_User through the record engine that take an account's access away end its
 * sessions and refresh families in the same transaction: a password change (cause P), a
 * deactivation, a lock or a delete (cause M). Every instance hears of it through NOTIFY when
 * the write commits.
 */
export function registerAuthEvents(events: ModelEvents): void {
  const onChange = async (e: ModelEvent) => {
    const userId = Number(e.row.ad_user_id ?? e.old?.ad_user_id);
    if (!Number.isInteger(userId)) return;
    if (e.changed.has('password')) {
      await endUserSessions(e.tx, userId, 'P');
      return;
    }
    const deactivated = e.changed.has('isactive') && e.row.isactive !== 'Y' && e.row.isactive !== true;
    const locked = e.changed.has('islocked') && (e.row.islocked === 'Y' || e.row.islocked === true);
    if (deactivated || locked) await endUserSessions(e.tx, userId, 'M');
  };
  events.on('after-change', 'AD_User', onChange);
  events.on('after-delete', 'AD_User', async (e) => {
    const userId = Number(e.row.ad_user_id);
    if (Number.isInteger(userId)) await endUserSessions(e.tx, userId, 'M');
  });
}
