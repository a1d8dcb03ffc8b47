import type { Queryable } from '../../db/types.js';
import type { AttributeValues } from './instance-description.js';

/** The values an instance holds for the active attributes its set uses, in the set's order. */
const VALUES_SQL = `SELECT ma.isinstanceattribute, mai.value
  FROM m_attributeuse u
  JOIN m_attribute ma ON ma.m_attribute_id = u.m_attribute_id AND ma.isactive = 'Y'
  JOIN m_attributeinstance mai ON mai.m_attribute_id = u.m_attribute_id AND mai.m_attributesetinstance_id = $2
 WHERE u.m_attributeset_id = $1 AND u.isactive = 'Y'
 ORDER BY u.seqno, u.m_attribute_id`;

/** What an instance's description takes from its attribute values (see instanceDescription). */
export async function attributeValues(q: Queryable, setId: number, instanceId: number): Promise<AttributeValues> {
  const { rows } = await q.query<{ isinstanceattribute: string; value: string | null }>(VALUES_SQL, [setId, instanceId], { name: 'attr_instance_values' });
  return {
    instance: rows.filter((r) => r.isinstanceattribute === 'Y' && r.value !== null).map((r) => String(r.value)),
    product: rows.filter((r) => r.isinstanceattribute !== 'Y').map((r) => r.value ?? ''),
  };
}

/** Whether the set (an SQL expression of its id) uses an active instance attribute. */
export const USES_INSTANCE_ATTRIBUTE_SQL = (setId: string) => `EXISTS (SELECT 1 FROM m_attributeuse u JOIN m_attribute ma ON ma.m_attribute_id = u.m_attribute_id
   WHERE u.m_attributeset_id = ${setId} AND u.isactive = 'Y' AND ma.isactive = 'Y' AND ma.isinstanceattribute = 'Y')`;

/**
 * Whether a set (an SQL alias of M_AttributeSet) has instance attributes, as the original keeps
 * M_AttributeSet.IsInstanceAttribute: it uses serial numbers, lots or guarantee dates, or an
 * active instance attribute.
 */
export const INSTANCE_FLAG_SQL = (set: string) =>
  `CASE WHEN ${set}.isserno = 'Y' OR ${set}.islot = 'Y' OR ${set}.isguaranteedate = 'Y' OR ${USES_INSTANCE_ATTRIBUTE_SQL(`${set}.m_attributeset_id`)} THEN 'Y' ELSE 'N' END`;
