import type { Queryable } from '../../db/types.js';
import type { ModelEvent, Row } from '../../events/model-events.js';
import { idOf, invalid, isEmptyValue, nowTimestamp } from '../row-values.js';
import { attributeValues } from './attribute-values.js';
import { takeControlNumber } from './control-numbers.js';
import { instanceDescription, type DescribedInstance, type DescribedSet } from './instance-description.js';

interface SetRow extends DescribedSet {
  m_lotctl_id: number | null;
  m_sernoctl_id: number | null;
  guaranteedays: number | null;
}

const SET_SQL = `SELECT m_attributeset_id, isserno, islot, isguaranteedate, sernocharsoverwrite, sernochareoverwrite, lotcharsoverwrite, lotchareoverwrite,
    m_lotctl_id, m_sernoctl_id, guaranteedays
  FROM m_attributeset WHERE m_attributeset_id = $1 AND ad_client_id IN (0, $2)`;

async function attributeSet(e: ModelEvent, setId: number | null): Promise<SetRow | null> {
  if (setId === null) return null;
  const { rows } = await e.tx.query<SetRow>(SET_SQL, [setId, clientOf(e)], { name: 'attr_set' });
  return rows[0] ?? null;
}

const clientOf = (e: ModelEvent): number => Number(e.row.ad_client_id ?? e.auth.clientId);
const changed = (e: ModelEvent, column: string): boolean => e.type === 'before-new' ? !isEmptyValue(e.row[column]) : e.changed.has(column);

/** The lot an instance names (M_Lot_ID) gives its Lot text; a different Lot text is refused. */
async function lotOfInstance(e: ModelEvent): Promise<void> {
  const lotId = idOf(e.row.m_lot_id);
  if (lotId === null || !changed(e, 'm_lot_id')) return;
  const { rows } = await e.tx.query<{ name: string }>(`SELECT name FROM m_lot WHERE m_lot_id = $1 AND ad_client_id IN (0, $2)`, [lotId, clientOf(e)], { name: 'attr_lot_name' });
  const name = rows[0]?.name;
  if (name === undefined) throw invalid(`Lot ${lotId} not found (column M_Lot_ID)`);
  if (isEmptyValue(e.row.lot) || (e.type !== 'before-new' && !e.changed.has('lot'))) e.row.lot = name;
  else if (String(e.row.lot) !== name) throw invalid(`The lot text ${String(e.row.lot)} is not the name of lot ${lotId}, ${name} (column Lot)`);
}

/**
 * A new instance of a serial-numbered set whose set has a serial number control gets the
 * control's next number when it names none, and one of a set with guarantee days its guarantee
 * date, as the original's new instance of a product.
 */
async function newInstanceNumbers(e: ModelEvent, set: SetRow): Promise<void> {
  if (e.type !== 'before-new') return;
  const serNoCtl = idOf(set.m_sernoctl_id);
  if (set.isserno === 'Y' && serNoCtl !== null && isEmptyValue(e.row.serno)) e.row.serno = await takeControlNumber(e.tx, 'm_sernoctl', serNoCtl, clientOf(e));
  const days = Number(set.guaranteedays ?? 0);
  if (set.isguaranteedate === 'Y' && days > 0 && isEmptyValue(e.row.guaranteedate)) {
    e.row.guaranteedate = `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} 00:00:00`;
  }
}

/**
 * An attribute set instance (M_AttributeSetInstance): the lot it names gives its Lot; a new one
 * takes its serial number and guarantee date from its set; its Description is built from its
 * attribute values, serial number, lot and guarantee date as the original's (rebuilt when they
 * change, unless the caller writes one), and is the instance's id when nothing describes it.
 */
export async function instanceBeforeSave(e: ModelEvent): Promise<void> {
  await lotOfInstance(e);
  const set = await attributeSet(e, idOf(e.row.m_attributeset_id));
  if (set) await newInstanceNumbers(e, set);
  const parts = ['lot', 'serno', 'guaranteedate', 'm_attributeset_id', 'm_lot_id'];
  const callerWrote = e.type === 'before-new' ? !isEmptyValue(e.row.description) : e.changed.has('description');
  if (callerWrote || (e.type !== 'before-new' && !parts.some((c) => e.changed.has(c)))) return;
  // A new instance holds no attribute values yet.
  const values = set && e.type !== 'before-new' ? await attributeValues(e.tx, Number(e.row.m_attributeset_id), Number(e.row.m_attributesetinstance_id)) : undefined;
  const built = set ? instanceDescription(set, e.row, values) : '';
  e.row.description = built === '' ? String(e.row.m_attributesetinstance_id) : built;
}

const LOT_CONTROL_SQL = `SELECT s.m_lotctl_id FROM m_product p JOIN m_attributeset s ON s.m_attributeset_id = p.m_attributeset_id
  WHERE p.m_product_id = $1 AND s.islot = 'Y'`;

/**
 * A new lot (M_Lot) without a name takes the next number of its lot control, or of the lot
 * control of its product's attribute set (which it then names), as the original's MLotCtl.createLot.
 */
export async function lotBeforeNew(e: ModelEvent): Promise<void> {
  const row: Row = e.row;
  if (!isEmptyValue(row.name)) return;
  let control = idOf(row.m_lotctl_id);
  if (control === null && idOf(row.m_product_id) !== null) {
    const { rows } = await e.tx.query<{ m_lotctl_id: number | null }>(LOT_CONTROL_SQL, [idOf(row.m_product_id)], { name: 'attr_product_lotctl' });
    control = idOf(rows[0]?.m_lotctl_id);
    if (control !== null) row.m_lotctl_id = control;
  }
  if (control === null) throw invalid('A lot needs a name, or a lot control to number it (columns Name, M_LotCtl_ID)');
  const name = await takeControlNumber(e.tx, 'm_lotctl', control, clientOf(e));
  if (name === null) throw invalid(`Lot control ${control} not found (column M_LotCtl_ID)`);
  row.name = name;
}

const INSTANCE_SQL = `SELECT i.m_attributesetinstance_id, i.m_attributeset_id, i.serno, i.lot, i.guaranteedate, i.description, s.isserno, s.islot, s.isguaranteedate,
    s.sernocharsoverwrite, s.sernochareoverwrite, s.lotcharsoverwrite, s.lotchareoverwrite
  FROM m_attributesetinstance i JOIN m_attributeset s ON s.m_attributeset_id = i.m_attributeset_id
 WHERE i.m_attributesetinstance_id = $1`;

/**
 * Describes an instance again once one of its attribute values (M_AttributeInstance) is written or
 * deleted, as the original's instance editor does when it saves them.
 */
export async function describeInstanceAgain(q: Queryable, instanceId: unknown, userId: number): Promise<void> {
  const id = idOf(instanceId);
  if (id === null) return;
  const { rows } = await q.query<Row & DescribedSet>(INSTANCE_SQL, [id], { name: 'attr_instance_of_value' });
  const asi = rows[0];
  if (!asi) return;
  const built = instanceDescription(asi, asi as DescribedInstance, await attributeValues(q, Number(asi.m_attributeset_id), id));
  const description = built === '' ? String(id) : built;
  if (description === asi.description) return;
  await q.query(`UPDATE m_attributesetinstance SET description = $2, updated = $3::timestamp, updatedby = $4 WHERE m_attributesetinstance_id = $1`, [id, description, nowTimestamp(), userId]);
}
