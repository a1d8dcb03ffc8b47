import { add, compare, div, isZero, mul, round, sub, ZERO, type Decimal, type DecimalInput } from '../decimal.js';

/**
 * Shares `amount` out over `bases` in proportion, each share rounded to `precision` (half up);
 * what rounding leaves over goes to the largest share (the first of equal ones), so that the
 * shares add up to the amount exactly, as the original's landed cost rounding does. A zero base
 * takes nothing. Answers null when the bases add up to zero (nothing to share by).
 */
export function distribute(amount: DecimalInput, bases: readonly DecimalInput[], precision: number): Decimal[] | null {
  let total: Decimal = ZERO;
  for (const b of bases) total = add(total, b);
  if (isZero(total)) return null;
  const shares = bases.map((b) => (isZero(b) ? round(0, precision) : div(mul(amount, b), total, precision)));
  let sum: Decimal = ZERO;
  let largest = -1;
  shares.forEach((s, i) => {
    sum = add(sum, s);
    if (!isZero(bases[i]) && (largest < 0 || compare(s, shares[largest]!) > 0)) largest = i;
  });
  const rest = sub(amount, sum);
  if (!isZero(rest)) shares[largest] = add(shares[largest]!, rest);
  return shares;
}
