import { compare, mul, sub, type DecimalInput } from '../decimal.js';

/** What a partner's credit status follows. */
export interface CreditFacts {
  /** SOCreditStatus: S stop, H hold, W watch, O OK, X no check. */
  status: string | null;
  limit: DecimalInput;
  openBalance: DecimalInput;
  /** C_BP_Group.CreditWatchPercent (0: the original's 90). */
  watchPercent: DecimalInput;
}

/** The share of the limit above which a partner is watched. */
const watchRatio = (percent: DecimalInput): DecimalInput => (compare(percent ?? 0, 0) === 0 ? '0.9' : mul(percent, '0.01'));

/**
 * A partner's credit status with `additional` more owed, as the original's MBPartner
 * getSOCreditStatus: no check (X) and stop (S), set by hand, stay, as does any status without a
 * limit; otherwise an open balance over the limit less the additional amount is hold (H), over the
 * watch share of it watch (W), else OK (O).
 */
export function creditStatus(f: CreditFacts, additional: DecimalInput = 0): string | null {
  if (f.status === 'X' || f.status === 'S' || compare(f.limit ?? 0, 0) === 0) return f.status;
  const limit = sub(f.limit, additional ?? 0);
  if (compare(limit, f.openBalance ?? 0) < 0) return 'H';
  if (compare(mul(limit, watchRatio(f.watchPercent)), f.openBalance ?? 0) < 0) return 'W';
  return 'O';
}

export const STATUS_NAMES: Record<string, string> = { S: 'Credit Stop', H: 'Credit Hold', W: 'Credit Watch', O: 'Credit OK', X: 'No Credit Check' };
