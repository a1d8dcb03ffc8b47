import type { AuthContext } from '../auth/context.js';
import type { Queryable } from '../db/types.js';

/** What a role may open: windows, processes, forms, workflows and info windows, each read-write or read-only. */
export interface ScreenAccess {
  windows: Map<number, boolean>;
  processes: Map<number, boolean>;
  forms: Map<number, boolean>;
  workflows: Map<number, boolean>;
  infoWindows: Map<number, boolean>;
  /** The role may see tabs marked advanced (AD_Role.IsAccessAdvanced). */
  advanced: boolean;
}

/** The role's active access rows of every screen kind, in one statement. */
export async function loadScreenAccess(q: Queryable, auth: AuthContext): Promise<ScreenAccess> {
  const { rows } = await q.query<{ k: string; id: number; rw: string }>(
    `SELECT 'W' AS k, ad_window_id AS id, isreadwrite AS rw FROM ad_window_access WHERE ad_role_id = $1 AND isactive = 'Y'
     UNION ALL SELECT 'P', ad_process_id, isreadwrite FROM ad_process_access WHERE ad_role_id = $1 AND isactive = 'Y'
     UNION ALL SELECT 'X', ad_form_id, isreadwrite FROM ad_form_access WHERE ad_role_id = $1 AND isactive = 'Y'
     UNION ALL SELECT 'F', ad_workflow_id, isreadwrite FROM ad_workflow_access WHERE ad_role_id = $1 AND isactive = 'Y'
     UNION ALL SELECT 'I', ad_infowindow_id, 'Y' FROM ad_infowindow_access WHERE ad_role_id = $1 AND isactive = 'Y'
     UNION ALL SELECT 'A', 0, isaccessadvanced FROM ad_role WHERE ad_role_id = $1`,
    [auth.roleId],
  );
  const a: ScreenAccess = { windows: new Map(), processes: new Map(), forms: new Map(), workflows: new Map(), infoWindows: new Map(), advanced: false };
  const by: Record<string, Map<number, boolean>> = { W: a.windows, P: a.processes, X: a.forms, F: a.workflows, I: a.infoWindows };
  for (const r of rows) {
    if (r.k === 'A') a.advanced = r.rw === 'Y';
    else by[r.k]!.set(Number(r.id), r.rw === 'Y');
  }
  return a;
}
