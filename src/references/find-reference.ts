import { SqlBuilder } from '../db/sql.js';
import type { Queryable } from '../db/types.js';
import { notFound } from '../errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A reference as the database holds it now (a reference saved a moment ago included). */
export interface ReferenceRow {
  id: number;
  validationType: string;
  orderByValue: boolean;
}

/** The active reference a path names by id, UUID or name (exact, then ignoring case); 404 when none does. */
export async function findReference(q: Queryable, refId: string): Promise<ReferenceRow> {
  const sql = new SqlBuilder();
  let where: string;
  if (/^\d{1,15}$/.test(refId)) where = `r.ad_reference_id = ${sql.param(Number(refId))}`;
  else if (UUID.test(refId)) where = `r.ad_reference_uu = ${sql.param(refId.toLowerCase())}`;
  else where = `lower(r.name) = lower(${sql.param(refId)})`;
  const { rows } = await q.query<{ id: number; validationtype: string; isorderbyvalue: string; name: string }>(
    `SELECT r.ad_reference_id AS id, r.validationtype, r.isorderbyvalue, r.name FROM ad_reference r WHERE ${where} AND r.isactive = 'Y' ORDER BY (r.name = ${sql.param(refId)}) DESC, r.ad_reference_id LIMIT 1`,
    sql.values,
  );
  const r = rows[0];
  if (!r) throw notFound('Invalid reference id', `No match found for AD_Reference_ID: ${refId}`);
  return { id: Number(r.id), validationType: String(r.validationtype), orderByValue: r.isorderbyvalue === 'Y' };
}
