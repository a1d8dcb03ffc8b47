import type { Queryable } from '../../db/types.js';

/** One place where the books disagree with themselves: the check, what it is about, and what each side says. */
export interface Violation {
  check: InvariantName;
  /** What the violation is about (a document, a partner and account, a product at a locator). */
  subject: Record<string, string | number | null>;
  expected: string;
  actual: string;
  /** What the numbers are, in words. */
  detail: string;
}

export type InvariantName = 'balanced-document' | 'balanced-source' | 'partner-balance' | 'on-hand' | 'reservation' | 'posted-facts' | 'stock-value' | 'cost-quantity';

/** A check: one parameterised query over a client's rows, answering its violations. */
export type InvariantCheck = (q: Queryable, clientId: number) => Promise<Violation[]>;

/** Numbers as text, the way PostgreSQL gives them, so that comparisons stay exact. */
export const text = (v: unknown): string => (v === null || v === undefined ? '0' : String(v));
