import { forbidden } from '../errors.js';
import type { ModelEvent, ModelEvents } from '../events/model-events.js';
import { isSystemAdministrator } from '../nodes/admin-access.js';

/**
 * An AD_Task row is an operating-system command that POST /tasks runs on the server: whoever may
 * write one may run anything there. Only the System role may create, change or delete them, whatever
 * the table's access level lets other roles do.
 */
async function refuseTaskWrite(e: ModelEvent): Promise<void> {
  if (!isSystemAdministrator(e.auth)) throw forbidden('Access denied', 'Only the System role may write tasks (AD_Task)');
}

export function registerTaskRules(events: ModelEvents): void {
  for (const type of ['before-new', 'before-change', 'before-delete'] as const) events.on(type, 'AD_Task', refuseTaskWrite);
}
