import type { Queryable } from '../db/types.js';
import { locationLines } from './address.js';

/** Who sends a printed document: the organisation's name, address, tax id, phone, e-mail and logo. */
export interface Letterhead {
  /** The company (the client's name). */
  name: string;
  /** The organisation within it, when its name differs from the company's. */
  organisation: string | null;
  addressLines: string[];
  taxId: string | null;
  phone: string | null;
  email: string | null;
  /** A PNG or JPEG image, or null. */
  logo: Buffer | null;
}

/** A stored value that says nothing ("?" is the original's placeholder for an unknown tax id or DUNS). */
const known = (v: string | null | undefined): string | null => (v && v.trim() && v.trim() !== '?' ? v.trim() : null);

/** Image bytes PDFKit can draw: PNG or JPEG, recognised by their signature. */
function drawableImage(data: Buffer | null): Buffer | null {
  if (!data || data.length < 8) return null;
  const png = data[0] === 0x89 && data.subarray(1, 4).toString('latin1') === 'PNG';
  const jpeg = data[0] === 0xff && data[1] === 0xd8;
  return png || jpeg ? data : null;
}

/**
 * The letterhead of an organisation: the company (client) and organisation names, and the
 * organisation's AD_OrgInfo (location, tax id, phone, e-mail, logo); the logo falls back to the
 * client's report logo, then its logo (AD_ClientInfo). Organisation * (0) has no address of its own.
 */
export async function loadLetterhead(q: Queryable, clientId: number, orgId: number): Promise<Letterhead> {
  const { rows } = await q.query<{ name: string | null; client: string | null; c_location_id: number | null; taxid: string | null; phone: string | null; email: string | null; logo: Buffer | null }>(
    `SELECT o.name, c.name AS client, oi.c_location_id, oi.taxid, oi.phone, oi.email,
            (SELECT img.binarydata FROM ad_image img
              WHERE img.ad_image_id = COALESCE(oi.logo_id, ci.logoreport_id, ci.logo_id) AND img.isactive = 'Y') AS logo
       FROM ad_client c
       LEFT JOIN ad_org o ON o.ad_org_id = $2 AND o.ad_org_id <> 0
       LEFT JOIN ad_orginfo oi ON oi.ad_org_id = o.ad_org_id
       LEFT JOIN ad_clientinfo ci ON ci.ad_client_id = c.ad_client_id
      WHERE c.ad_client_id = $1`,
    [clientId, orgId],
  );
  const r = rows[0];
  return {
    name: r?.client ?? r?.name ?? '',
    organisation: r?.name && r.name !== r.client ? r.name : null,
    addressLines: await locationLines(q, r?.c_location_id === null || r?.c_location_id === undefined ? null : Number(r.c_location_id)),
    taxId: known(r?.taxid),
    phone: known(r?.phone),
    email: known(r?.email),
    logo: drawableImage(r?.logo ? Buffer.from(r.logo) : null),
  };
}

/** The letterhead's lines under the company's name: the organisation, its address, then tax id, phone and e-mail. */
export function letterheadLines(l: Letterhead): string[] {
  return [...(l.organisation ? [l.organisation] : []), ...l.addressLines, ...(l.taxId ? [`Tax ID: ${l.taxId}`] : []), ...(l.phone ? [`Phone: ${l.phone}`] : []), ...(l.email ? [l.email] : [])];
}
