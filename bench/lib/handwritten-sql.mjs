// The statements of the hand-written server (bench/handwritten-server.mjs), shared with the
// benchmark, which runs the list read's statements under pgbench beside Dictum's.
import { byIdWithIdentifiers, pageWithIdentifiers } from './handwritten-partner.mjs';

export const WHERE = `ad_client_id IN (0, 11) AND isactive = 'Y' AND name >= $1 AND name < $2 AND iscustomer = 'Y'`;
export const PAGE = { name: 'hw_page', text: pageWithIdentifiers(WHERE) };
export const COUNT = { name: 'hw_count', text: `SELECT count(*)::int AS n FROM c_bpartner WHERE ${WHERE}` };
export const BY_ID = { name: 'hw_by_id', text: byIdWithIdentifiers('c_bpartner_id = $1 AND ad_client_id IN (0, 11)') };

/** The first string after a prefix in byte order: its last character plus one. */
export const upper = (prefix) => prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);

/** The statements one full page of the list read runs over names lo <= name < hi ([{text, params}], as pgbenchScript takes them). */
export function listStatements({ lo, hi }, top = 50) {
  const range = [lo, hi];
  return [
    { text: PAGE.text, params: [...range, top, 0] },
    { text: COUNT.text, params: range },
  ];
}
