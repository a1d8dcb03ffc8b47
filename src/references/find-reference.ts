import type { Dictionary, Reference } from '../dictionary/model.js';
import { notFound } from '../errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The reference a path names by id, UUID or name (exact, then ignoring case); 404 when none does. */
export function findReference(dict: Dictionary, refId: string): Reference {
  let ref: Reference | undefined;
  if (/^\d{1,15}$/.test(refId)) ref = dict.references.get(Number(refId));
  else if (UUID.test(refId)) {
    const uu = refId.toLowerCase();
    ref = [...dict.references.values()].find((r) => r.uu?.toLowerCase() === uu);
  } else {
    const all = [...dict.references.values()];
    ref = all.find((r) => r.name === refId) ?? all.find((r) => r.name.toLowerCase() === refId.toLowerCase());
  }
  if (!ref || !ref.isActive) throw notFound('Invalid reference id', `No match found for AD_Reference_ID: ${refId}`);
  return ref;
}
