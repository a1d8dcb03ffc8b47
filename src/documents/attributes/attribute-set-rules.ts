import type { Queryable } from '../../db/types.js';
import type { ModelEvent } from '../../events/model-events.js';
import { idOf } from '../row-values.js';
import { INSTANCE_FLAG_SQL, USES_INSTANCE_ATTRIBUTE_SQL } from './attribute-values.js';

/**
 * An attribute set says it has instance attributes (IsInstanceAttribute) exactly when it uses
 * serial numbers, lots or guarantee dates or an instance attribute, as the original keeps it.
 */
export async function attributeSetBeforeSave(e: ModelEvent): Promise<void> {
  const own = ['isserno', 'islot', 'isguaranteedate'].some((c) => e.row[c] === 'Y');
  if (own || e.type === 'before-new') {
    if (own) e.row.isinstanceattribute = 'Y';
    return;
  }
  const { rows } = await e.tx.query<{ uses: boolean }>(`SELECT ${USES_INSTANCE_ATTRIBUTE_SQL('$1::bigint')} AS uses`, [e.row.m_attributeset_id], { name: 'attr_set_uses_instance' });
  e.row.isinstanceattribute = rows[0]?.uses ? 'Y' : 'N';
}

/** A set's attribute uses changed: its IsInstanceAttribute follows (see attributeSetBeforeSave). */
export async function refreshInstanceFlag(q: Queryable, setId: unknown): Promise<void> {
  const id = idOf(setId);
  if (id === null) return;
  await q.query(`UPDATE m_attributeset s SET isinstanceattribute = ${INSTANCE_FLAG_SQL('s')} WHERE s.m_attributeset_id = $1 AND s.isinstanceattribute <> ${INSTANCE_FLAG_SQL('s')}`, [id], { name: 'attr_set_refresh_flag' });
}
