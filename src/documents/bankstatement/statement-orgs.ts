import { docId } from '../engine/common.js';
import type { DocumentContext } from '../engine/document-type.js';

/**
 * The organizations of a statement's bank facts, as the original's Doc_BankStatement: the bank
 * asset and bank in transit post in the bank account's organization; a bank account of no
 * organization (*) leaves the asset in the statement's and posts the in-transit of a line in its
 * payment's organization. Charges and interest stay in the statement's organization.
 */
export interface StatementOrgs {
  /** The bank account's organization, or undefined when it is * (the document's then). */
  bank: number | undefined;
  /** The in-transit organization of a line: the bank account's, else its payment's, else the document's (undefined). */
  inTransit(lineId: number): number | undefined;
}

export async function statementOrgs(d: DocumentContext): Promise<StatementOrgs> {
  const { rows } = await d.wc.tx.query<{ org: number }>('SELECT ad_org_id AS org FROM c_bankaccount WHERE c_bankaccount_id = $1', [d.row.c_bankaccount_id]);
  const bank = rows[0] && Number(rows[0].org) !== 0 ? Number(rows[0].org) : undefined;
  if (bank !== undefined) return { bank, inTransit: () => bank };
  const { rows: paid } = await d.wc.tx.query<{ line: number; org: number }>(
    `SELECT l.c_bankstatementline_id AS line, p.ad_org_id AS org FROM c_bankstatementline l JOIN c_payment p ON p.c_payment_id = l.c_payment_id
      WHERE l.c_bankstatement_id = $1 AND p.ad_org_id <> 0`,
    [docId(d)],
  );
  const byLine = new Map(paid.map((r) => [Number(r.line), Number(r.org)]));
  return { bank, inTransit: (lineId) => byLine.get(lineId) };
}
