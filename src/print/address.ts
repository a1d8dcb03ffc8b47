import type { Queryable } from '../db/types.js';

interface LocationRow {
  address1: string | null;
  address2: string | null;
  address3: string | null;
  address4: string | null;
  city: string | null;
  postal: string | null;
  region: string | null;
  country: string | null;
  sequence: string | null;
}

/**
 * A location as the lines of an address block: the street lines, then the city line laid out by
 * the country's DisplaySequence (@C@ city, @R@ region, @P@ postal code; "@C@, @R@ @P@" in the
 * United States), then the country. Empty lines are left out.
 */
export function addressLines(l: LocationRow): string[] {
  const sequence = l.sequence?.trim() || '@P@ @C@';
  const cityLine = sequence
    .replace(/@C@/g, l.city ?? '')
    .replace(/@R@/g, l.region ?? '')
    .replace(/@P@/g, l.postal ?? '')
    .replace(/@[A-Z0-9_]+@/g, '')
    .replace(/\s*,\s*(,|$)/g, '$1')
    .replace(/^\s*,\s*/, '')
    .replace(/\s+/g, ' ')
    .trim();
  return [l.address1, l.address2, l.address3, l.address4, cityLine, l.country].map((x) => (x ?? '').trim()).filter((x) => x !== '');
}

/** The address lines of a C_Location (none for null or an unknown id). */
export async function locationLines(q: Queryable, locationId: number | null): Promise<string[]> {
  if (!locationId) return [];
  const { rows } = await q.query<LocationRow>(
    `SELECT l.address1, l.address2, l.address3, l.address4, l.city, l.postal, COALESCE(r.name, l.regionname) AS region, co.name AS country, co.displaysequence AS sequence
       FROM c_location l LEFT JOIN c_region r ON r.c_region_id = l.c_region_id LEFT JOIN c_country co ON co.c_country_id = l.c_country_id
      WHERE l.c_location_id = $1`,
    [locationId],
  );
  return rows[0] ? addressLines(rows[0]) : [];
}
