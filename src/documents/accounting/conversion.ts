import type { Queryable } from '../../db/types.js';
import { add, compare, dec, mul, round, sub, type Decimal, type DecimalInput } from '../decimal.js';

export interface Rate {
  /** Source amount × rate = accounted amount. */
  multiply: string;
  /** Decimals of the schema's currency. */
  precision: number;
}

/**
 * A scalar subquery of the rate from currency `from` to `to` on `date`: the client's (else
 * System's) C_Conversion_Rate of conversion type `type` (else the client's default type) valid on
 * that date, as the original's MConversionRate. The arguments are SQL expressions.
 */
export const rateSql = (from: string, to: string, type: string, date: string, client: string): string => `(SELECT r.multiplyrate FROM c_conversion_rate r
      WHERE r.c_currency_id = ${from} AND r.c_currency_id_to::text = (${to})::bigint::text AND r.isactive = 'Y' AND r.ad_client_id IN (0, ${client})
        AND r.c_conversiontype_id = COALESCE(${type}, (SELECT t.c_conversiontype_id FROM c_conversiontype t
              WHERE t.isdefault = 'Y' AND t.isactive = 'Y' AND t.ad_client_id IN (0, ${client}) ORDER BY t.ad_client_id DESC LIMIT 1))
        AND r.validfrom <= ${date} AND (r.validto IS NULL OR r.validto >= date_trunc('day', ${date}))
      ORDER BY r.ad_client_id DESC, r.validfrom DESC LIMIT 1)`;

/**
 * `amount` converted from currency `from` to `to` at the rate of `date` and conversion type
 * `type`, rounded to the standard precision of `to`, as the original's currencyConvert; null when
 * there is no rate. The arguments are SQL expressions.
 */
export const convertedSql = (amount: string, from: string, to: string, type: string, date: string, client: string): string =>
  `(CASE WHEN ${from} = ${to} THEN (${amount}) ELSE round((${amount}) * ${rateSql(from, to, type, date, client)},
      (SELECT COALESCE(c.stdprecision, 2) FROM c_currency c WHERE c.c_currency_id = ${to})::int) END)`;

/**
 * The rate from a document's currency to the accounting schema's on the accounting date (see
 * rateSql), with both currencies' ISO codes; null when there is none.
 */
const RATE_SQL = `SELECT (SELECT c.iso_code FROM c_currency c WHERE c.c_currency_id = $1) AS from_iso,
    (SELECT c.iso_code FROM c_currency c WHERE c.c_currency_id = $2) AS to_iso,
    (SELECT COALESCE(c.stdprecision, 2) FROM c_currency c WHERE c.c_currency_id = $2)::int AS precision,
    ${rateSql('$1', '$2', '$3::bigint', '$4::timestamp', '$5')}::text AS rate`;

export type RateLookup = { rate: Rate } | { missing: string };

export async function conversionRate(q: Queryable, from: number, to: number, typeId: number | null, date: unknown, clientId: unknown): Promise<RateLookup> {
  const { rows } = await q.query<{ from_iso: string | null; to_iso: string | null; precision: number; rate: string | null }>(RATE_SQL, [from, to, typeId, date, clientId], {
    name: 'doc_conversion_rate',
  });
  const r = rows[0]!;
  if (r.rate === null) return { missing: `no conversion rate from ${r.from_iso ?? from} to ${r.to_iso ?? to} on ${String(date).slice(0, 10)}` };
  return { rate: { multiply: r.rate, precision: Number(r.precision) } };
}

/**
 * Accounted amounts of balanced source amounts: each converted and rounded to the schema
 * currency; a rounding difference between the converted debits and credits goes to the largest
 * amount of the smaller side, so that the accounted facts balance too.
 */
export function convertAmounts(amounts: readonly { dr: DecimalInput; cr: DecimalInput }[], rate: Rate): { dr: Decimal; cr: Decimal }[] {
  const out = amounts.map((a) => ({ dr: round(mul(a.dr, rate.multiply), rate.precision), cr: round(mul(a.cr, rate.multiply), rate.precision) }));
  let dr = dec(0);
  let cr = dec(0);
  for (const a of out) {
    dr = add(dr, a.dr);
    cr = add(cr, a.cr);
  }
  const diff = sub(dr, cr);
  const side = compare(diff, 0) > 0 ? 'cr' : 'dr';
  if (compare(diff, 0) === 0) return out;
  let largest = -1;
  out.forEach((a, i) => {
    if (compare(a[side], 0) !== 0 && (largest < 0 || compare(a[side], out[largest]![side]) > 0)) largest = i;
  });
  if (largest >= 0) out[largest]![side] = side === 'cr' ? add(out[largest]!.cr, diff) : sub(out[largest]!.dr, diff);
  return out;
}
