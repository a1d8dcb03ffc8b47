import type { AuthContext } from '../../auth/context.js';
import type { Queryable } from '../../db/types.js';
import type { Dictionary } from '../../dictionary/model.js';

/** What a read needs: the dictionary snapshot, the caller, and where to run SQL. */
export interface ReadContext {
  dict: Dictionary;
  auth: AuthContext;
  q: Queryable;
  /** The database compares text byte-wise, so a prefix match may be written as a range. */
  prefixRange?: boolean;
}
