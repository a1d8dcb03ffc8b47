import type { Queryable } from '../../db/types.js';
import { unbalancedDocuments } from './ledger-balance.js';
import { onHandDifferences } from './stock-on-hand.js';
import { partnerBalanceDifferences } from './partner-balances.js';
import { postingDifferences } from './posted-facts.js';
import { reservationDifferences } from './reservations.js';
import { stockValueDifferences } from './stock-value.js';
import type { InvariantCheck, Violation } from './violation.js';

export type { InvariantName, Violation } from './violation.js';

/**
 * The invariants of the books, each a read of a client's rows answering where they disagree:
 * balanced documents, partners' open items against their accounts, stock against its
 * transactions, reservations against open order lines, postings against the Posted flag, the
 * stock value at cost against the product asset account.
 */
export const BOOKS_INVARIANTS: Readonly<Record<string, InvariantCheck>> = {
  balancedDocuments: unbalancedDocuments,
  partnerBalances: partnerBalanceDifferences,
  onHand: onHandDifferences,
  reservations: reservationDifferences,
  postedFacts: postingDifferences,
  stockValue: stockValueDifferences,
};

/** Every violation of the books' invariants in a client's rows (none when the books agree). */
export async function booksViolations(q: Queryable, clientId: number): Promise<Violation[]> {
  const out: Violation[] = [];
  for (const check of Object.values(BOOKS_INVARIANTS)) out.push(...(await check(q, clientId)));
  return out;
}
