import type { AuthContext } from '../../auth/context.js';
import type { Tx } from '../../db/types.js';
import type { Dictionary } from '../../dictionary/model.js';
import type { DeferredWork, ModelEvents } from '../../events/model-events.js';

/** What a write needs: the dictionary snapshot, the caller, its transaction and the event bus. */
export interface WriteContext {
  dict: Dictionary;
  auth: AuthContext;
  tx: Tx;
  events: ModelEvents;
  deferred: DeferredWork;
}
